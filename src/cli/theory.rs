//! `sslab theory`: theoretical score means m_1, m_2, spread σ and error of QLDS (isotropic
//! Theorem 1), as text or JSON.

use sslab::methods::qlds::theory::{Setting, predict, theory_lambda};
use sslab::methods::qlds::{LambdaPolicy, QldsParams};
use sslab::{Error, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Dimension d.
    #[arg(long)]
    dim: usize,
    /// Labeled counts per class, `N` or `N1,N2`.
    #[arg(long, value_parser = per_class)]
    labeled: [usize; 2],
    /// Unlabeled counts per class, `N` or `N1,N2`.
    #[arg(long, value_parser = per_class)]
    unlabeled: [usize; 2],
    /// ‖μ‖ with μ₁ = −μ₂ (or give --g); centred with the population mean of the counts.
    #[arg(long, conflicts_with = "g", required_unless_present = "g")]
    mean_norm: Option<f64>,
    /// G = MᵀM of the class means as given, `G11,G12,G22` (write `--g=2.25,-2.25,2.25` when it
    /// starts with a minus); centred with the population mean of the counts, as QLDS centres.
    #[arg(long, value_parser = three_numbers, allow_hyphen_values = true)]
    g: Option<[f64; 3]>,
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

fn three_numbers(s: &str) -> std::result::Result<[f64; 3], String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>().map_err(|e| format!("`{p}`: {e}")))
        .collect::<std::result::Result<_, _>>()?;
    <[f64; 3]>::try_from(v).map_err(|_| "expected G11,G12,G22".to_string())
}

fn per_class(s: &str) -> std::result::Result<[usize; 2], String> {
    let parts: Vec<&str> = s.split(',').collect();
    let num = |p: &str| p.trim().parse::<usize>().map_err(|e| format!("`{p}`: {e}"));
    match parts.as_slice() {
        [n] => Ok([num(n)?; 2]),
        [a, b] => Ok([num(a)?, num(b)?]),
        _ => Err("expected N or N1,N2".into()),
    }
}

pub fn run(a: Args) -> Result<()> {
    let setting = match (&a.g, a.mean_norm) {
        (Some(g), _) => {
            Setting::centred(a.dim, a.labeled, a.unlabeled, [[g[0], g[1]], [g[1], g[2]]])?
        }
        (None, Some(norm)) => Setting::symmetric(a.dim, a.labeled, a.unlabeled, norm)?,
        (None, None) => return Err(Error::param("mean_norm", "give --mean-norm or --g")),
    };
    let policy = LambdaPolicy::parse(&a.lambda, a.epsilon).ok_or_else(|| {
        Error::param(
            "lambda",
            format!("expected max_eig_all, max_eig_unlabeled or a number, got `{}`", a.lambda),
        )
    })?;
    QldsParams { alpha_l: a.alpha_l, alpha_u: a.alpha_u, lambda: policy }.check()?;
    let lambda = theory_lambda(&setting, policy, 1.0)?;
    let result = predict(&setting, a.alpha_l, a.alpha_u, lambda);
    let json = |v: f64| if v.is_finite() { format!("{v}") } else { "null".into() };
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
