//! Validation of the SVMlin method kinds (`linear_rls`, `linear_svm`, `tsvm`, `da`) and of the
//! `sparse_text` dataset kind, kept apart from the QLDS keys they share a schema with.

use std::ops::Range;

use toml::{Spanned, Value};

use super::checked::MethodSpec;
use super::{Located, raw};
use crate::data::sparse_text::SparseText;
use crate::error::{Error, Result};
use crate::methods::Method;
use crate::methods::svmlin::{Kind, PositiveFraction, SvmlinParams};

/// The method kinds validated here (`linear_` tells them from the kernel RLS/SVM of the
/// graph family).
pub(super) const KINDS: [&str; 4] = ["linear_rls", "linear_svm", "tsvm", "da"];

/// An SVMlin method: `lambda` (> 0, default 1); `lambda_u` (> 0, default 1) and
/// `r` ("labeled" (default), "truth" or a number in (0, 1)) for `tsvm` and `da`;
/// `switches` (≥ 1, default 10000) for `tsvm`.
pub(super) fn method(m: raw::Method, i: usize, span: Range<usize>, at: &Located) -> Result<MethodSpec> {
    let key = |k: &str| format!("methods[{i}].{k}");
    let kind_name = m.kind.get_ref().clone();
    let allowed: &[&str] = match kind_name.as_str() {
        "tsvm" => &["lambda", "lambda_u", "r", "switches"],
        "da" => &["lambda", "lambda_u", "r"],
        _ => &["lambda"],
    };
    if let Some((name, s)) = m.present().into_iter().find(|(n, _)| !allowed.contains(n)) {
        return Err(at.error(s, format!("{}: not a parameter of `{kind_name}`", key(name))));
    }
    let kind = match kind_name.as_str() {
        "linear_rls" => Kind::Rls,
        "linear_svm" => Kind::Svm,
        "da" => Kind::Da,
        _ => Kind::Tsvm {
            switches: match &m.switches {
                None => SvmlinParams::SWITCHES,
                Some(s) => usize::try_from(*s.get_ref())
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| at.error(s.span(), format!("{}: must be ≥ 1, got {}", key("switches"), s.get_ref())))?,
            },
        },
    };
    let mut params = SvmlinParams::new(kind);
    if let Some(l) = &m.lambda {
        params.lambda = number(l).ok_or_else(|| at.error(l.span(), format!("{}: expected a number > 0", key("lambda"))))?;
    }
    if let Some(l) = &m.lambda_u {
        params.lambda_u = *l.get_ref();
    }
    if let Some(r) = &m.r {
        params.r = match r.get_ref() {
            Value::String(s) if s == "labeled" => PositiveFraction::Labeled,
            Value::String(s) if s == "truth" => PositiveFraction::Truth,
            v => PositiveFraction::Fixed(number_value(v).ok_or_else(|| {
                at.error(r.span(), format!("{}: expected \"labeled\", \"truth\" or a number in (0, 1)", key("r")))
            })?),
        };
    }
    let checked = params.check().map_err(|e| match e {
        Error::Param { param, message } => {
            let field = match param {
                "lambda" => m.lambda.as_ref().map(|s| s.span()),
                "lambda_u" => m.lambda_u.as_ref().map(|s| s.span()),
                "r" => m.r.as_ref().map(|s| s.span()),
                _ => m.switches.as_ref().map(|s| s.span()),
            };
            at.error(field.unwrap_or(span.clone()), format!("{}: {message}", key(param)))
        }
        other => at.error(span.clone(), other.to_string()),
    })?;
    let default_name = match kind {
        Kind::Rls => "RLS".to_string(),
        Kind::Svm => "SVM".to_string(),
        Kind::Tsvm { switches } => format!("TSVM(S={switches})"),
        Kind::Da => "DA".to_string(),
    };
    let name = m.name.map(|n| n.into_inner()).unwrap_or(default_name);
    Ok(MethodSpec { name, kind: kind_name, method: Method::Svmlin(checked) })
}

fn number(v: &Spanned<Value>) -> Option<f64> {
    number_value(v.get_ref())
}

