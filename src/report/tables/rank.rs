//! Across datasets: the average rank of each method of a [`Table`] and where each method
//! family wins (`sslab table --rank`), rendered as Markdown, LaTeX or CSV beside the table.

use super::{Table, cell};
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

/// `ranks[d][m]`: method m's rank on dataset d among the methods with a cell there (1 =
/// best mean; tied means share the average of their ranks), None without a cell.
pub fn ranks(t: &Table) -> Vec<Vec<Option<f64>>> {
    let sign = if t.measure.higher_is_better { -1.0 } else { 1.0 };
    t.cells
        .iter()
        .map(|row| {
            let means: Vec<Option<f64>> =
                row.iter().map(|c| c.as_ref().map(|c| sign * c.mean)).collect();
            means
                .iter()
                .map(|mine| {
                    let mine = (*mine)?;
                    let (below, tied) = means.iter().flatten().fold((0, 0), |(b, t), &v| {
                        (b + usize::from(v < mine), t + usize::from(v == mine))
                    });
                    Some(below as f64 + (tied as f64 + 1.0) / 2.0)
                })
                .collect()
        })
        .collect()
}

/// One method across the datasets of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub method: String,
    pub family: String,
    /// Mean of its ranks over the datasets where it has a cell.
    pub mean_rank: f64,
    /// Datasets where it has a cell.
    pub datasets: usize,
    /// Datasets where it has the best mean.
    pub best: usize,
}

