//! `SSLAB_SIMD` forces each instruction-set path of sslab's kernels (scalar, AVX2, AVX-512;
//! `linalg::simd::level`): a run gives the same scores on every path the CPU has, and a
//! value that is not a level is refused by name.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::TempDir;

/// A run touching the kernels: QLDS's covariance and row passes, the RKHS graph kinds'
/// exact kNN and packed smoother, the sparse graph's CG, TSVM's row passes.
const CONFIG: &str = r#"[experiment]
name = "simd"
seed = 3
splits = 2
save_scores = true

[[datasets]]
name = "g"
kind = "synthetic"
dim = 40
mean_norm = 2
labeled = 10
unlabeled = 120

[[methods]]
kind = "qlds"
alpha_l = 0.5
alpha_u = 1.0

[[methods]]
kind = "lap_rls"

[[methods]]
kind = "tv_rls"

[[methods]]
kind = "laplace"

[[methods]]
kind = "tsvm"
"#;

fn sslab(dir: &Path, args: &[&str], simd: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sslab"));
    c.args(args).current_dir(dir).env("SSLAB_SIMD", simd);
    c.output().unwrap()
}

#[test]
fn every_forced_path_gives_the_same_results() {
    let tmp = TempDir::new("simd");
    let dir = &tmp.0;
    std::fs::write(dir.join("c.toml"), CONFIG).unwrap();
    let mut first: Option<String> = None;
    for level in ["scalar", "avx2", "avx512"] {
        let _ = std::fs::remove_dir_all(dir.join("out"));
        let o = sslab(dir, &["run", "c.toml", "--out", "out", "--quiet", "-j", "1"], level);
        assert!(o.status.success(), "{level}: {}", String::from_utf8_lossy(&o.stderr));
        // Every fit's scores, bit for bit (17 significant digits).
        let scores = std::fs::read_to_string(dir.join("out/simd/scores.csv")).unwrap();
        assert_eq!(scores.lines().count(), 1 + 2 * 5 * 120, "{level}: every unlabeled row");
        match &first {
            None => first = Some(scores),
            Some(scalar) => assert!(scores == *scalar, "{level}: scores differ from scalar's"),
        }
    }
}

#[test]
fn a_value_that_is_not_a_level_is_refused_by_name() {
    let dir = std::env::temp_dir();
    for bad in ["sse", "AVX2", ""] {
        let o = sslab(&dir, &["validate", "no-such.toml"], bad);
        assert_eq!(o.status.code(), Some(1), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("SSLAB_SIMD`: `{bad}` is not scalar, avx2 or avx512")),
            "{err}"
        );
    }
}
