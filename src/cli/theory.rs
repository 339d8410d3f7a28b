//! `sslab theory`: theoretical score means m_1, m_2, spread σ and error of QLDS (isotropic
//! Theorem 1), as text or JSON; with `--classes K` (K ≥ 3) the K-class theory
//! ([`super::theory_multiclass`]).

use sslab::methods::qlds::theory::{Setting, predict, theory_lambda};
use sslab::methods::qlds::{LambdaPolicy, QldsParams};
use sslab::{Error, Result};

use super::output::json_number;

#[derive(clap::Args)]
pub struct Args {
    /// Dimension d.
    #[arg(long)]
    dim: usize,
    /// Number of classes K; K ≥ 3 uses the K-class theory.
    #[arg(long, default_value_t = 2)]
    classes: usize,
    /// Labeled counts per class, `N` or `N1,…,NK`.
    #[arg(long, value_delimiter = ',', required = true)]
    labeled: Vec<usize>,
    /// Unlabeled counts per class, `N` or `N1,…,NK`.
    #[arg(long, value_delimiter = ',', required = true)]
    unlabeled: Vec<usize>,
    /// ‖μ‖ with μ₁ = −μ₂ for K = 2, of the orthogonal means μ_j = ‖μ‖e_j for K ≥ 3 (or give
    /// --g); centred with the population mean of the counts.
    #[arg(long, conflicts_with = "g", required_unless_present = "g")]
    mean_norm: Option<f64>,
    /// G = MᵀM of the class means as given, its upper triangle row by row (`G11,G12,G22` for
    /// K = 2; write `--g=2.25,-2.25,2.25` when it starts with a minus); centred with the
    /// population mean of the counts, as QLDS centres.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    g: Option<Vec<f64>>,
    #[arg(long)]
    alpha_l: f64,
    #[arg(long)]
    alpha_u: f64,
    /// `max_eig_all`, `max_eig_unlabeled` (evaluated at (1+ε)·theoretical edge) or a number.
    #[arg(long, default_value = "max_eig_all")]
    lambda: String,
    #[arg(long, default_value_t = LambdaPolicy::EPSILON)]
    epsilon: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `N` for every class or one count per class.
fn per_class(v: &[usize], k: usize, name: &'static str) -> Result<Vec<usize>> {
    match v {
        [n] => Ok(vec![*n; k]),
        _ if v.len() == k => Ok(v.to_vec()),
        _ => Err(Error::param(name, format!("expected N or {k} counts, got {}", v.len()))),
    }
}

/// The K×K matrix of its upper triangle given row by row.
fn symmetric(upper: &[f64], k: usize) -> Result<Vec<Vec<f64>>> {
    if upper.len() != k * (k + 1) / 2 {
        return Err(Error::param(
            "g",
            format!(
                "expected the {} entries of G's upper triangle, got {}",
                k * (k + 1) / 2,
                upper.len()
            ),
        ));
    }
    let mut g = vec![vec![0.0; k]; k];
    let mut next = upper.iter();
    for i in 0..k {
        for j in i..k {
            let v = *next.next().expect("length checked");
            (g[i][j], g[j][i]) = (v, v);
        }
    }
    Ok(g)
}

pub fn run(a: Args) -> Result<()> {
    if a.classes < 2 {
        return Err(Error::param("classes", format!("must be ≥ 2, got {}", a.classes)));
    }
    let labeled = per_class(&a.labeled, a.classes, "labeled")?;
    let unlabeled = per_class(&a.unlabeled, a.classes, "unlabeled")?;
    let g = a.g.as_deref().map(|g| symmetric(g, a.classes)).transpose()?;
    let policy = LambdaPolicy::parse(&a.lambda, a.epsilon).ok_or_else(|| {
        Error::param(
            "lambda",
            format!("expected max_eig_all, max_eig_unlabeled or a number, got `{}`", a.lambda),
        )
    })?;
    QldsParams { alpha_l: a.alpha_l, alpha_u: a.alpha_u, lambda: policy }.check()?;
    if a.classes > 2 {
        let setting = super::theory_multiclass::setting(a.dim, labeled, unlabeled, g, a.mean_norm)?;
        return super::theory_multiclass::run(&setting, a.alpha_l, a.alpha_u, policy, a.json);
    }
    let (labeled, unlabeled) = ([labeled[0], labeled[1]], [unlabeled[0], unlabeled[1]]);
    let setting = match (g, a.mean_norm) {
        (Some(g), _) => {
            Setting::centred(a.dim, labeled, unlabeled, [[g[0][0], g[0][1]], [g[1][0], g[1][1]]])?
        }
        (None, Some(norm)) => Setting::symmetric(a.dim, labeled, unlabeled, norm)?,
        (None, None) => return Err(Error::param("mean_norm", "give --mean-norm or --g")),
    };
    let lambda = theory_lambda(&setting, policy, 1.0)?;
    let result = predict(&setting, a.alpha_l, a.alpha_u, lambda);
    let json = json_number;
    match (&result, a.json) {
        (Ok(p), true) => println!(
            "{{\"valid\": true, \"m_1\": {}, \"m_2\": {}, \"sigma\": {}, \"error\": {}, \"delta\": {}, \"lambda\": {}}}",
            json(p.m[0]),
            json(p.m[1]),
            json(p.sigma),
            json(p.error),
            json(p.delta),
            json(lambda)
        ),
        (Err(why), true) => {
            println!("{{\"valid\": false, \"reason\": \"{why}\", \"lambda\": {}}}", json(lambda))
        }
        (Ok(p), false) => println!(
            "λ = {lambda:.6} ({})\nm_1 = {:.6}\nm_2 = {:.6}\nσ   = {:.6}\nerror = {:.6}\nvalid: yes (δ = {:.6})",
            policy.name(),
            p.m[0],
            p.m[1],
            p.sigma,
            p.error,
            p.delta
        ),
        (Err(why), false) => println!("λ = {lambda:.6} ({})\nvalid: no ({why})", policy.name()),
    }
    Ok(())
}
