//! Our table next to a paper's: per (dataset, method) both means ± stds and the difference
//! in units of the paper's std, or of ours where the paper gives none. The paper's numbers
//! live in `configs/published/*.csv` (`dataset,method,mean,std,worse,note`, `#` comments),
//! notes on uncertain labels kept.

use std::path::Path;

use serde::Deserialize;

use super::tables::{Table, cell};
use crate::error::{Error, Result};

/// One published cell (error in %); a mean lost in our copy of the paper is `NaN`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Published {
    pub dataset: String,
    pub method: String,
    pub mean: f64,
    pub std: f64,
    /// The paper marks it significantly worse than the best.
    pub worse: bool,
    /// Caveats such as a label lost in our copy of the paper.
    pub note: String,
}

/// Reads a published-numbers file.
pub fn load_published(path: &Path) -> Result<Vec<Published>> {
    let err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut r = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(path).map_err(err)?;
    r.deserialize().map(|row| row.map_err(err)).collect()
}

/// How far our mean is from the paper's, in the paper's std, or in ours (`our_std`) when
/// the paper gives none (std 0); None when both are 0 or the paper's mean is lost.
pub fn distance(ours: f64, our_std: f64, paper: &Published) -> Option<f64> {
    if paper.mean.is_nan() {
        return None;
    }
    let scale = if paper.std > 0.0 { paper.std } else { our_std };
    (scale > 0.0).then(|| (ours - paper.mean) / scale)
}

/// Markdown comparison: every published cell, ours beside it where we have it.
pub fn markdown(ours: &Table, published: &[Published], source: &str) -> String {
    let mut out = String::from(
        "| dataset | method | ours | paper | (ours − paper) / std | within 2 std | note |\n|---|---|---|---|---|---|---|\n",
    );
    let mut within = (0, 0);
    for p in published {
        let d = ours.datasets.iter().position(|x| *x == p.dataset);
        let m = ours.methods.iter().position(|x| *x == p.method);
        let ours_cell = d.zip(m).and_then(|(d, m)| ours.cells[d][m].as_ref());
        let mean = if p.mean.is_nan() { "lost".to_string() } else { format!("{:.2}", p.mean) };
        let paper = format!("{mean} ± {:.2}{}", p.std, if p.worse { " ↓" } else { "" });
        let (mine, dist, ok) = match ours_cell {
            None => ("–".to_string(), "–".to_string(), "–".to_string()),
            Some(c) => {
                let mine =
                    format!("{:.2} ± {:.2}{}", c.mean, c.std, if c.worse() { " ↓" } else { "" });
                match distance(c.mean, c.std, p) {
                    Some(z) => {
                        within.1 += 1;
                        if z.abs() <= 2.0 {
                            within.0 += 1;
                        }
                        (
                            mine,
                            format!("{z:+.2}"),
                            if z.abs() <= 2.0 { "yes" } else { "no" }.to_string(),
                        )
                    }
                    None => (mine, "–".to_string(), "–".to_string()),
                }
            }
        };
        out.push_str(&format!(
            "| {} | {} | {mine} | {paper} | {dist} | {ok} | {} |\n",
            cell(&p.dataset),
            cell(&p.method),
            cell(&p.note)
        ));
    }
    out.push_str(&format!(
        "\n{} of {} compared cells within 2 std (the paper's std; ours where the paper gives none). Paper: {source}. Ours: {}\n",
        within.0, within.1, ours.stamp
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tables::Cell;

    #[test]
    fn reads_published_files_and_measures_distance_in_paper_stds() {
        let path = std::env::temp_dir().join(format!("sslab-pub-{}.csv", std::process::id()));
        std::fs::write(&path, "# comment\ndataset,method,mean,std,worse,note\nd,A,10,2,true,\nd,B,5,0,false,label lost\nd,C,NaN,1.5,false,mean lost\n").unwrap();
        let published = load_published(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(published.len(), 3);
        assert_eq!(distance(1.0, 2.0, &published[2]), None);
        assert_eq!(distance(13.0, 4.0, &published[0]), Some(1.5));
        assert_eq!(distance(1.0, 2.0, &published[1]), Some(-2.0));
        assert_eq!(distance(1.0, 0.0, &published[1]), None);
        let cell = |mean| Some(Cell::new(mean, 1.0, 20));
        let table = Table {
            measure: crate::report::tables::ERROR,
            datasets: vec!["d".into()],
            methods: vec!["A".into(), "C".into()],
            cells: vec![vec![cell(15.0), cell(3.0)]],
            stamp: "s".into(),
            notes: Vec::new(),
        };
        let md = markdown(&table, &published, "Table 2");
        assert!(md.contains("| d | A | 15.00 ± 1.00 | 10.00 ± 2.00 ↓ | +2.50 | no |  |"), "{md}");
        assert!(md.contains("| d | B | – | 5.00 ± 0.00 | – | – | label lost |"));
        assert!(md.contains("| d | C | 3.00 ± 1.00 | lost ± 1.50 | – | – | mean lost |"), "{md}");
        assert!(md.contains("0 of 1 compared cells within 2 std"));
    }
}
