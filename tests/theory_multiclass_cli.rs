//! `sslab theory --classes K`: the K-class output, `--g` against `--mean-norm`, K = 2 as the
//! binary command, bad counts.

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

const POINT: [&str; 10] =
    ["--dim", "100", "--labeled", "20", "--unlabeled", "300", "--alpha-l", "0.5", "--alpha-u", "0.5"];

#[test]
fn three_classes_from_orthogonal_means_or_their_gram_matrix() {
    let (ok, out) = theory(&[&POINT[..], &["--classes", "3", "--mean-norm", "3", "--json"]].concat());
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
    let (_, by_g) = theory(&[&POINT[..], &["--classes", "3", "--g=9,0,0,9,0,9", "--json"]].concat());
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
