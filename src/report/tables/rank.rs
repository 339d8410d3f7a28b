//! Across datasets: each method's standing (its mean rank over the common datasets, from
//! [`Across`]) and where each method family wins (`sslab table --rank`); rendered by
//! `rank_render`.

use super::Table;
use super::across::Across;
use crate::error::{Error, Result};
use crate::protocol::ResultRow;

/// The family a method `kind` belongs to, as the rank summary names it (the method folders
/// of `src/methods/`, plus external programs); an unknown kind is its own family.
pub fn family(kind: &str) -> &str {
    match kind {
        "qlds" | "ls_svm" | "gb_ssl" | "spectral" => "QLDS",
        "self_training" => "self-training",
        "gradient" => "Adam-trained losses",
        "linear_rls" | "linear_svm" | "tsvm" | "da" => "SVMlin",
        "rls" | "svm" | "lap_rls" | "lap_svm" | "tv_rls" | "tv_svm" | "cheeger_rls"
        | "cheeger_svm" => "graph (TV-SVM paper)",
        "laplace" | "poisson" | "label_spreading" | "label_propagation" | "graph_lap_rls"
        | "graph_tv_rls" | "graph_cheeger_rls" => "sparse graph",
        "command" => "external program",
        other => other,
    }
}

/// The families of `t.methods`, from the `kind` of their rows (the first row naming each).
pub fn families(t: &Table, rows: &[ResultRow]) -> Result<Vec<String>> {
    t.methods
        .iter()
        .map(|m| {
            rows.iter()
                .find(|r| &r.method == m)
                .map(|r| family(&r.kind).to_string())
                .ok_or_else(|| Error::Report(format!("no row of method `{m}`")))
        })
        .collect()
}

/// One method across the datasets of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub method: String,
    pub family: String,
    /// Mean rank over the common datasets; None for a method left apart.
    pub mean_rank: Option<f64>,
    /// Datasets where it has a cell (all of them, not only the common ones).
    pub datasets: usize,
    /// Datasets where it has the best mean.
    pub best: usize,
    /// Against the control: z, two-sided p and Holm-adjusted p (None for the control and
    /// for methods left apart).
    pub vs_control: Option<(f64, f64, f64)>,
}

/// The methods' standings: the ranked ones, best mean rank first (ties in table order),
/// then those left apart in table order.
pub fn standings(t: &Table, families: &[String], a: &Across) -> Vec<Standing> {
    let standing = |m: usize, mean_rank: Option<f64>, vs_control| Standing {
        method: t.methods[m].clone(),
        family: families[m].clone(),
        mean_rank,
        datasets: t.cells.iter().filter(|row| row[m].is_some()).count(),
        best: t.cells.iter().filter(|row| row[m].as_ref().is_some_and(|c| c.best)).count(),
        vs_control,
    };
    let mut out: Vec<Standing> = a
        .methods
        .iter()
        .enumerate()
        .map(|(i, &m)| standing(m, Some(a.mean_ranks[i]), a.vs_control[i]))
        .collect();
    out.sort_by(|x, y| x.mean_rank.unwrap_or(0.0).total_cmp(&y.mean_rank.unwrap_or(0.0)));
    out.extend(a.apart.iter().map(|&m| standing(m, None, None)));
    out
}

/// Where one family wins: the datasets where one of its methods has the best mean, and
/// those where its best method is not significantly worse than the best.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyWins {
    pub family: String,
    pub best: Vec<String>,
    pub not_worse: Vec<String>,
}

