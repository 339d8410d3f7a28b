//! The QLDS family's config: `qlds` (fixed or selected (α_l, α_u)), its corners `ls_svm`
//! and `gb_ssl` (λ fixed or by cross-validation) and `spectral`.

use toml::Value;

use super::selection::{Grid, Policy, SelectLambda, SelectQlds};
use super::theory::Scale;
use super::{LambdaPolicy, Native, QldsParams, Spectral};
use crate::engine::{Checked, Entry, Family};
use crate::error::Result;

/// QLDS, LS-SVM, GB-SSL and spectral clustering.
pub struct QldsFamily;

impl Family for QldsFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["qlds", "ls_svm", "gb_ssl", "spectral"]
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        let kind = m.kind().to_string();
        m.only(match kind.as_str() {
            "qlds" => &[
                "alpha_l",
                "alpha_u",
                "lambda",
                "epsilon",
                "select",
                "grid",
                "folds",
                "theory_scale",
                "theory",
                "multiclass",
            ],
            "ls_svm" | "gb_ssl" => &["lambda", "epsilon", "folds"],
            _ => &["center", "matrix", "orient"],
        })?;
        let native = match m.string("multiclass")?.as_deref() {
            None | Some("one_vs_rest") => false,
            Some("native") => true,
            Some(other) => {
                return Err(m.error(
                    "multiclass",
                    format!("unknown `{other}` (known: one_vs_rest, native)"),
                ));
            }
        };
        if let Some(policy) = m.string("select")? {
            let Checked { name, method } = select(m, &policy)?;
            return Ok(match (native, method.as_any().downcast_ref::<SelectQlds>()) {
                (true, Some(s)) => {
                    Checked::new(format!("{name}-native"), Native::Select(s.clone()))
                }
                _ => Checked { name, method },
            });
        }
        if kind == "qlds"
            && let Some(k) = m.first_of(&["grid", "folds", "theory_scale", "theory"])
        {
            return Err(m.error(k, "only used with `select`"));
        }
        // `lambda = "cv"` on ls_svm / gb_ssl: λ by cross-validation around the top eigenvalue.
        let lambda_cv = m.value("lambda").and_then(Value::as_str) == Some("cv");
        if kind != "qlds" && !lambda_cv && m.has("folds") {
            return Err(m.error("folds", "only used with lambda = \"cv\""));
        }
        let lambda = if lambda_cv {
            LambdaPolicy::MaxEigAll { epsilon: m.f64("epsilon")?.unwrap_or(LambdaPolicy::EPSILON) }
        } else {
            lambda_policy(m)?
        };
        let (alpha_l, alpha_u, name) = match kind.as_str() {
            "spectral" => return spectral(m),
            "ls_svm" => (1.0, 0.0, "LS-SVM".to_string()),
            "gb_ssl" => (0.0, 1.0, "GB-SSL".to_string()),
            _ => {
                let required = |k: &str| {
                    m.f64(k)?
                        .ok_or_else(|| m.entry_error(format!("{}: required for `qlds`", m.key(k))))
                };
                let (l, u) = (required("alpha_l")?, required("alpha_u")?);
                (l, u, format!("QLDS({l},{u})"))
            }
        };
        if lambda_cv && native {
            return Err(
                m.error("multiclass", "\"native\" takes a fixed λ or a λ policy, not λ by cv")
            );
        }
        if lambda_cv {
            let folds = m.count("folds")?.unwrap_or(Policy::FOLDS);
            let sel = SelectLambda::new(alpha_l, alpha_u, lambda, folds)
                .map_err(|e| m.param_error(e, ""))?;
            return Ok(Checked::new(format!("{name}(cv λ)"), sel));
        }
        let qlds =
            QldsParams { alpha_l, alpha_u, lambda }.check().map_err(|e| m.param_error(e, ""))?;
        Ok(match native {
            true => Checked::new(format!("{name}-native"), Native::Fixed(qlds)),
            false => Checked::new(name, qlds),
        })
    }
}

/// `lambda` (a policy name or a number) and `epsilon` of a method entry.
pub fn lambda_policy(m: &Entry) -> Result<LambdaPolicy> {
    let epsilon = m.f64("epsilon")?.unwrap_or(LambdaPolicy::EPSILON);
    let lambda = match m.value("lambda") {
        None => Some(LambdaPolicy::MaxEigAll { epsilon }),
        Some(Value::String(s)) => LambdaPolicy::parse(s, epsilon),
        Some(Value::Float(x)) => Some(LambdaPolicy::Fixed(*x)),
        Some(Value::Integer(x)) => Some(LambdaPolicy::Fixed(*x as f64)),
        Some(_) => None,
    }
    .ok_or_else(|| {
        m.error("lambda", "expected \"max_eig_all\", \"max_eig_unlabeled\" or a number")
    })?;
    if matches!(lambda, LambdaPolicy::Fixed(_)) && m.has("epsilon") {
        return Err(m.error("epsilon", "only used with an eigenvalue λ policy"));
    }
    Ok(lambda)
}