fn number_value(v: &Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

/// A `sparse_text` dataset: `dim` (vocabulary) and `nnz_per_doc` required, `topic_weight`
/// (default 0.1) and `zipf_exponent` (default 1) optional; no Gaussian or file keys.
pub(super) fn sparse_text(d: &raw::Dataset, i: usize, span: Range<usize>, at: &Located) -> Result<SparseText> {
    let key = |k: &str| format!("datasets[{i}].{k}");
    let count = |v: &Option<Spanned<i64>>, name: &str| match v {
        None => Err(at.error(span.clone(), format!("{}: required for a sparse_text dataset", key(name)))),
        Some(s) => usize::try_from(*s.get_ref())
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| at.error(s.span(), format!("{}: must be ≥ 1, got {}", key(name), s.get_ref()))),
    };
    let (vocabulary, nnz) = (count(&d.dim, "dim")?, count(&d.nnz_per_doc, "nnz_per_doc")?);
    let weight = d.topic_weight.as_ref().map_or(SparseText::TOPIC_WEIGHT, |w| *w.get_ref());
    let exponent = d.zipf_exponent.as_ref().map_or(SparseText::ZIPF_EXPONENT, |e| *e.get_ref());
    SparseText::new(vocabulary, nnz, weight, exponent).map_err(|e| at.error(span, format!("datasets[{i}]: {e}")))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{DataSource, parse};
    use crate::methods::Method;
    use crate::methods::svmlin::{Kind, PositiveFraction};

    const GOOD: &str = r#"
[experiment]
name = "t"
seed = 1
splits = 2

[[datasets]]
name = "text"
kind = "sparse_text"
dim = 300
nnz_per_doc = 10
labeled = 20
unlabeled = 100

[[methods]]
kind = "linear_svm"
lambda = 0.5

[[methods]]
kind = "tsvm"
switches = 1
r = 0.4

[[methods]]
kind = "da"
lambda_u = 2
r = "truth"
"#;

    fn err(src: &str) -> String {
        parse(src, Path::new("cfg.toml")).unwrap_err().to_string()
    }

    #[test]
    fn svmlin_kinds_and_sparse_text_parse_with_defaults() {
        let exp = parse(GOOD, Path::new("cfg.toml")).unwrap();
        assert!(matches!(exp.datasets[0].source, DataSource::SparseText(ref t) if t.dim() == 300));
        let params: Vec<_> = exp
            .methods
            .iter()
            .map(|m| match &m.method {
                Method::Svmlin(s) => *s.params(),
                other => panic!("{other:?}"),
            })
            .collect();
        let names: Vec<&str> = exp.methods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["SVM", "TSVM(S=1)", "DA"]);
        assert_eq!((params[0].kind, params[0].lambda), (Kind::Svm, 0.5));
        assert_eq!((params[1].kind, params[1].r), (Kind::Tsvm { switches: 1 }, PositiveFraction::Fixed(0.4)));
        assert_eq!((params[2].lambda, params[2].lambda_u, params[2].r), (1.0, 2.0, PositiveFraction::Truth));
    }

    #[test]
    fn bad_svmlin_keys_name_the_line() {
        let e = err(&GOOD.replace("switches = 1", "switches = 0"));
        assert!(e.starts_with("cfg.toml:21: methods[1].switches: must be ≥ 1"), "{e}");
        let e = err(&GOOD.replace("r = 0.4", "r = 1.5"));
        assert!(e.starts_with("cfg.toml:22: methods[1].r: must lie in (0, 1)"), "{e}");
        let e = err(&GOOD.replace("lambda = 0.5", "lambda = 0.5\nswitches = 3"));
        assert!(e.contains("methods[0].switches: not a parameter of `linear_svm`"), "{e}");
        let e = err(&GOOD.replace("lambda_u = 2", "lambda_u = -2"));
        assert!(e.starts_with("cfg.toml:26: methods[2].lambda_u: must be finite and > 0"), "{e}");
        let e = err(&GOOD.replace("kind = \"linear_svm\"", "kind = \"qlds\"\nalpha_l = 1\nalpha_u = 0\nr = 0.5"));
        assert!(e.contains("methods[0].r: not a parameter of `qlds`"), "{e}");
        let e = err(&GOOD.replace("nnz_per_doc = 10", "nnz_per_doc = 200"));
        assert!(e.starts_with("cfg.toml:7: datasets[0]: data: sparse text: nnz_per_doc"), "{e}");
        let e = err(&GOOD.replace("nnz_per_doc = 10", "mean_norm = 1.0"));
        assert!(e.contains("datasets[0].mean_norm: not a key of a `sparse_text` dataset"), "{e}");
    }
}
