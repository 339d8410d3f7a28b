//! `sslab theory` end to end: text and JSON output, invalid points, bad arguments; the
//! K-class output of `--classes K`.

use std::process::Command;

fn theory(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .arg("theory")
        .args(args)
        .output()
        .expect("sslab runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

const SETTING: [&str; 6] = ["--dim", "400", "--labeled", "50", "--unlabeled", "1000"];

#[test]
fn json_gives_the_spec_reference_point() {
    let args = [
        &SETTING[..],
        &[
            "--mean-norm",
            "1.5",
            "--alpha-l",
            "0.1",
            "--alpha-u",
            "1",
            "--lambda",
            "max_eig_unlabeled",
            "--json",
        ],
    ]
    .concat();
    let (ok, out) = theory(&args);
    assert!(ok && out.contains("\"valid\": true"), "{out}");
    let error: f64 = out
        .split("\"error\": ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .expect("error field");
    // Spec §5: 0.0795 at this point.
    assert!((error - 0.0795).abs() < 0.001, "{out}");
    // The same point given through G = MᵀM with μ₁ = −μ₂.
    let args = [
        &SETTING[..],
        &[
            "--g=2.25,-2.25,2.25",
            "--alpha-l",
            "0.1",
            "--alpha-u",
            "1",
            "--lambda",
            "max_eig_unlabeled",
            "--json",
        ],
    ]
    .concat();
    assert!(theory(&args).1.contains(&format!("\"error\": {error}")));
}

#[test]
fn invalid_points_and_bad_arguments() {
    let args = [
        &SETTING[..],
        &["--mean-norm", "1.5", "--alpha-l", "0", "--alpha-u", "1", "--lambda", "0.5"],
    ]
    .concat();
    let (ok, out) = theory(&args);
    assert!(ok && out.contains("valid: no"), "{out}");
    let args = [
        &SETTING[..],
        &["--mean-norm", "1.5", "--alpha-l", "0", "--alpha-u", "1", "--lambda", "big"],
    ]
    .concat();
    let (ok, out) = theory(&args);
    assert!(!ok && out.contains("lambda"), "{out}");
}

fn sslab(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().expect("sslab runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// The fit table's columns (plot-scores --theory and theory-fit's fit.csv).
const FIT_COLUMNS: &str = "dataset,split,method,alpha_l,alpha_u,lambda,estimator,class,count,empirical_mean,empirical_std,theory_mean,theory_std,std_ratio,mean_shift,invalid";

#[test]
fn plot_scores_writes_the_fit_beside_the_png() {
    let dir = std::env::temp_dir().join(format!("sslab-fit-csv-{}", std::process::id()));
    let png = dir.join("scores.png");
    let (ok, out) = sslab(&[
        "plot-scores",
        "configs/qlds_fig1_synthetic.toml",
        "--theory",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    let csv = std::fs::read_to_string(dir.join("scores.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], FIT_COLUMNS);
    assert_eq!(lines.len(), 3, "{csv}");
    for (line, class) in lines[1..].iter().zip(["1", "-1"]) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(
            (cells[0], cells[1], cells[6], cells[7]),
            ("gauss-d100", "0", "true_mixture", class)
        );
        assert_eq!(cells[8], "1000");
        // N(±μ, I) with the true means: the theory's mean within 0.25 σ of the scores'.
        let shift: f64 = cells[14].parse().unwrap();
        assert!(shift.abs() < 0.25, "{line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn theory_fit_gives_every_split_and_estimator_and_a_summary() {
    let dir = std::env::temp_dir().join(format!("sslab-theory-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("fit.toml");
    std::fs::write(
        &config,
        "[experiment]\nname = \"fit\"\nseed = 5\nsplits = 3\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 60\nmean_norm = 2.0\nlabeled_per_class = 30\nunlabeled_per_class = 500\n\n[[methods]]\nkind = \"qlds\"\nselect = \"th\"\ntheory_scale = \"none\"\ngrid = 6\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let (ok, out) = sslab(&[
        "theory-fit",
        config.to_str().unwrap(),
        "--estimators",
        "isotropic,true_labels",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    let fit = std::fs::read_to_string(out_dir.join("fit.csv")).unwrap();
    assert_eq!(fit.lines().next(), Some(FIT_COLUMNS));
    assert_eq!(fit.lines().count(), 1 + 3 * 2 * 2, "{fit}");
    let summary = std::fs::read_to_string(out_dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 2 * 2, "{summary}");
    // On N(±μ, I) data the true-label estimate describes the spread closely.
    for line in summary.lines().filter(|l| l.contains("true_labels")) {
        let cells: Vec<&str> = line.split(',').collect();
        let abs_std_error: f64 = cells[6].parse().unwrap();
        assert!(abs_std_error < 0.1, "{line}");
    }
    assert!(
        sslab(&["theory-fit", config.to_str().unwrap(), "--estimators", "nope", "--out", "x"])
            .1
            .contains("estimator")
    );
    std::fs::remove_dir_all(&dir).ok();
}

const POINT: [&str; 10] = [
    "--dim",
    "100",
    "--labeled",
    "20",
    "--unlabeled",
    "300",
    "--alpha-l",
    "0.5",
    "--alpha-u",
    "0.5",
];

#[test]
fn three_classes_from_orthogonal_means_or_their_gram_matrix() {
    let (ok, out) =
        theory(&[&POINT[..], &["--classes", "3", "--mean-norm", "3", "--json"]].concat());
    assert!(ok && out.contains("\"valid\": true") && out.contains("\"classes\": 3"), "{out}");
    let error: f64 = out
        .split("\"error\": ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .expect("error field");
    // results/qlds_multiclass_theory.csv: theory 0.0493, simulation 0.0526 ± 0.0097 here.
    assert!((0.03..0.07).contains(&error), "{out}");
    // μ_j = 3e_j is G = 9·I (upper triangle 9,0,0,9,0,9).
    let (_, by_g) =
        theory(&[&POINT[..], &["--classes", "3", "--g=9,0,0,9,0,9", "--json"]].concat());
    assert_eq!(by_g, out);
}

#[test]
fn two_classes_are_the_binary_command_and_bad_counts_are_errors() {
    let binary = theory(&[&POINT[..], &["--mean-norm", "1.5"]].concat());
    let two = theory(&[&POINT[..], &["--classes", "2", "--mean-norm", "1.5"]].concat());
    assert!(binary.0 && binary.1.contains("m_1 ="), "{}", binary.1);
    assert_eq!(binary, two);
    let args = ["--dim", "100", "--labeled", "20,30", "--unlabeled", "300", "--mean-norm", "3"];
    let (ok, out) =
        theory(&[&args[..], &["--classes", "3", "--alpha-l", "1", "--alpha-u", "0"]].concat());
    assert!(!ok && out.contains("labeled"), "{out}");
    let (ok, out) = theory(&[&POINT[..], &["--classes", "3", "--g=9,0,9"]].concat());
    assert!(!ok && out.contains("upper triangle"), "{out}");
}

#[test]
fn the_finite_n_rule_prints_its_reason() {
    // Equal counts at α_u = 1: the K − 1 spikes coincide close below λ (split_ratio ≈ 0.41).
    let near = ["--dim", "200", "--labeled", "20", "--unlabeled", "300", "--mean-norm", "3"];
    let (ok, out) =
        theory(&[&near[..], &["--classes", "3", "--alpha-l", "0.1", "--alpha-u", "1"]].concat());
    assert!(ok && out.contains("valid: no (coinciding signal spikes split at finite n"), "{out}");
    // Unequal counts: distinct spikes, the rule does not apply (split_ratio 0).
    let apart = ["--dim", "200", "--labeled", "40,30,20", "--unlabeled", "600,450,300"];
    let (ok, out) = theory(
        &[
            &apart[..],
            &["--mean-norm", "3", "--classes", "3", "--alpha-l", "0.1", "--alpha-u", "1"],
        ]
        .concat(),
    );
    assert!(ok && out.contains("finite-n spike split 0.000 < 0.1"), "{out}");
}
