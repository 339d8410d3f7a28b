//! `sslab theory` end to end: text and JSON output, invalid points, bad arguments.

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
