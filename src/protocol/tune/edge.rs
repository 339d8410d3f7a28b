//! Whether a chosen grid point lies on the edge of its grid: for each tuned key with at
//! least three distinct values (two values have no inside), whether the chosen value is the
//! smallest or the largest (numerically when every value is a number, else as listed).

use crate::config::Tuning;

/// The keys of `t`'s grid whose value at point `chosen` is an extreme, each with `smallest`
/// or `largest`.
pub fn edges(t: &Tuning, chosen: usize) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (key, value) in &t.grid[chosen].values {
        let mut values: Vec<&str> = Vec::new();
        for p in &t.grid {
            if let Some((_, v)) = p.values.iter().find(|(k, _)| k == key)
                && !values.contains(&v.as_str())
            {
                values.push(v);
            }
        }
        if values.len() < 3 {
            continue;
        }
        let numbers: Option<Vec<f64>> = values.iter().map(|v| v.parse().ok()).collect();
        if let Some(numbers) = numbers {
            let mut pairs: Vec<(f64, &str)> = numbers.into_iter().zip(values).collect();
            pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
            values = pairs.into_iter().map(|(_, v)| v).collect();
        }
        if value == values[0] {
            out.push((key.clone(), "smallest"));
        } else if value == values[values.len() - 1] {
            out.push((key.clone(), "largest"));
        }
    }
    out
}

/// `key=side;key=side` for the `edge` column of tuning.csv.
pub fn describe(edges: &[(String, &'static str)]) -> String {
    edges.iter().map(|(k, s)| format!("{k}={s}")).collect::<Vec<_>>().join(";")
}