/// The methods' standings, best mean rank first (ties in table order); methods without a
/// cell are left out.
pub fn standings(t: &Table, families: &[String]) -> Vec<Standing> {
    let ranks = ranks(t);
    let mut out: Vec<Standing> = t
        .methods
        .iter()
        .enumerate()
        .filter_map(|(m, method)| {
            let mine: Vec<f64> = ranks.iter().filter_map(|row| row[m]).collect();
            (!mine.is_empty()).then(|| Standing {
                method: method.clone(),
                family: families[m].clone(),
                mean_rank: mine.iter().sum::<f64>() / mine.len() as f64,
                datasets: mine.len(),
                best: t.cells.iter().filter(|row| row[m].as_ref().is_some_and(|c| c.best)).count(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.mean_rank.total_cmp(&b.mean_rank));
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

/// The two summaries as Markdown sections.
pub fn markdown(t: &Table, families: &[String]) -> String {
    let mut out = format!(
        "\n## Average rank\n\nRank 1 = best mean on a dataset among the methods run on it (ties \
         share their mean rank), averaged over the datasets where the method ran (of {} in all).\n\n\
         | method | family | average rank | datasets | best on |\n|---|---|---|---|---|\n",
        t.datasets.len()
    );
    for s in standings(t, families) {
        out.push_str(&format!(
            "| {} | {} | {:.2} | {} | {} |\n",
            cell(&s.method),
            cell(&s.family),
            s.mean_rank,
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
        let list = |v: &[String]| {
            if v.is_empty() { "–".to_string() } else { format!("{}: {}", v.len(), v.join(", ")) }
        };
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            cell(&w.family),
            cell(&list(&w.best)),
            cell(&list(&w.not_worse))
        ));
    }
    out
}

/// The standings as a LaTeX (booktabs) table.
pub fn latex(t: &Table, families: &[String]) -> String {
    let esc = |s: &str| s.replace('_', "\\_").replace('%', "\\%").replace('&', "\\&");
    let mut out = "\n% Average rank over datasets (1 = best mean)\n\\begin{tabular}{llrrr}\n\
                   \\toprule\nmethod & family & average rank & datasets & best on \\\\\n\\midrule\n"
        .to_string();
    for s in standings(t, families) {
        out.push_str(&format!(
            "{} & {} & {:.2} & {} & {} \\\\\n",
            esc(&s.method),
            esc(&s.family),
            s.mean_rank,
            s.datasets,
            s.best
        ));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out
}

/// The standings as CSV: `method,family,mean_rank,datasets,best`.
pub fn csv(t: &Table, families: &[String]) -> Result<String> {
    let io = |e: ::csv::Error| Error::Report(e.to_string());
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(["method", "family", "mean_rank", "datasets", "best"]).map_err(io)?;
    for s in standings(t, families) {
        let rec = [
            s.method,
            s.family,
            format!("{:.4}", s.mean_rank),
            s.datasets.to_string(),
            s.best.to_string(),
        ];
        w.write_record(&rec).map_err(io)?;
    }
    String::from_utf8(w.into_inner().map_err(|e| Error::Report(e.to_string()))?)
        .map_err(|e| Error::Report(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::super::{ERROR, PRBEP, build};
    use super::*;

    fn row(dataset: &str, method: &str, kind: &str, split: usize, error: f64) -> ResultRow {
        // PRBEP = error, so that on the PRBEP the order flips.
        let base = crate::protocol::test_row(dataset, method, split, error);
        ResultRow { kind: kind.into(), prbep: error, ..base }
    }

    /// Three datasets: A best on d1, B and C tie on d2, C alone missing on d3.
    fn rows() -> Vec<ResultRow> {
        let mut out = Vec::new();
        for s in 0..6 {
            let e = 0.01 * s as f64;
            out.push(row("d1", "A", "qlds", s, 0.10 + e));
            out.push(row("d1", "B", "tsvm", s, 0.20 + e));
            out.push(row("d1", "C", "lap_rls", s, 0.30 + e));
            out.push(row("d2", "A", "qlds", s, 0.40 + e));
            out.push(row("d2", "B", "tsvm", s, 0.30 + e));
            out.push(row("d2", "C", "lap_rls", s, 0.30 + e));
            out.push(row("d3", "A", "qlds", s, 0.50 + e));
            out.push(row("d3", "B", "tsvm", s, 0.40 + e));
        }
        out
    }

    #[test]
    fn ranks_average_ties_and_skip_missing_cells() {
        let t = build(&rows(), ERROR, "").unwrap();
        assert_eq!(t.methods, ["A", "B", "C"]);
        let r = ranks(&t);
        assert_eq!(r[0], [Some(1.0), Some(2.0), Some(3.0)]);
        assert_eq!(r[1], [Some(3.0), Some(1.5), Some(1.5)]);
        assert_eq!(r[2], [Some(2.0), Some(1.0), None]);
        // On a higher-is-better measure the largest mean ranks first.
        let p = build(&rows(), PRBEP, "").unwrap();
        assert_eq!(ranks(&p)[0], [Some(3.0), Some(2.0), Some(1.0)]);
    }

    #[test]
    fn standings_are_mean_ranks_over_the_datasets_a_method_ran_on() {
        let rows = rows();
        let t = build(&rows, ERROR, "").unwrap();
        let f = families(&t, &rows).unwrap();
        assert_eq!(f, ["QLDS", "SVMlin", "graph (TV-SVM paper)"]);
        let s = standings(&t, &f);
        let by = |m: &str| s.iter().find(|s| s.method == m).unwrap().clone();
        // B: (2 + 1.5 + 1) / 3; A: (1 + 3 + 2) / 3; C: (3 + 1.5) / 2.
        assert!((by("B").mean_rank - 1.5).abs() < 1e-12 && by("B").datasets == 3);
        assert!((by("A").mean_rank - 2.0).abs() < 1e-12 && by("A").best == 1);
        assert!((by("C").mean_rank - 2.25).abs() < 1e-12 && by("C").datasets == 2);
        assert_eq!(s.iter().map(|s| s.method.as_str()).collect::<Vec<_>>(), ["B", "A", "C"]);
        let csv = csv(&t, &f).unwrap();
        assert_eq!(csv.lines().nth(1).unwrap(), "B,SVMlin,1.5000,3,2");
        assert!(latex(&t, &f).contains("B & SVMlin & 1.50 & 3 & 2 \\\\"));
    }

    #[test]
    fn family_wins_list_best_and_not_significantly_worse_datasets() {
        let rows = rows();
        let t = build(&rows, ERROR, "").unwrap();
        let f = families(&t, &rows).unwrap();
        let w = family_wins(&t, &f);
        assert_eq!(w[0].best, ["d1"]);
        // B and C tie on d2 (B is the first best); 6 splits all worse give p = 1/64 < 0.05.
        assert_eq!(w[1].best, ["d2", "d3"]);
        assert_eq!(w[2].best, Vec::<String>::new());
        assert_eq!(w[2].not_worse, ["d2"]);
        let md = markdown(&t, &f);
        assert!(md.contains("| SVMlin | 2: d2, d3 | 2: d2, d3 |"), "{md}");
        assert!(md.contains("| graph (TV-SVM paper) | – | 1: d2 |"), "{md}");
        assert!(md.contains("| B | SVMlin | 1.50 | 3 | 2 |"), "{md}");
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
