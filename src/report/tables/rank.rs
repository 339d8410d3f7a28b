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
    use super::*;

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
