//! The critical-difference diagram (Demšar, JMLR 2006, Fig. 1): the methods' average ranks
//! on an axis (1 = best, on the left), Nemenyi's critical difference as a bar above it, and
//! thick bars joining the methods that do not differ significantly.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{Error, Result};
use crate::report::tables::Table;
use crate::report::tables::across::{Across, cliques};

/// What the diagram shows: names with their mean ranks, the CD and the groups.
#[derive(Debug, Clone, PartialEq)]
pub struct CdDiagram {
    pub title: String,
    /// (name, mean rank), best first.
    pub methods: Vec<(String, f64)>,
    pub cd: f64,
    /// Groups of positions in `methods` not significantly different (two or more each).
    pub groups: Vec<Vec<usize>>,
}

impl CdDiagram {
    /// The diagram of a table's comparison across datasets.
    pub fn new(t: &Table, a: &Across) -> CdDiagram {
        let mut order: Vec<usize> = (0..a.methods.len()).collect();
        order.sort_by(|&x, &y| a.mean_ranks[x].total_cmp(&a.mean_ranks[y]));
        let at = |i: usize| order.iter().position(|&o| o == i).unwrap_or(0);
        CdDiagram {
            title: format!(
                "Average ranks over {} datasets; Nemenyi CD at α = {} joins methods not significantly different",
                a.datasets.len(),
                super::super::tables::ALPHA
            ),
            methods: order
                .iter()
                .map(|&i| (t.methods[a.methods[i]].clone(), a.mean_ranks[i]))
                .collect(),
            cd: a.cd,
            groups: cliques(a).iter().map(|g| g.iter().map(|&i| at(i)).collect()).collect(),
        }
    }
}

/// Draws the diagram into a PNG (or SVG, by the extension) at `path`.
pub fn cd_diagram(d: &CdDiagram, stamp: &str, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let k = d.methods.len();
    if k < 2 || !d.cd.is_finite() {
        return Err(Error::Report("a critical-difference diagram needs 2 methods and a CD".into()));
    }
    let left_count = k.div_ceil(2);
    // Wide enough for the stamp under it.
    let width = (super::surface::extent(stamp, 13.0).0 + 24).max(1100);
    let row = 24;
    let axis_y = 110;
    // The first name's row, below the stacked group bars.
    let first = axis_y + 28 + 6 * d.groups.len() as i32;
    let height = first + row * left_count as i32 + 10;
    let (root, plot) = super::canvas(path, (width as u32, height as u32 + 30), stamp)?;
    let (x0, x1) = (260, width - 260);
    let x = |rank: f64| x0 + ((rank - 1.0) / (k as f64 - 1.0) * (x1 - x0) as f64).round() as i32;
    let text = |size: f64, h: HPos| {
        ("sans-serif", size).into_font().color(&BLACK).pos(Pos::new(h, VPos::Center))
    };
    let line = |from: (i32, i32), to: (i32, i32), w: u32| {
        plot.draw(&PathElement::new([from, to], BLACK.stroke_width(w))).map_err(|e| fail(&e))
    };
    plot.draw(&Text::new(d.title.clone(), (width / 2, 18), text(16.0, HPos::Center)))
        .map_err(|e| fail(&e))?;
    // The axis with a tick and a label per rank.
    line((x0, axis_y), (x1, axis_y), 2)?;
    for r in 1..=k {
        line((x(r as f64), axis_y), (x(r as f64), axis_y - 8), 1)?;
        plot.draw(&Text::new(r.to_string(), (x(r as f64), axis_y - 18), text(13.0, HPos::Center)))
            .map_err(|e| fail(&e))?;
    }
    // The critical difference from rank 1.
    let cd_y = 52;
    line((x(1.0), cd_y), (x(1.0 + d.cd), cd_y), 2)?;
    for end in [x(1.0), x(1.0 + d.cd)] {
        line((end, cd_y - 5), (end, cd_y + 5), 2)?;
    }
    let label = format!("CD = {:.2}", d.cd);
    plot.draw(&Text::new(
        label,
        ((x(1.0) + x(1.0 + d.cd)) / 2, cd_y - 14),
        text(13.0, HPos::Center),
    ))
    .map_err(|e| fail(&e))?;
    // Each method: a drop from its rank, then out to its side with its name and rank.
    for (i, (name, rank)) in d.methods.iter().enumerate() {
        let left = i < left_count;
        let slot = if left { i } else { k - 1 - i } as i32;
        let y = first + row * slot;
        let (edge, anchor, label_x) =
            if left { (x0 - 20, HPos::Right, x0 - 26) } else { (x1 + 20, HPos::Left, x1 + 26) };
        line((x(*rank), axis_y), (x(*rank), y), 1)?;
        line((x(*rank), y), (edge, y), 1)?;
        let label =
            if left { format!("{name} ({rank:.2})") } else { format!("({rank:.2}) {name}") };
        plot.draw(&Text::new(label, (label_x, y), text(13.0, anchor))).map_err(|e| fail(&e))?;
    }
    // The groups, stacked just under the axis, above the drops' horizontal runs.
    for (j, g) in d.groups.iter().enumerate() {
        let (lo, hi) = (d.methods[g[0]].1, d.methods[g[g.len() - 1]].1);
        let y = axis_y + 12 + 6 * j as i32;
        line((x(lo) - 4, y), (x(hi) + 4, y), 4)?;
    }
    root.present().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_png_and_svg_and_refuses_a_single_method() {
        let d = CdDiagram {
            title: "t".into(),
            methods: vec![("A".into(), 1.2), ("B".into(), 2.0), ("C".into(), 2.8)],
            cd: 1.0,
            groups: vec![vec![0, 1], vec![1, 2]],
        };
        let dir = std::env::temp_dir().join(format!("sslab-cd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for ext in ["png", "svg"] {
            let path = dir.join(format!("cd.{ext}"));
            cd_diagram(&d, "stamp", &path).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 1000);
        }
        let svg = std::fs::read_to_string(dir.join("cd.svg")).unwrap();
        assert!(svg.contains("CD = 1.00") && svg.contains("(2.80) C"), "{svg}");
        std::fs::remove_dir_all(&dir).unwrap();
        let one = CdDiagram { methods: vec![("A".into(), 1.0)], ..d };
        assert!(cd_diagram(&one, "", Path::new("/tmp/never.png")).is_err());
    }
}
