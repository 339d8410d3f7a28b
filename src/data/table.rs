//! Dense labelled tables without a registry entry: a CSV file (header row, the label column
//! by name, every other column a numeric feature) and NumPy arrays (`X.npy` + `y.npy` in a
//! folder, or `X` and `y` in one `.npz`). Labels become classes as SVMlight labels do.

use std::path::Path;

use ndarray::Array2;

use super::npz::Npz;
use super::{Dataset, Features, npy, text};
use crate::error::{Error, Result};

/// The class names of `labels` in class-id order: `order` when given, else the distinct
/// labels, numbers as SVMlight's are (two: higher first, so 1/0 and +1/−1 keep 1 as the
/// positive class; more: ascending), text ascending.
pub fn classes(labels: &[String], order: Option<&[String]>) -> Result<(Vec<usize>, Vec<String>)> {
    let names: Vec<String> = match order {
        Some(o) => o.iter().map(|l| number_name(l)).collect(),
        None => {
            let mut seen: Vec<String> = Vec::new();
            for l in labels {
                if !seen.contains(l) {
                    seen.push(l.clone());
                }
            }
            match seen.iter().map(|s| s.parse::<f64>()).collect::<Result<Vec<f64>, _>>() {
                Ok(mut numbers) => {
                    numbers.sort_by(f64::total_cmp);
                    if numbers.len() == 2 {
                        numbers.reverse();
                    }
                    numbers.iter().map(|v| format!("{v}")).collect()
                }
                Err(_) => {
                    seen.sort();
                    seen
                }
            }
        }
    };
    let ids = labels
        .iter()
        .map(|l| {
            names.iter().position(|n| *n == *l).ok_or_else(|| {
                Error::Data(format!("label `{l}` is not among the classes ({})", names.join(", ")))
            })
        })
        .collect::<Result<Vec<usize>>>()?;
    Ok((ids, names))
}

/// A label as its class name: a number in its shortest form (`1.0` and `+1` are `1`).
fn number_name(label: &str) -> String {
    label.trim().parse::<f64>().map_or_else(|_| label.trim().to_string(), |v| format!("{v}"))
}

/// A dense dataset from features and label texts (see [`classes`]).
pub fn dataset(x: Array2<f64>, labels: &[String], order: Option<&[String]>) -> Result<Dataset> {
    let labels: Vec<String> = labels.iter().map(|l| number_name(l)).collect();
    let (ids, names) = classes(&labels, order)?;
    Dataset::with_classes(Features::Dense(x), ids, names)
}

/// Reads a CSV file with a header row: `label` names the label column, `delimiter` separates
/// fields; every other column is a feature. A missing or non-numeric feature (or a missing
/// label) is an error naming the line and the column. Returns the features, the label
/// texts and the header.
pub fn read_csv(
    path: &Path,
    label: &str,
    delimiter: u8,
) -> Result<(Array2<f64>, Vec<String>, Vec<String>)> {
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .trim(::csv::Trim::All)
        .from_reader(text::open_regular(path)?);
    let parse = |line: u64, message: String| Error::Parse {
        path: path.into(),
        line: line as usize,
        message,
    };
    let header: Vec<String> =
        reader.headers().map_err(|e| parse(1, e.to_string()))?.iter().map(str::to_string).collect();
    let at = header.iter().position(|h| h == label).ok_or_else(|| {
        let columns: Vec<String> = header.iter().map(|h| shown(h)).collect();
        parse(
            1,
            format!("no column `{}` in the header (columns: {})", shown(label), columns.join(", ")),
        )
    })?;
    let (mut values, mut labels) = (Vec::new(), Vec::new());
    for record in reader.records() {
        let record =
            record.map_err(|e| parse(e.position().map_or(0, |p| p.line()), csv_message(&e)))?;
        let line = record.position().map_or(0, |p| p.line());
        for (j, field) in record.iter().enumerate() {
            let column = format!("column {} (`{}`)", j + 1, shown(&header[j]));
            if field.is_empty() {
                return Err(parse(line, format!("{column}: missing value")));
            }
            if j == at {
                labels.push(field.to_string());
                continue;
            }
            match field.parse::<f64>() {
                Ok(v) if v.is_finite() => values.push(v),
                _ => {
                    return Err(parse(line, format!("{column}: not a number: `{}`", shown(field))));
                }
            }
        }
    }
    let x = Array2::from_shape_vec((labels.len(), header.len() - 1), values)
        .map_err(|e| Error::Data(format!("{}: {e}", path.display())))?;
    Ok((x, labels, header))
}

/// A field as an error message shows it: at most 40 characters (then `…`), control
/// characters escaped (no raw ESC reaches a terminal).
fn shown(field: &str) -> String {
    let mut out: String = field
        .chars()
        .take(40)
        .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
        .collect();
    if field.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// The message of a CSV error without its position (the caller gives the line).
fn csv_message(e: &::csv::Error) -> String {
    match e.kind() {
        ::csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields, the header has {expected_len}")
        }
        _ => e.to_string(),
    }
}

/// Reads `X` (n × d) and `y` (n) from a folder holding `X.npy` and `y.npy`, or from an
/// `.npz` file holding arrays `X` and `y`; labels as text (numbers in shortest form).
pub fn read_arrays(path: &Path) -> Result<(Array2<f64>, Vec<String>)> {
    let (x, y) = if path.is_dir() {
        (npy::read(&path.join("X.npy"))?, npy::read(&path.join("y.npy"))?)
    } else {
        let mut npz = Npz::open(path)?;
        let hint = "save with np.savez(path, X=..., y=...)";
        (npz.array("X", hint)?, npz.array("y", hint)?)
    };
    let where_ = path.display().to_string();
    let x = x.matrix(&format!("{where_}: X"))?;
    let y = y.vector(&format!("{where_}: y"))?;
    if x.nrows() != y.len() {
        return Err(Error::Data(format!("{where_}: X has {} rows, y {}", x.nrows(), y.len())));
    }
    if let Some((i, v)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        let d = x.ncols().max(1);
        return Err(Error::Data(format!("{where_}: X[{}, {}] is {v}", i / d, i % d)));
    }
    Ok((x, y.iter().map(|v| format!("{v}")).collect()))
}
