//! Streaming SVMlight/LIBSVM reader: `label idx:value idx:value ... # comment`, 1-based
//! strictly increasing indices, into CSR. Also reads SVMlin example files (no label).
//! Blank and comment-only lines are skipped; anything else malformed is an error naming
//! the file and line.

use std::io::BufRead;
use std::path::Path;

use super::text::{self, Lines};
use super::{Column, Csr, NARROW_COLUMNS};
use crate::error::Result;

/// How to read a file.
#[derive(Debug, Clone, Default)]
pub struct SvmlightOptions {
    /// Declared number of features; None takes the largest index seen.
    pub n_features: Option<usize>,
    /// False for SVMlin example files, whose lines hold features only.
    pub unlabeled: bool,
    /// The labels allowed (compared as numbers, so `+1` = `1`); None allows any.
    pub labels: Option<Vec<f64>>,
}

/// A parsed file: features and, unless read with `unlabeled`, one label per row.
#[derive(Debug, Clone, PartialEq)]
pub struct Svmlight {
    pub x: Csr,
    pub labels: Vec<f64>,
}

/// Reads `path` (gzip-transparent).
pub fn read(path: &Path, opts: &SvmlightOptions) -> Result<Svmlight> {
    parse(text::open(path)?, path, opts)
}

/// Parses SVMlight text from `reader`; `path` is only used in messages.
pub fn parse<R: BufRead>(reader: R, path: &Path, opts: &SvmlightOptions) -> Result<Svmlight> {
    // A declared width of at most 2¹⁶ columns: indices are read straight into two bytes.
    match opts.n_features.is_some_and(|n| n <= NARROW_COLUMNS) {
        true => parse_as::<R, u16>(reader, path, opts),
        false => parse_as::<R, u32>(reader, path, opts),
    }
}

/// [`parse`] with the column indices collected as `I`.
fn parse_as<R: BufRead, I: Column>(
    reader: R,
    path: &Path,
    opts: &SvmlightOptions,
) -> Result<Svmlight> {
    let mut lines = Lines::new(reader, path);
    let mut indptr = vec![0usize];
    let (mut indices, mut values, mut labels) = (Vec::<I>::new(), Vec::<f64>::new(), Vec::new());
    let limit = opts.n_features.unwrap_or(u32::MAX as usize) as u64;
    let mut width = 0u64;
    while let Some((no, line)) = lines.next_line()? {
        let content = line.iter().position(|b| *b == b'#').map_or(line, |p| &line[..p]);
        if text::is_blank(content) {
            continue;
        }
        let err = |m: String| text::error_at(path, no, m);
        let mut toks = text::tokens(content);
        if !opts.unlabeled {
            let tok = toks.next().unwrap_or_default();
            let label = text::number(tok).map_err(|m| err(format!("label: {m}")))?;
            if opts.labels.as_ref().is_some_and(|known| !known.contains(&label)) {
                return Err(err(format!("unknown label `{}`", String::from_utf8_lossy(tok))));
            }
            labels.push(label);
        }
        let mut last = 0u64;
        for tok in toks {
            let Some(colon) = tok.iter().position(|b| *b == b':') else {
                return Err(err(format!(
                    "expected index:value, got `{}`",
                    String::from_utf8_lossy(tok)
                )));
            };
            let idx = index(&tok[..colon]).map_err(err)?;
            if idx <= last {
                return Err(err(format!(
                    "feature index {idx} after {last}: indices must increase"
                )));
            }
            if idx > limit {
                return Err(err(format!(
                    "feature index {idx} beyond the declared {limit} features"
                )));
            }
            let value =
                text::number(&tok[colon + 1..]).map_err(|m| err(format!("feature {idx}: {m}")))?;
            if value != 0.0 {
                // idx ≤ the declared width, so it fits in I.
                indices.push(I::from_u32((idx - 1) as u32));
                values.push(value);
            }
            last = idx;
        }
        width = width.max(last);
        indptr.push(indices.len());
    }
    if indptr.len() == 1 {
        return Err(lines.file_error("no data rows (empty file)"));
    }
    indptr.shrink_to_fit();
    indices.shrink_to_fit();
    values.shrink_to_fit();
    let n_cols = opts.n_features.unwrap_or(width as usize);
    Ok(Svmlight { x: Csr::with_indices(n_cols, indptr, indices, values)?, labels })
}

/// A 1-based feature index (digits only, ≥ 1, fits in u32).
fn index(tok: &[u8]) -> std::result::Result<u64, String> {
    let bad = || format!("bad feature index `{}`", String::from_utf8_lossy(tok));
    if tok.is_empty() || tok.len() > 10 {
        return Err(bad());
    }
    let mut v = 0u64;
    for b in tok {
        if !b.is_ascii_digit() {
            return Err(bad());
        }
        v = v * 10 + (b - b'0') as u64;
    }
    match v {
        0 => Err("feature index 0 (indices are 1-based)".into()),
        v if v > u32::MAX as u64 => Err(bad()),
        v => Ok(v),
    }
}

#[cfg(test)]
mod tests;
