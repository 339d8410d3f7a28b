//! The rank summary of `sslab table --rank` as Markdown sections and a LaTeX table (the CSV
//! files are `rank_csv`'s).

use super::across::Across;
use super::rank::{FamilyWins, family_wins, standings};
use super::{ALPHA, Table, cell};
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

#[cfg(test)]
mod tests {
    use super::super::across::{across, block, cliques};
    use super::super::rank::{families, standings};
    use super::super::rank_csv::{csv, pairs_csv};
    use super::super::{ERROR, PRBEP, build};
    use super::*;
    use crate::protocol::ResultRow;

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
    fn without_two_common_datasets_there_is_no_test_and_no_diagram() {
        let rows: Vec<ResultRow> = (0..3)
            .flat_map(|s| [row("d1", "A", "qlds", s, 0.1), row("d2", "B", "tsvm", s, 0.2)])
            .collect();
        let t = build(&rows, ERROR, "").unwrap();
        let a = across(&t, None).unwrap();
        assert!(
            a.friedman.is_none() && a.cd.is_nan() && a.pairs.is_empty() && a.datasets.is_empty()
        );
        let md = markdown(&t, &families(&t, &rows).unwrap(), &a, "g");
        assert!(
            md.contains("Fewer than 2 methods or datasets in common: no test across datasets."),
            "{md}"
        );
        let f = super::super::rank_csv::friedman_csv(&t, &a).unwrap();
        assert_eq!(f.lines().count(), 1, "{f}");
    }
}
