//! The rank summary of `sslab table --rank` as CSV files: `NAME_ranks.csv`,
//! `NAME_friedman.csv` and `NAME_pairs.csv` (columns in docs/output.md).

use super::across::Across;
use super::rank::{Standing, standings};
use super::{ALPHA, Table};
use crate::error::{Error, Result};
use crate::stats::special::nemenyi_q;

/// CSV text from a header and records.
fn to_csv(header: &[&str], records: Vec<Vec<String>>) -> Result<String> {
    let io = |e: ::csv::Error| Error::Report(e.to_string());
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(io)?;
    for r in records {
        w.write_record(&r).map_err(io)?;
    }
    String::from_utf8(w.into_inner().map_err(|e| Error::Report(e.to_string()))?)
        .map_err(|e| Error::Report(e.to_string()))
}

/// `NAME_ranks.csv`: `method,family,ranked,mean_rank,datasets,best,z,p_value,p_holm,differs`.
pub fn csv(t: &Table, families: &[String], a: &Across) -> Result<String> {
    let records = standings(t, families, a)
        .into_iter()
        .map(|s: Standing| {
            let (z, p, h, differs) = s.vs_control.map_or(
                (String::new(), String::new(), String::new(), String::new()),
                |(z, p, h)| {
                    (
                        format!("{z:.4}"),
                        format!("{p:.6}"),
                        format!("{h:.6}"),
                        (h < ALPHA).to_string(),
                    )
                },
            );
            vec![
                s.method,
                s.family,
                s.mean_rank.is_some().to_string(),
                s.mean_rank.map_or(String::new(), |r| format!("{r:.4}")),
                s.datasets.to_string(),
                s.best.to_string(),
                z,
                p,
                h,
                differs,
            ]
        })
        .collect();
    to_csv(
        &[
            "method",
            "family",
            "ranked",
            "mean_rank",
            "datasets",
            "best",
            "z",
            "p_value",
            "p_holm",
            "differs",
        ],
        records,
    )
}

/// `NAME_friedman.csv`, one line: `methods,datasets,chi2,chi2_p,iman_davenport,df1,df2,f_p,
/// alpha,q_alpha,critical_difference,control` (only the header without a test).
pub fn friedman_csv(t: &Table, a: &Across) -> Result<String> {
    let records = a.friedman.iter().map(|f| {
        vec![
            f.methods.to_string(),
            f.datasets.to_string(),
            format!("{:.6}", f.chi2),
            format!("{:.6e}", f.chi2_p),
            format!("{:.6}", f.f),
            (f.methods - 1).to_string(),
            ((f.methods - 1) * (f.datasets - 1)).to_string(),
            format!("{:.6e}", f.f_p),
            ALPHA.to_string(),
            format!("{:.6}", nemenyi_q(ALPHA, f.methods)),
            format!("{:.6}", a.cd),
            t.methods[a.methods[a.control]].clone(),
        ]
    });
    to_csv(
        &[
            "methods",
            "datasets",
            "chi2",
            "chi2_p",
            "iman_davenport",
            "df1",
            "df2",
            "f_p",
            "alpha",
            "q_alpha",
            "critical_difference",
            "control",
        ],
        records.collect(),
    )
}

/// `NAME_pairs.csv`: `method_a,method_b,rank_a,rank_b,difference,p_nemenyi,differs`, every
/// pair of ranked methods (Nemenyi).
pub fn pairs_csv(t: &Table, a: &Across) -> Result<String> {
    let records = a
        .pairs
        .iter()
        .map(|&(i, j, diff, p)| {
            vec![
                t.methods[a.methods[i]].clone(),
                t.methods[a.methods[j]].clone(),
                format!("{:.4}", a.mean_ranks[i]),
                format!("{:.4}", a.mean_ranks[j]),
                format!("{diff:.4}"),
                format!("{p:.6}"),
                (p < ALPHA).to_string(),
            ]
        })
        .collect();
    to_csv(
        &["method_a", "method_b", "rank_a", "rank_b", "difference", "p_nemenyi", "differs"],
        records,
    )
}
