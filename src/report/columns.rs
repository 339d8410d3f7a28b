//! The numeric columns of result rows by their `results.csv` names (fixed, reported by the
//! fits, or swept), for `sslab table --value` and `sslab plot-curve --value`.

use crate::error::{Error, Result};
use crate::protocol::ResultRow;

/// A row's cell as a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Number(f64),
    /// Empty, absent or not finite.
    Missing,
    /// Text: the column is not numeric.
    Text,
}

impl Value {
    /// The number, if any.
    pub fn number(self) -> Option<f64> {
        match self {
            Value::Number(x) => Some(x),
            _ => None,
        }
    }
}

/// The value in `column` of `row`: a numeric fixed column, a reported value, or a swept key
/// (`swept.KEY` names a swept key that shares its name with a fixed or reported column, as
/// in the file's header).
pub fn value(row: &ResultRow, column: &str) -> Value {
    let finite = |v: Option<f64>| match v {
        Some(x) if x.is_finite() => Value::Number(x),
        _ => Value::Missing,
    };
    let whole = |v: usize| Value::Number(v as f64);
    match column {
        "split" => whole(row.split),
        "split_seed" => Value::Number(row.split_seed as f64),
        "alpha_l" => finite(row.alpha_l),
        "alpha_u" => finite(row.alpha_u),
        "lambda" => finite(row.lambda),
        "error" => finite(Some(row.error)),
        "prbep" => finite(Some(row.prbep)),
        "test_error" => finite(row.test_error),
        "test_prbep" => finite(row.test_prbep),
        "n_labeled" => whole(row.n_labeled),
        "n_unlabeled" => whole(row.n_unlabeled),
        "dim" => whole(row.dim),
        "fit_seconds" => finite(Some(row.fit_seconds)),
        "experiment" | "config_hash" | "dataset" | "method" | "kind" | "params"
        | "lambda_policy" | "status" | "message" => Value::Text,
        _ => {
            let cell = match column.strip_prefix("swept.") {
                Some(key) => find(&row.swept, key),
                None => find(&row.reported, column).or_else(|| find(&row.swept, column)),
            };
            match cell.map(str::parse::<f64>) {
                None => Value::Missing,
                Some(Ok(x)) => finite(Some(x)),
                Some(Err(_)) => Value::Text,
            }
        }
    }
}

fn find<'a>(list: &'a [(String, String)], key: &str) -> Option<&'a str> {
    list.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// The columns of `rows` with a number in some row and text in none, in file order: the
/// numeric fixed columns, the reported values, the swept keys.
pub fn numeric(rows: &[ResultRow]) -> Vec<String> {
    const FIXED: [&str; 13] = [
        "split",
        "split_seed",
        "alpha_l",
        "alpha_u",
        "lambda",
        "error",
        "prbep",
        "test_error",
        "test_prbep",
        "n_labeled",
        "n_unlabeled",
        "dim",
        "fit_seconds",
    ];
    let mut names: Vec<String> = FIXED.iter().map(|s| s.to_string()).collect();
    for (k, _) in rows.iter().flat_map(|r| &r.reported) {
        if !names.contains(k) {
            names.push(k.clone());
        }
    }
    for (k, _) in rows.iter().flat_map(|r| &r.swept) {
        let reported = rows.iter().any(|r| find(&r.reported, k).is_some());
        let name =
            if FIXED.contains(&k.as_str()) || reported { format!("swept.{k}") } else { k.clone() };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .filter(|name| {
            let values: Vec<Value> = rows.iter().map(|r| value(r, name)).collect();
            !values.contains(&Value::Text) && values.iter().any(|v| v.number().is_some())
        })
        .collect()
}

/// Checks that `column` is a numeric column of `rows`; the error lists those that are.
pub fn check(rows: &[ResultRow], column: &str) -> Result<()> {
    let numeric = numeric(rows);
    if numeric.iter().any(|n| n == column) {
        return Ok(());
    }
    let what = match rows.iter().any(|r| value(r, column) == Value::Text) {
        true => "holds text",
        false => "is not a column with numbers",
    };
    Err(Error::Report(format!(
        "`{column}` {what} of the results (numeric columns: {})",
        numeric.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::test_row;

    fn row(reported: &[(&str, &str)], swept: &[(&str, &str)]) -> ResultRow {
        let pairs = |l: &[(&str, &str)]| -> Vec<(String, String)> {
            l.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        ResultRow { reported: pairs(reported), swept: pairs(swept), ..test_row("d", "m", 2, 0.25) }
    }

    #[test]
    fn values_come_from_fixed_reported_and_swept_columns_by_header_name() {
        let r = row(&[("gamma", "0.5"), ("solver", "cg")], &[("gamma", "2"), ("n", "NaN")]);
        assert_eq!(value(&r, "error"), Value::Number(0.25));
        assert_eq!(value(&r, "split"), Value::Number(2.0));
        assert_eq!(value(&r, "lambda"), Value::Number(1.0));
        assert_eq!(value(&r, "alpha_l"), Value::Missing);
        assert_eq!(value(&r, "prbep"), Value::Missing); // NaN
        assert_eq!(value(&r, "gamma"), Value::Number(0.5));
        assert_eq!(value(&r, "swept.gamma"), Value::Number(2.0));
        assert_eq!(value(&r, "n"), Value::Missing);
        assert_eq!(value(&r, "solver"), Value::Text);
        assert_eq!(value(&r, "status"), Value::Text);
        assert_eq!(value(&r, "nothing"), Value::Missing);
    }

    #[test]
    fn numeric_columns_have_a_number_and_no_text_and_errors_list_them() {
        let rows = vec![
            row(&[("gamma", "0.5"), ("solver", "cg")], &[("gamma", "2"), ("n", "3")]),
            row(&[("k", "7")], &[("n", "x")]),
        ];
        let numeric = numeric(&rows);
        // alpha_l, alpha_u, prbep, test_* hold no number; solver and n hold text.
        assert_eq!(
            numeric,
            [
                "split",
                "split_seed",
                "lambda",
                "error",
                "n_labeled",
                "n_unlabeled",
                "dim",
                "fit_seconds",
                "gamma",
                "k",
                "swept.gamma"
            ]
        );
        assert!(check(&rows, "gamma").is_ok() && check(&rows, "swept.gamma").is_ok());
        let e = check(&rows, "solver").unwrap_err().to_string();
        assert!(
            e.contains("`solver` holds text") && e.contains("dim, fit_seconds, gamma, k"),
            "{e}"
        );
        let e = check(&rows, "alpha_l").unwrap_err().to_string();
        assert!(e.contains("`alpha_l` is not a column with numbers"), "{e}");
    }
}
