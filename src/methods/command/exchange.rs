//! The files a `command` program reads and writes (docs/open-harness.md). sslab writes
//! `X_l`, `X_u` and, when the split has test rows, `X_test` (`.npy`, f64, C order; sparse
//! features as `.svm`, SVMlight with 1-based indices and label 0), `y_l.npy` (i64 class ids,
//! indices into `classes`) and `split.json`; the program writes `scores.npy`, shape (n_u,)
//! (a score ≥ 0 predicts `classes[0]`) or (n_u, classes) (the first maximum predicts), and
//! `test_scores.npy` likewise for the test rows. The unlabeled and test rows go out in the
//! split's random [`Order`] and their scores come back in row order.

use std::fmt::Write as _;
use std::path::Path;

use ndarray::{Array1, Array2};
use toml::Value;

use super::order::{Order, restore};
use crate::data::{DataSource, Features, npy, text};
use crate::engine::{Fitted, Scores, Split};
use crate::error::{Error, Result};

/// What was written: the row counts the answers must have and the order of their rows.
pub(super) struct Written {
    n_unlabeled: usize,
    n_test: Option<usize>,
    n_classes: usize,
    order: Order,
}

/// Writes the split's files and `split.json` into `dir`.
pub(super) fn write(dir: &Path, split: &Split, params: &[(String, Value)]) -> Result<Written> {
    let p = split.problem;
    let classes: Vec<String> = match split.source {
        Some(DataSource::Loaded(source)) => source.data()?.dataset.class_names.clone(),
        // Generated rows (two classes) and arrays: the classes by id.
        _ if p.n_classes == 2 => vec!["+1".into(), "-1".into()],
        _ => (0..p.n_classes).map(|c| c.to_string()).collect(),
    };
    let sparse = matches!(p.x_l, Features::Sparse(_));
    let order = Order::draw(split.seed, p.n_unlabeled(), split.test.map_or(0, Features::nrows));
    features(dir, "X_l", &p.x_l, Some(&p.classes_l))?;
    features(dir, "X_u", &p.x_u.select_rows(&order.unlabeled), None)?;
    if let Some(t) = split.test {
        features(dir, "X_test", &t.select_rows(&order.test), None)?;
    }
    let ids: Vec<i64> = p.classes_l.iter().map(|&c| c as i64).collect();
    npy::write_i64(&dir.join("y_l.npy"), &[ids.len()], &ids)?;
    let mut json = String::from("{\n");
    let names: Vec<String> = classes.iter().map(|c| string(c)).collect();
    let _ = writeln!(json, "  \"classes\": [{}],", names.join(", "));
    let _ = writeln!(json, "  \"seed\": {},\n  \"split\": {},", split.seed, split.index);
    let _ = writeln!(json, "  \"n_labeled\": {},", p.n_labeled());
    let _ = writeln!(json, "  \"n_unlabeled\": {},", p.n_unlabeled());
    let _ = writeln!(json, "  \"n_test\": {},", split.test.map_or(0, Features::nrows));
    let _ = writeln!(json, "  \"dim\": {},", p.dim());
    let format = if sparse { "svmlight" } else { "npy" };
    let _ = writeln!(json, "  \"features\": \"{format}\",");
    let params: Vec<String> =
        params.iter().map(|(k, v)| format!("{}: {}", string(k), value(v))).collect();
    let _ = writeln!(json, "  \"params\": {{{}}}\n}}", params.join(", "));
    let path = dir.join("split.json");
    std::fs::write(&path, json).map_err(|e| Error::io(&path, e))?;
    Ok(Written {
        n_unlabeled: p.n_unlabeled(),
        n_test: split.test.map(Features::nrows),
        n_classes: classes.len(),
        order,
    })
}

