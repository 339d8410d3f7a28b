//! The figures of `make bench-scale`, from the CSV files `benches/scale/scale.py` writes.

use std::path::Path;

use sslab::report::figures::{ScaleFigure, ScaleSeries, ScalingPlot, TimingSeries};
use sslab::stats::log_log_fit;

/// The SVMlin timing figure (solver CPU time against the unlabeled count, with slopes).
const SVMLIN_FIGURE: &str = "svmlin_scaling.png";

/// One method's measured sizes and, when it stopped, where and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub method: String,
    /// (N, whole-process CPU seconds, peak MiB, unlabeled count, solver CPU seconds).
    pub points: Vec<(f64, f64, f64, f64, f64)>,
    /// The first size that did not finish and its status (`timeout`, `oom`, ...).
    pub stopped: Option<(f64, String)>,
}

/// The rows of one results CSV grouped by method, in order of appearance (1-thread rows only).
pub fn parse(csv: &str) -> Result<Vec<Measured>, String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().ok_or("empty CSV")?.split(',').collect();
    let col =
        |name: &str| header.iter().position(|h| *h == name).ok_or(format!("no column {name}"));
    let [method, n, threads, status, cpu, peak, unlabeled, solve] = [
        "method",
        "n",
        "threads",
        "status",
        "cpu_seconds",
        "peak_mib",
        "unlabeled",
        "solve_cpu_seconds",
    ]
    .map(col);
    let (method, n, threads, status) = (method?, n?, threads?, status?);
    let (cpu, peak, unlabeled, solve) = (cpu?, peak?, unlabeled?, solve?);
    let mut out: Vec<Measured> = Vec::new();
    for (k, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| -> Result<f64, String> {
            f.get(i).and_then(|v| v.parse().ok()).ok_or(format!("row {}: column {i}", k + 2))
        };
        if f.get(threads) != Some(&"1") {
            continue;
        }
        let name = f.get(method).ok_or(format!("row {}: no method", k + 2))?.to_string();
        let entry = match out.iter().position(|m| m.method == name) {
            Some(i) => &mut out[i],
            None => {
                out.push(Measured { method: name, points: Vec::new(), stopped: None });
                out.last_mut().expect("just pushed")
            }
        };
        match f.get(status).copied() {
            Some("ok") => {
                entry.points.push((num(n)?, num(cpu)?, num(peak)?, num(unlabeled)?, num(solve)?))
            }
            Some(s) if entry.stopped.is_none() => entry.stopped = Some((num(n)?, s.to_string())),
            _ => {}
        }
    }
    Ok(out)
}

/// The legend name: the method and, when it stopped, the size and the reason.
fn label(m: &Measured) -> String {
    match &m.stopped {
        Some((n, why)) => {
            format!("{} ({} at N = {})", m.method, why, sslab::report::figures::style::tick(*n))
        }
        None => m.method.clone(),
    }
}

/// Draws `figures/scaling.png` and `figures/svmlin_scaling.png` from `results/{sparse,graph}.csv`.
pub fn figures(results: &Path, figures: &Path) -> Result<(), String> {
    let read = |name: &str| {
        let file = results.join(name);
        std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))
    };
    let sparse = parse(&read("sparse.csv")?)?;
    let graph = parse(&read("graph.csv")?)?;
    let stamp = format!("{} · make bench-scale", sslab::report::stamp("bench"));
    let series = sparse
        .iter()
        .chain(&graph)
        .filter(|m| !m.points.is_empty())
        .map(|m| ScaleSeries {
            name: label(m),
            time: m.points.iter().map(|p| (p.0, p.1)).collect(),
            memory: m.points.iter().map(|p| (p.0, p.2)).collect(),
        })
        .collect();
    let figure = ScaleFigure {
        series,
        title: "Scaling, 1 thread: whole-process CPU time and peak memory against N".into(),
        stamp: stamp.clone(),
    };
    let out = figures.join("scaling.png");
    sslab::report::figures::scale_figure(&figure, &out).map_err(|e| e.to_string())?;
    let timing: Vec<TimingSeries> = sparse
        .iter()
        .filter(|m| m.points.len() >= 2)
        .map(|m| {
            let points: Vec<(f64, f64)> = m.points.iter().map(|p| (p.3, p.4)).collect();
            let (slope, intercept) = log_log_fit(&points);
            TimingSeries { name: m.method.clone(), points, slope, intercept }
        })
        .collect();
    if timing.is_empty() {
        println!("wrote {} (no method with two sizes for {})", out.display(), SVMLIN_FIGURE);
        return Ok(());
    }
    let plot = ScalingPlot {
        series: timing,
        title: "SVMlin solver CPU time, synth_sparse.py (50 words/doc, 10⁵ words, 500 labeled)"
            .into(),
        stamp,
    };
    let out2 = figures.join(SVMLIN_FIGURE);
    sslab::report::figures::scaling_plot(&plot, &out2).map_err(|e| e.to_string())?;
    println!("wrote {} and {}", out.display(), out2.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "part,method,n,unlabeled,threads,status,cpu_seconds,peak_mib,solve_cpu_seconds\n\
        graph,Lap-RLS,1000,900,1,ok,0.5,20,0.25\n\
        graph,Lap-RLS,1000,900,2,ok,0.4,20,0.2\n\
        graph,LabelSpreading,1000,900,1,ok,1.5,80,0.75\n\
        graph,Lap-RLS,10000,9900,1,ok,50,2000,40\n\
        graph,Lap-RLS,100000,99900,1,oom,,,\n\
        graph,Lap-RLS,316228,316128,1,skipped,,,\n";

    #[test]
    fn groups_one_thread_rows_by_method_and_keeps_the_first_stop() {
        let m = parse(CSV).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].method, "Lap-RLS");
        assert_eq!(
            m[0].points,
            vec![(1e3, 0.5, 20.0, 900.0, 0.25), (1e4, 50.0, 2000.0, 9900.0, 40.0)]
        );
        assert_eq!(m[0].stopped, Some((1e5, "oom".to_string())));
        assert_eq!(label(&m[0]), "Lap-RLS (oom at N = 100000)");
        assert_eq!(m[1].points.len(), 1);
        assert_eq!(label(&m[1]), "LabelSpreading");
    }

    #[test]
    fn rejects_a_missing_column_or_an_unreadable_number() {
        assert!(parse("method,n\nx,1\n").unwrap_err().contains("threads"));
        let bad = CSV.replace("0.5,20", "fast,20");
        assert!(parse(&bad).unwrap_err().contains("row 2"));
    }
}
