//! Figures as SVG: the `--format svg` of the theory studies (phase diagram, proportions,
//! theory check redrawn from its CSV) writes files that parse as XML, and the legends of the
//! tuning, scaling, annealing and theory-check figures lie outside the plot area.

use std::path::{Path, PathBuf};
use std::process::Command;

use sslab::report::figures::{
    AnnealingPlot, ErrorPair, ScalingPlot, TimingSeries, TuningPlot, annealing_plot, scaling_plot,
    theory_check, tuning_plot,
};

/// A scratch folder removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("sslab-figsvg-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sslab(args: &[&str], dir: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(dir).output();
    let out = out.expect("sslab runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {text}");
    text
}

/// The `<text>` elements of an SVG file (x, content), after checking that it parses as XML
/// with an `<svg>` root; and the root's width.
fn svg_texts(path: &Path) -> (f64, Vec<(f64, String)>) {
    let src = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&src).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    let texts = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| {
            let x = n.attribute("x").and_then(|x| x.parse().ok()).unwrap_or(f64::NAN);
            // plotters writes the text of an element once per child node: the first.
            let text =
                n.descendants().filter_map(|t| t.text()).map(str::trim).find(|t| !t.is_empty());
            (x, text.unwrap_or_default().to_string())
        })
        .collect();
    (width, texts)
}

#[test]
fn theory_studies_write_svg_beside_png() {
    let dir = Scratch::new("studies");
    let png_svg = ["--format", "png,svg"];
    let phase = [
        "phase-diagram",
        "--dim",
        "20",
        "--unlabeled-per-class",
        "60",
        "--labeled-per-class",
        "2,5",
        "--distances",
        "1,2",
        "--grid",
        "4",
        "--csv",
        "p.csv",
        "--out",
        "p.png",
    ];
    sslab(&[&phase[..], &png_svg].concat(), &dir.0);
    let shares = [
        "proportions",
        "--dim",
        "20",
        "--labeled-per-class",
        "5",
        "--unlabeled",
        "100",
        "--shares",
        "0.3,0.5",
        "--grid",
        "4",
        "--csv",
        "s.csv",
        "--out",
        "s.png",
    ];
    sslab(&[&shares[..], &png_svg].concat(), &dir.0);
    std::fs::write(
        dir.0.join("check.csv"),
        "dim,draws,lambda_policy,theory_error,empirical_error,empirical_error_std\n\
         100,20,max_eig_all,0.30,0.31,0.02\n100,20,max_eig_all,,0.2,0.01\n\
         100,20,max_eig_all,0.10,0.09,0.01\n",
    )
    .unwrap();
    let out = sslab(
        &["theory-check", "--from-csv", "check.csv", "--figure", "t.png", "--format", "svg,png"],
        &dir.0,
    );
    assert!(out.contains("wrote t.svg") && out.contains("wrote t.png"), "{out}");
    for stem in ["p", "s", "t"] {
        assert_eq!(&std::fs::read(dir.0.join(format!("{stem}.png"))).unwrap()[1..4], b"PNG");
        let (_, texts) = svg_texts(&dir.0.join(format!("{stem}.svg")));
        assert!(!texts.is_empty(), "{stem}.svg has no text");
    }
    // The theory-check title counts the CSV's rows and takes its draws and λ policy.
    let (_, texts) = svg_texts(&dir.0.join("t.svg"));
    let title = "QLDS theory vs simulation: 3 settings × 20 draws, λ: max_eig_all";
    assert!(texts.iter().any(|t| t.1 == title), "{texts:?}");
    // A CSV without the needed columns is an error naming the file and the column.
    std::fs::write(dir.0.join("bad.csv"), "dim,draws\n100,20\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["theory-check", "--from-csv", "bad.csv", "--figure", "b.png"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("bad.csv") && err.contains("lambda_policy"));
}

/// Every legend label lies right of `body` (the plot area's width in pixels), every other
/// text (title, axes, ticks, stamp) starts left of it.
fn legend_outside(path: &Path, body: f64, labels: &[&str]) {
    let (width, texts) = svg_texts(path);
    assert!(width > body, "{path:?}: {width} ≤ {body}");
    for label in labels {
        let hits: Vec<f64> = texts.iter().filter(|t| t.1 == *label).map(|t| t.0).collect();
        assert!(!hits.is_empty(), "{path:?}: no legend label `{label}` in {texts:?}");
        assert!(hits.iter().all(|x| *x > body), "{path:?}: `{label}` at x = {hits:?}");
    }
    for (x, text) in texts.iter().filter(|t| !labels.contains(&t.1.as_str())) {
        assert!(*x < body, "{path:?}: `{text}` at x = {x} in the legend panel");
    }
}

#[test]
fn legends_lie_outside_the_plot_area() {
    let dir = Scratch::new("legends");
    let tuning = TuningPlot {
        title: "t".into(),
        key: "alpha_l".into(),
        values: vec!["0".into(), "0.5".into(), "1".into()],
        lines: vec![
            ("alpha_u=0".into(), vec![(0, 30.0, 2.0), (1, 20.0, 1.0), (2, 25.0, 1.5)]),
            ("alpha_u=1".into(), vec![(0, 28.0, 2.0), (1, 22.0, 1.0), (2, 24.0, 1.5)]),
        ],
        chosen: Some((1, 20.0)),
        stamp: "s".into(),
    };
    tuning_plot(&tuning, &dir.0.join("tuning.svg")).unwrap();
    legend_outside(&dir.0.join("tuning.svg"), 900.0, &["alpha_u=0", "alpha_u=1", "chosen"]);

    let series = |name: &str, k: f64| TimingSeries {
        name: name.into(),
        points: vec![(1e4, k), (1e5, 10.0 * k), (1e6, 100.0 * k)],
        slope: 1.0,
        intercept: (k / 1e4).ln(),
    };
    let scaling = ScalingPlot {
        series: vec![series("A", 1.0), series("B", 2.0)],
        title: "t".into(),
        stamp: "s".into(),
    };
    scaling_plot(&scaling, &dir.0.join("scaling.svg")).unwrap();
    legend_outside(&dir.0.join("scaling.svg"), 900.0, &["A (slope 1.00)", "B (slope 1.00)"]);

    let annealing = AnnealingPlot {
        path: vec![(10.0, 0.2, 0.5), (1.0, 0.3, 0.4), (0.1, 0.35, 0.38)],
        best: 0.38,
        title: "t".into(),
        stamp: "s".into(),
    };
    annealing_plot(&annealing, &dir.0.join("annealing.svg")).unwrap();
    legend_outside(
        &dir.0.join("annealing.svg"),
        900.0,
        &[
            "annealed objective (with −T·entropy)",
            "S3VM objective of w",
            "best S3VM objective 0.38000",
        ],
    );

    let points = [
        ErrorPair { theory: 0.1, empirical: 0.11, empirical_std: 0.01 },
        ErrorPair { theory: 0.3, empirical: 0.29, empirical_std: 0.02 },
    ];
    theory_check(&points, 0.02, "t", "s", &dir.0.join("check.svg")).unwrap();
    legend_outside(
        &dir.0.join("check.svg"),
        760.0,
        &["theory = simulation", "±0.02 around it", "settings (mean ± std)"],
    );
}