/// Writes `name.npy` (dense) or `name.svm` (sparse; `labels` as the line labels, else 0).
fn features(dir: &Path, name: &str, x: &Features, labels: Option<&[usize]>) -> Result<()> {
    match x {
        Features::Dense(a) => {
            let data: Vec<f64> = a.iter().copied().collect();
            npy::write_f64(&dir.join(format!("{name}.npy")), &[a.nrows(), a.ncols()], &data)
        }
        Features::Sparse(c) => {
            let mut text = String::new();
            for i in 0..c.nrows() {
                let _ = write!(text, "{}", labels.map_or(0, |l| l[i]));
                let (idx, val) = c.row(i);
                for (j, v) in idx.iter().zip(val) {
                    let _ = write!(text, " {}:{v:?}", j + 1);
                }
                text.push('\n');
            }
            let path = dir.join(format!("{name}.svm"));
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))
        }
    }
}

/// A JSON string.
fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out + "\""
}

/// A TOML value as JSON (floats keep a decimal point; non-finite ones as Python's json
/// reads them; dates as strings).
fn value(v: &Value) -> String {
    match v {
        Value::String(s) => string(s),
        Value::Integer(n) => n.to_string(),
        Value::Float(x) if x.is_nan() => "NaN".into(),
        Value::Float(x) if x.is_infinite() => {
            (if *x > 0.0 { "Infinity" } else { "-Infinity" }).into()
        }
        Value::Float(x) => format!("{x:?}"),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => string(&d.to_string()),
        Value::Array(a) => format!("[{}]", a.iter().map(value).collect::<Vec<_>>().join(", ")),
        Value::Table(t) => {
            let items: Vec<String> =
                t.iter().map(|(k, v)| format!("{}: {}", string(k), value(v))).collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// Reads `scores.npy` (and `test_scores.npy` when test rows were written) as the fit, in
/// row order; the error says which file is missing or wrong.
pub(super) fn read(dir: &Path, w: &Written) -> std::result::Result<Fitted, String> {
    let unlabeled = scores(dir, "scores.npy", w.n_unlabeled, w.n_classes)?;
    let unlabeled = restore(unlabeled, &w.order.unlabeled);
    let mut fitted = Fitted::new(unlabeled);
    if let Some(n) = w.n_test {
        let test = scores(dir, "test_scores.npy", n, w.n_classes)?;
        fitted.test = Some(restore(test, &w.order.test));
    }
    Ok(fitted)
}

/// One scores file: (n,) or (n, 1) binary; (n, classes) per class, two classes folded into
/// binary scores s₀ − s₁ (same predictions, and a PRBEP).
fn scores(dir: &Path, name: &str, n: usize, classes: usize) -> std::result::Result<Scores, String> {
    let path = dir.join(name);
    if !path.exists() {
        return Err(format!("the program wrote no {name}"));
    }
    // A pipe or device the program left there is refused, not waited on.
    let bytes = text::read_regular(&path).map_err(|e| format!("{name}: {e}"))?;
    let a = npy::parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
    let wrong = || {
        let per_class = if classes > 2 {
            format!(" or ({n}, {classes})")
        } else {
            format!(", ({n}, 1) or ({n}, 2)")
        };
        format!("{name} has shape {}, expected ({n},){per_class}", a.shape())
    };
    if let Some(i) = a.data.iter().position(|v| !v.is_finite()) {
        let width = a.shape.get(1).copied().unwrap_or(1).max(1);
        return Err(format!("{name}: row {} holds {} (NaN or infinite)", i / width, a.data[i]));
    }
    match a.shape[..] {
        [rows] | [rows, 1] if rows == n && classes == 2 => {
            Ok(Scores::Binary(Array1::from(a.data.clone())))
        }
        [rows, 2] if rows == n && classes == 2 => {
            Ok(Scores::Binary(a.data.chunks_exact(2).map(|r| r[0] - r[1]).collect()))
        }
        [rows, c] if rows == n && c == classes && classes > 2 => Ok(Scores::PerClass(
            Array2::from_shape_vec((n, c), a.data.clone()).map_err(|e| e.to_string())?,
        )),
        _ => Err(wrong()),
    }
}
