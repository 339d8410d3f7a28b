//! The rank summary of `sslab table --rank` as Markdown sections, a LaTeX table and CSV files
//! (`NAME_ranks.csv`, `NAME_friedman.csv`, `NAME_pairs.csv`).

use super::across::Across;
use super::rank::{FamilyWins, Standing, family_wins, standings};
use super::{ALPHA, Table, cell};
use crate::error::{Error, Result};
use crate::stats::special::nemenyi_q;

/// A p-value for reading: 4 decimals, or scientific below 10⁻⁴.
fn p_text(p: f64) -> String {
    if p < 1e-4 { format!("{p:.1e}") } else { format!("{p:.4}") }
}

/// The block, Friedman, Nemenyi and Holm sentences (Markdown), for figure `NAME_cd.png`.
fn across_text(t: &Table, a: &Across, name: &str) -> String {
    let names = |idx: &[usize], of: &[String]| -> String {
        idx.iter().map(|&i| cell(&of[i])).collect::<Vec<_>>().join(", ")
    };
    let mut out = format!(
        "Rank 1 = best mean on a dataset (ties share their mean rank) among the {} ranked \
         methods, averaged over the {} datasets (of {}) every one of them ran on: {}.",
        a.methods.len(),
        a.datasets.len(),
        t.datasets.len(),
        names(&a.datasets, &t.datasets)
    );
    if !a.apart.is_empty() {
        let apart: Vec<String> = a
            .apart
            .iter()
            .map(|&m| {
                let n = t.cells.iter().filter(|row| row[m].is_some()).count();
                format!("{} ({n} of {} datasets)", cell(&t.methods[m]), t.datasets.len())
            })
            .collect();
        out.push_str(&format!(
            " Left apart, too few datasets in common: {}. The ranked block holds the most \
             method × dataset cells found by leaving out one method at a time.",
            apart.join(", ")
        ));
    }
    let Some(f) = &a.friedman else {
        out.push_str(" Fewer than 2 methods or datasets in common: no test across datasets.\n");
        return out;
    };
    let (k, n) = (f.methods as f64, f.datasets as f64);
    let control = cell(&t.methods[a.methods[a.control]]);
    let differ = a.pairs.iter().filter(|p| p.3 < ALPHA).count();
    out.push_str(&format!(
        "\n\nFriedman test (tie-corrected): χ²_F = {:.2} with {} degrees of freedom, p = {}; \
         Iman–Davenport F_F = {:.2} with ({}, {}) degrees of freedom, p = {}. Nemenyi at α = \
         {ALPHA}: CD = q_α √(k(k+1)/(6N)) = {:.3} × √({}·{}/(6·{})) = {:.2}; {differ} of {} \
         pairs of methods differ by more (`{name}_pairs.csv`; diagram `figures/{name}_cd.png`). \
         Against the control {control} (the {}): z = (R_i − R_control) / √(k(k+1)/(6N)), \
         two-sided p, Holm-adjusted over the {} comparisons; Holm p < {ALPHA} means it ranks \
         significantly apart from the control.\n",
        f.chi2,
        f.methods - 1,
        p_text(f.chi2_p),
        f.f,
        f.methods - 1,
        (f.methods - 1) * (f.datasets - 1),
        p_text(f.f_p),
        nemenyi_q(ALPHA, f.methods),
        k,
        k + 1.0,
        n,
        a.cd,
        a.pairs.len(),
        if a.control == best(a) { "best mean rank" } else { "control asked for" },
        f.methods - 1,
    ));
    out
}

/// Position in `a.methods` of the best mean rank.
fn best(a: &Across) -> usize {
    (0..a.methods.len()).min_by(|&x, &y| a.mean_ranks[x].total_cmp(&a.mean_ranks[y])).unwrap_or(0)
}

/// The rank summary and the family wins as Markdown sections.
pub fn markdown(t: &Table, families: &[String], a: &Across, name: &str) -> String {
    let mut out = format!(
        "\n## Average rank over common datasets\n\n{}\n\
         | method | family | average rank | datasets | best on | z vs control | p | Holm p |\n\
         |---|---|---|---|---|---|---|---|\n",
        across_text(t, a, name)
    );
    for s in standings(t, families, a) {
        let rank = s.mean_rank.map_or("apart".to_string(), |r| format!("{r:.2}"));
        let (z, p, h) = match s.vs_control {
            Some((z, p, h)) => (format!("{z:.2}"), p_text(p), p_text(h)),
            None if s.mean_rank.is_some() => ("control".into(), "–".into(), "–".into()),
            None => ("–".into(), "–".into(), "–".into()),
        };
        out.push_str(&format!(
            "| {} | {} | {rank} | {} | {} | {z} | {p} | {h} |\n",
            cell(&s.method),
            cell(&s.family),
            s.datasets,
            s.best
        ));
    }
    out.push_str(
        "\n## Where each family wins\n\nBest: a method of the family has the best mean; not \
         worse: a method of the family is the best or not significantly worse than it (no ↓).\n\n\
         | family | best on | not worse on |\n|---|---|---|\n",
    );
    for w in family_wins(t, families) {
        out.push_str(&win_row(&w));
    }
    out
}

/// One family's row of the wins table.
fn win_row(w: &FamilyWins) -> String {
    let list = |v: &[String]| {
        if v.is_empty() { "–".to_string() } else { format!("{}: {}", v.len(), v.join(", ")) }
    };
    format!("| {} | {} | {} |\n", cell(&w.family), cell(&list(&w.best)), cell(&list(&w.not_worse)))
}

/// The standings as a LaTeX (booktabs) table, the tests in a comment above it.
pub fn latex(t: &Table, families: &[String], a: &Across) -> String {
    let esc = |s: &str| s.replace('_', "\\_").replace('%', "\\%").replace('&', "\\&");
    let tests = a.friedman.as_ref().map_or(String::new(), |f| {
        format!(
            "% Friedman chi2_F = {:.2} (p = {}), Iman-Davenport F_F = {:.2} (p = {}), Nemenyi CD = {:.2}\n",
            f.chi2,
            p_text(f.chi2_p),
            f.f,
            p_text(f.f_p),
            a.cd
        )
    });
    let mut out = format!(
        "\n% Average rank over the {} common datasets (1 = best mean)\n{tests}\
         \\begin{{tabular}}{{llrrrr}}\n\\toprule\nmethod & family & average rank & datasets & \
         best on & Holm p vs control \\\\\n\\midrule\n",
        a.datasets.len()
    );
    for s in standings(t, families, a) {
        let rank = s.mean_rank.map_or("--".to_string(), |r| format!("{r:.2}"));
        let h = s.vs_control.map_or("--".to_string(), |v| p_text(v.2));
        out.push_str(&format!(
            "{} & {} & {rank} & {} & {} & {h} \\\\\n",
            esc(&s.method),
            esc(&s.family),
            s.datasets,
            s.best
        ));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out
}

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
