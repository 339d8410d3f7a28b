//! Across datasets (`sslab table --rank`): the methods ranked on the datasets they all ran
//! on, the Friedman test with the Iman–Davenport F, Nemenyi's critical difference for all
//! pairs and each method against a control with Holm's correction (Demšar, JMLR 2006).

use super::{ALPHA, Table};
use crate::error::{Error, Result};
use crate::stats::friedman::{Friedman, average_ranks, friedman};
use crate::stats::posthoc::{against_control, critical_difference, holm, nemenyi_p};

/// The comparison over the common block of a table.
#[derive(Debug, Clone)]
pub struct Across {
    /// The ranked methods (indices into `Table::methods`, table order) and the datasets
    /// where every one of them has a cell (indices into `Table::datasets`).
    pub methods: Vec<usize>,
    pub datasets: Vec<usize>,
    /// Methods with a cell that were left out of the block, table order.
    pub apart: Vec<usize>,
    /// `mean_ranks[i]` of `methods[i]` over the block (1 = best mean on a dataset).
    pub mean_ranks: Vec<f64>,
    /// None with fewer than 2 methods or datasets in the block.
    pub friedman: Option<Friedman>,
    /// Nemenyi's critical difference of mean ranks at [`ALPHA`] (NaN without a test).
    pub cd: f64,
    /// Position in `methods` of the control: the one asked for, else the best mean rank.
    pub control: usize,
    /// Per ranked method: z against the control, two-sided p and Holm-adjusted p over the
    /// k − 1 comparisons (None for the control itself).
    pub vs_control: Vec<Option<(f64, f64, f64)>>,
    /// All pairs (i < j positions in `methods`): |mean-rank difference| and Nemenyi's p.
    pub pairs: Vec<(usize, usize, f64, f64)>,
}

/// `has[d][m]`: method m has a cell on dataset d.
fn presence(t: &Table) -> Vec<Vec<bool>> {
    t.cells.iter().map(|row| row.iter().map(Option::is_some).collect()).collect()
}

/// The datasets where every method of `ms` has a cell.
fn common(has: &[Vec<bool>], ms: &[usize]) -> Vec<usize> {
    (0..has.len()).filter(|&d| ms.iter().all(|&m| has[d][m])).collect()
}

/// The block: starting from every method with a cell, drop one method at a time — the one
/// whose removal leaves the most method × dataset cells in the block (ties: the one on the
/// fewest datasets, then the later) — while that gains cells or fewer than 2 datasets are
/// common, and at least 2 methods remain.
pub fn block(t: &Table) -> (Vec<usize>, Vec<usize>) {
    let has = presence(t);
    let count = |m: usize| has.iter().filter(|row| row[m]).count();
    let mut ms: Vec<usize> = (0..t.methods.len()).filter(|&m| count(m) > 0).collect();
    loop {
        let size = ms.len() * common(&has, &ms).len();
        if ms.len() <= 2 {
            break;
        }
        let candidate = (0..ms.len())
            .map(|i| {
                let mut rest = ms.clone();
                rest.remove(i);
                ((rest.len() * common(&has, &rest).len()), std::cmp::Reverse(count(ms[i])), i)
            })
            .max();
        match candidate {
            Some((gain, _, i)) if gain > size || common(&has, &ms).len() < 2 => {
                ms.remove(i);
            }
            _ => break,
        }
    }
    let ds = common(&has, &ms);
    (ms, ds)
}

/// The comparison; `control` names the control method (else the best mean rank).
pub fn across(t: &Table, control: Option<&str>) -> Result<Across> {
    let (methods, datasets) = block(t);
    let sign = if t.measure.higher_is_better { -1.0 } else { 1.0 };
    let ranks: Vec<Vec<f64>> = datasets
        .iter()
        .map(|&d| {
            let means: Vec<f64> = methods
                .iter()
                .map(|&m| t.cells[d][m].as_ref().map_or(f64::INFINITY, |c| sign * c.mean))
                .collect();
            average_ranks(&means)
        })
        .collect();
    let n = datasets.len();
    let mean_ranks: Vec<f64> = (0..methods.len())
        .map(|i| ranks.iter().map(|row| row[i]).sum::<f64>() / n.max(1) as f64)
        .collect();
    let control = match control {
        Some(name) => methods.iter().position(|&m| t.methods[m] == name).ok_or_else(|| {
            let ranked: Vec<&str> = methods.iter().map(|&m| t.methods[m].as_str()).collect();
            Error::Report(format!(
                "control `{name}` is not among the ranked methods ({})",
                ranked.join(", ")
            ))
        })?,
        None => {
            (0..methods.len()).min_by(|&a, &b| mean_ranks[a].total_cmp(&mean_ranks[b])).unwrap_or(0)
        }
    };
    let friedman = friedman(&ranks);
    let k = methods.len();
    let (cd, vs_control, pairs) = if friedman.is_some() {
        let zp = against_control(&mean_ranks, control, n);
        let others: Vec<usize> = (0..k).filter(|&i| i != control).collect();
        let adjusted = holm(&others.iter().map(|&i| zp[i].1).collect::<Vec<_>>());
        let mut vs = vec![None; k];
        for (&i, a) in others.iter().zip(adjusted) {
            vs[i] = Some((zp[i].0, zp[i].1, a));
        }
        let pairs = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .map(|(i, j)| {
                let diff = (mean_ranks[i] - mean_ranks[j]).abs();
                (i, j, diff, nemenyi_p(diff, k, n))
            })
            .collect();
        (critical_difference(ALPHA, k, n), vs, pairs)
    } else {
        (f64::NAN, vec![None; k], Vec::new())
    };
    let apart = (0..t.methods.len())
        .filter(|m| !methods.contains(m) && t.cells.iter().any(|row| row[*m].is_some()))
        .collect();
    Ok(Across { methods, datasets, apart, mean_ranks, friedman, cd, control, vs_control, pairs })
}

/// Groups of methods no two of which differ significantly (Nemenyi), as maximal runs of
/// the methods sorted by mean rank whose extreme ranks are at most CD apart; positions in
/// `a.methods`, groups of two methods or more.
pub fn cliques(a: &Across) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..a.methods.len()).collect();
    order.sort_by(|&x, &y| a.mean_ranks[x].total_cmp(&a.mean_ranks[y]));
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut last_end = 0;
    for start in 0..order.len() {
        let end = (start..order.len())
            .take_while(|&j| a.mean_ranks[order[j]] - a.mean_ranks[order[start]] <= a.cd)
            .last()
            .unwrap_or(start);
        if end > start && end > last_end {
            out.push(order[start..=end].to_vec());
            last_end = end;
        }
    }
    out
}
