//! One `miMATRIX` element: array flags, dimensions, name, then the real part of a numeric
//! array or the row indices, column starts and values of a sparse one.

use super::element::{Element, Elements, numbers};
use super::{Data, Var};

/// Array classes (the low byte of the array flags).
const SPARSE: u32 = 5;
const NUMERIC: std::ops::RangeInclusive<u32> = 6..=15;
const COMPLEX: u32 = 1 << 11;

/// The variable in a `miMATRIX` payload, or None for a class that is not numeric (cell,
/// struct, char, object: skipped).
pub fn parse(payload: &[u8]) -> Result<Option<Var>, String> {
    let mut parts = Elements::new(payload, 0).map(|e| e.map(|(el, _)| el));
    let mut next = |what: &str| parts.next().unwrap_or_else(|| Err(format!("no {what}")));
    let flags = numbers(&next("array flags")?)?;
    let class = flags.first().map_or(0, |f| *f as u32);
    let dims = numbers(&next("dimensions")?)?;
    let name_el = next("name")?;
    let name = String::from_utf8_lossy(name_el.data).into_owned();
    let (kind, complex) = (class & 0xff, class & COMPLEX != 0);
    if kind != SPARSE && !NUMERIC.contains(&kind) {
        return Ok(None);
    }
    if complex {
        return Err(format!("`{name}` is complex"));
    }
    let [rows, cols] = dims.as_slice() else {
        return Err(format!("`{name}` has {} dimensions, not 2", dims.len()));
    };
    let (rows, cols) = (*rows as usize, *cols as usize);
    let data = if kind == SPARSE {
        let row = indices(&next("row indices")?, rows, &name)?;
        let col_start = indices(&next("column starts")?, usize::MAX, &name)?;
        let values = numbers(&next("values")?)?;
        sparse(cols, row, col_start, values).map_err(|m| format!("`{name}`: {m}"))?
    } else {
        let values = numbers(&next("values")?)?;
        if values.len() != rows * cols {
            return Err(format!("`{name}` is {rows}x{cols} but holds {} values", values.len()));
        }
        Data::Dense(values)
    };
    Ok(Some(Var { name, rows, cols, data }))
}

/// Non-negative integer indices below `limit`.
fn indices(el: &Element, limit: usize, name: &str) -> Result<Vec<usize>, String> {
    numbers(el)?
        .into_iter()
        .map(|v| {
            let i = v as usize;
            if v >= 0.0 && i < limit {
                Ok(i)
            } else {
                Err(format!("`{name}`: index {v} out of range"))
            }
        })
        .collect()
}

/// Checks compressed sparse columns; MATLAB may store more row indices and values (nzmax)
/// than the last column start says are used.
fn sparse(
    cols: usize,
    mut row: Vec<usize>,
    col_start: Vec<usize>,
    mut values: Vec<f64>,
) -> Result<Data, String> {
    if col_start.len() != cols + 1 || col_start[0] != 0 || col_start.windows(2).any(|w| w[0] > w[1])
    {
        return Err(format!(
            "{} column starts for {cols} columns, or not increasing from 0",
            col_start.len()
        ));
    }
    let nnz = col_start[cols];
    if row.len() < nnz || values.len() < nnz {
        return Err(format!(
            "{nnz} non-zeros but {} row indices and {} values",
            row.len(),
            values.len()
        ));
    }
    row.truncate(nnz);
    values.truncate(nnz);
    if col_start.windows(2).any(|w| row[w[0]..w[1]].windows(2).any(|p| p[0] >= p[1])) {
        return Err("row indices not increasing within a column".into());
    }
    Ok(Data::Sparse { col_start, row, values })
}