/// A `qlds` entry with `select`: (α_l, α_u) chosen over a grid by theory, CV or oracle.
fn select(m: &Entry, select: &str) -> Result<Checked> {
    let only = |key: &str, policy: &str| {
        if m.has(key) {
            Err(m.error(key, format!("only used with select = \"{policy}\"")))
        } else {
            Ok(())
        }
    };
    let policy = match select {
        "th" if m.string("theory")?.as_deref() == Some("general") => {
            only("folds", "cv")?;
            if m.has("theory_scale") {
                return Err(m.error("theory_scale", "only used with theory = \"isotropic\""));
            }
            Policy::GeneralTheory
        }
        "th" => {
            only("folds", "cv")?;
            if let Some(other) = m.string("theory")?.filter(|t| t != "isotropic") {
                return Err(
                    m.error("theory", format!("unknown `{other}` (known: isotropic, general)"))
                );
            }
            let scale = match m.string("theory_scale")?.as_deref() {
                None | Some("labeled_within") => Scale::LabeledWithin,
                Some("none") => Scale::None,
                Some(other) => {
                    return Err(m.error(
                        "theory_scale",
                        format!("unknown `{other}` (known: labeled_within, none)"),
                    ));
                }
            };
            Policy::Theory { scale }
        }
        "cv" => {
            only("theory_scale", "th")?;
            only("theory", "th")?;
            Policy::CrossValidation { folds: m.count("folds")?.unwrap_or(Policy::FOLDS) }
        }
        "or" => {
            only("theory_scale", "th")?;
            only("theory", "th")?;
            only("folds", "cv")?;
            Policy::Oracle
        }
        other => return Err(m.error("select", format!("unknown `{other}` (known: th, cv, or)"))),
    };
    let grid = grid(m)?;
    let lambda = lambda_policy(m)?;
    let checked = SelectQlds::new(policy, grid, lambda).map_err(|e| m.param_error(e, "select"))?;
    Ok(Checked::new(format!("QLDS({})", policy.name()), checked))
}

/// The grid of a `select` entry: `grid` points per axis in [0, 1], or an axis given by its
/// values (`alpha_l = [...]`, `alpha_u = [...]`; `grid` then only sets the other axis).
fn grid(m: &Entry) -> Result<Grid> {
    if m.has("alpha_l") && m.has("alpha_u") && m.has("grid") {
        return Err(m.error("grid", "not used when alpha_l and alpha_u are both lists"));
    }
    let points = m.count("grid")?.unwrap_or(Grid::DEFAULT_POINTS);
    let uniform = Grid::uniform(points).map_err(|e| m.param_error(e, "grid"))?;
    let axis = |key: &str, default: Vec<f64>| -> Result<Vec<f64>> {
        match m.value(key) {
            None => Ok(default),
            Some(toml::Value::Array(_)) => m.get(key).map(Option::unwrap_or_default),
            Some(_) => {
                Err(m.error(key, "with `select`, a list of grid values (e.g. [0, 1, 10, 100])"))
            }
        }
    };
    let (alphas_l, alphas_u) =
        (axis("alpha_l", uniform.alphas_l.clone())?, axis("alpha_u", uniform.alphas_u)?);
    Grid::new(alphas_l, alphas_u).map_err(|e| m.param_error(e, "grid"))
}

/// A `spectral` entry: `center` and `orient` (default true), `matrix` = "unlabeled"
/// (default) or "all" (the top eigenvector of the second moments of all points).
fn spectral(m: &Entry) -> Result<Checked> {
    let unlabeled_only = match m.string("matrix")?.as_deref() {
        None | Some("unlabeled") => true,
        Some("all") => false,
        Some(other) => {
            return Err(m.error("matrix", format!("unknown `{other}` (known: unlabeled, all)")));
        }
    };
    let s = Spectral {
        center: m.get("center")?.unwrap_or(true),
        unlabeled_only,
        orient: m.get("orient")?.unwrap_or(true),
    };
    let name = match s.describe() {
        d if d.is_empty() => "Spectral".to_string(),
        d => format!("Spectral({})", d.replace(' ', ",")),
    };
    Ok(Checked::new(name, s))
}