/// Per family in first-appearance order of `families`.
pub fn family_wins(t: &Table, families: &[String]) -> Vec<FamilyWins> {
    let mut out: Vec<FamilyWins> = Vec::new();
    for f in families {
        if out.iter().any(|w| &w.family == f) {
            continue;
        }
        let mine = |d: usize, keep: &dyn Fn(&super::Cell) -> bool| {
            (0..t.methods.len())
                .any(|m| &families[m] == f && t.cells[d][m].as_ref().is_some_and(keep))
        };
        let datasets = |keep: &dyn Fn(&super::Cell) -> bool| -> Vec<String> {
            (0..t.datasets.len())
                .filter(|&d| mine(d, keep))
                .map(|d| t.datasets[d].clone())
                .collect()
        };
        out.push(FamilyWins {
            family: f.clone(),
            best: datasets(&|c| c.best),
            not_worse: datasets(&|c| !c.worse()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::across::{across, block, cliques};
    use super::super::rank_render::{csv, latex, markdown, pairs_csv};
    use super::super::{ERROR, PRBEP, build};
    use super::*;

    fn row(dataset: &str, method: &str, kind: &str, split: usize, error: f64) -> ResultRow {
        // PRBEP = error, so that on the PRBEP the order flips.
        let base = crate::protocol::test_row(dataset, method, split, error);
        ResultRow { kind: kind.into(), prbep: error, ..base }
    }

    /// A, B, C on d1 … d4 (B and C tie on d2); D on d4 only, where it is best.
    fn rows() -> Vec<ResultRow> {
        let mut out = Vec::new();
        let cells = [
            ("d1", [0.10, 0.20, 0.30]),
            ("d2", [0.40, 0.30, 0.30]),
            ("d3", [0.50, 0.40, 0.60]),
            ("d4", [0.20, 0.25, 0.35]),
        ];
        for s in 0..6 {
            let e = 0.01 * s as f64;
            for (d, v) in cells {
                out.push(row(d, "A", "qlds", s, v[0] + e));
                out.push(row(d, "B", "tsvm", s, v[1] + e));
                out.push(row(d, "C", "lap_rls", s, v[2] + e));
            }
            out.push(row("d4", "D", "da", s, 0.05 + e));
        }
        out
    }

    #[test]
    fn ranks_are_over_the_common_block_and_few_dataset_methods_stand_apart() {
        let t = build(&rows(), ERROR, "").unwrap();
        assert_eq!(t.methods, ["A", "B", "C", "D"]);
        // With D the common ground is d4 alone (4 × 1 cells); without it 3 × 4.
        assert_eq!(block(&t), (vec![0, 1, 2], vec![0, 1, 2, 3]));
        let a = across(&t, None).unwrap();
        assert_eq!(a.apart, [3]);
        // A: (1 + 3 + 2 + 1) / 4; B: (2 + 1.5 + 1 + 2) / 4; C: (3 + 1.5 + 3 + 3) / 4.
        assert_eq!(a.mean_ranks, [1.75, 1.625, 2.625]);
        assert_eq!(a.control, 1);
        // scipy 1.17.1: stats.friedmanchisquare([.1,.4,.5,.2], [.2,.3,.4,.25], [.3,.3,.6,.35])
        // = (2.533333333333333, 0.2817692890949582).
        let f = a.friedman.clone().unwrap();
        assert!((f.chi2 - 2.533_333_333_333_333).abs() < 1e-12);
        assert!((f.chi2_p - 0.281_769_289_094_958_2).abs() < 1e-10);
        assert!(a.vs_control[1].is_none() && a.vs_control[0].is_some() && a.pairs.len() == 3);
        // k = 3, N = 4: CD = 2.343 × √(3·4/24) ≈ 1.66 > every difference: one clique.
        assert!((a.cd - 1.657).abs() < 0.001, "{}", a.cd);
        assert_eq!(cliques(&a), [vec![1, 0, 2]]);
        // A control that is not ranked is refused with the ranked ones named.
        let e = across(&t, Some("D")).unwrap_err().to_string();
        assert!(e.contains("control `D` is not among the ranked methods (A, B, C)"), "{e}");
        // On a higher-is-better measure the largest mean ranks first.
        let p = across(&build(&rows(), PRBEP, "").unwrap(), None).unwrap();
        assert_eq!(p.mean_ranks, [2.25, 2.375, 1.375]);
    }

    #[test]
    fn standings_list_ranked_methods_then_those_apart() {
        let rows = rows();
        let t = build(&rows, ERROR, "").unwrap();
        let f = families(&t, &rows).unwrap();
        assert_eq!(f, ["QLDS", "SVMlin", "graph (TV-SVM paper)", "SVMlin"]);
        let a = across(&t, None).unwrap();
        let s = standings(&t, &f, &a);
        assert_eq!(s.iter().map(|s| s.method.as_str()).collect::<Vec<_>>(), ["B", "A", "C", "D"]);
        assert_eq!((s[0].mean_rank, s[0].datasets, s[0].best), (Some(1.625), 4, 2));
        assert_eq!((s[3].mean_rank, s[3].datasets, s[3].best), (None, 1, 1));
        let csv = csv(&t, &f, &a).unwrap();
        assert!(csv.starts_with("method,family,ranked,mean_rank,datasets,best,z,p_value,p_holm,differs\nB,SVMlin,true,1.6250,4,2,,,,\n"), "{csv}");
        assert!(csv.ends_with("D,SVMlin,false,,1,1,,,,\n"), "{csv}");
        assert!(latex(&t, &f, &a).contains("B & SVMlin & 1.62 & 4 & 2 & -- \\\\"));
        let md = markdown(&t, &f, &a, "g");
        assert!(md.contains("| B | SVMlin | 1.62 | 4 | 2 | control | – | – |"), "{md}");
        assert!(md.contains("| D | SVMlin | apart | 1 | 1 | – | – | – |"), "{md}");
        assert!(md.contains("over the 4 datasets (of 4) every one of them ran on: d1, d2, d3, d4. Left apart, too few datasets in common: D (1 of 4 datasets)."), "{md}");
        assert!(md.contains("χ²_F = 2.53 with 2 degrees of freedom, p = 0.2818"), "{md}");
        assert!(
            pairs_csv(&t, &a)
                .unwrap()
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("A,B,1.7500,1.6250,0.1250,")
        );
    }

    #[test]
    fn family_wins_list_best_and_not_significantly_worse_datasets() {
        let rows = rows();
        let t = build(&rows, ERROR, "").unwrap();
        let f = families(&t, &rows).unwrap();
        let w = family_wins(&t, &f);
        assert_eq!(w[0].best, ["d1"]);
        // B and C tie on d2 (B is the first best); D is best on d4.
        assert_eq!(w[1].best, ["d2", "d3", "d4"]);
        assert_eq!(w[2].best, Vec::<String>::new());
        assert_eq!(w[2].not_worse, ["d2"]);
        let md = markdown(&t, &f, &across(&t, None).unwrap(), "g");
        assert!(md.contains("| SVMlin | 3: d2, d3, d4 | 3: d2, d3, d4 |"), "{md}");
        assert!(md.contains("| graph (TV-SVM paper) | – | 1: d2 |"), "{md}");
    }

    #[test]
    fn every_built_in_kind_has_a_family() {
        for fam in crate::methods::FAMILIES {
            for kind in fam.kinds() {
                assert_ne!(family(kind), *kind, "kind `{kind}` has no family in rank::family");
            }
        }
        assert_eq!(family("mystery"), "mystery");
    }
}
