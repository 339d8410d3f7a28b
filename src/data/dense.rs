//! Plain-text readers (gzip-transparent): dense whitespace matrices (SSL-book `X.tab`,
//! ESL `zip.train` with the label first), one-label-per-line files, and split files
//! (one split per line, 1-based indices of the labelled points).

use std::io::BufRead;
use std::path::Path;

use ndarray::Array2;

use super::text::{self, Lines};
use crate::error::Result;

/// A dense matrix read row by row; with `label_first`, the first column is returned apart.
pub struct DenseText {
    pub x: Array2<f64>,
    pub labels: Vec<f64>,
}

/// Reads a dense matrix; every row must have the same number of values.
pub fn read_matrix(path: &Path, label_first: bool) -> Result<DenseText> {
    parse_matrix(text::open(path)?, path, label_first)
}

/// [`read_matrix`] from any reader; `path` is only used in messages.
pub fn parse_matrix<R: BufRead>(reader: R, path: &Path, label_first: bool) -> Result<DenseText> {
    let mut lines = Lines::new(reader, path);
    let (mut values, mut labels, mut width) = (Vec::new(), Vec::new(), None);
    let mut rows = 0;
    while let Some((no, line)) = lines.next_line()? {
        if text::is_blank(line) {
            continue;
        }
        let start = values.len();
        for (k, tok) in text::tokens(line).enumerate() {
            let v = text::number(tok)
                .map_err(|m| text::error_at(path, no, format!("column {}: {m}", k + 1)))?;
            if label_first && k == 0 {
                labels.push(v);
            } else {
                values.push(v);
            }
        }
        let w = values.len() - start;
        if w == 0 {
            return Err(text::error_at(path, no, "a row without values"));
        }
        if *width.get_or_insert(w) != w {
            return Err(text::error_at(
                path,
                no,
                format!("{w} values where earlier rows have {}", width.unwrap_or(0)),
            ));
        }
        rows += 1;
    }
    let Some(width) = width else {
        return Err(lines.file_error("no data rows (empty file)"));
    };
    let x = Array2::from_shape_vec((rows, width), values)
        .map_err(|e| lines.file_error(format!("cannot shape the matrix: {e}")))?;
    Ok(DenseText { x, labels })
}

/// Reads one numeric label per line.
pub fn read_labels(path: &Path) -> Result<Vec<f64>> {
    parse_labels(text::open(path)?, path)
}

/// [`read_labels`] from any reader; `path` is only used in messages.
pub fn parse_labels<R: BufRead>(reader: R, path: &Path) -> Result<Vec<f64>> {
    let mut lines = Lines::new(reader, path);
    let mut labels = Vec::new();
    while let Some((no, line)) = lines.next_line()? {
        if text::is_blank(line) {
            continue;
        }
        let mut toks = text::tokens(line);
        let (Some(tok), None) = (toks.next(), toks.next()) else {
            return Err(text::error_at(path, no, "expected one label per line"));
        };
        labels
            .push(text::number(tok).map_err(|m| text::error_at(path, no, format!("label: {m}")))?);
    }
    if labels.is_empty() {
        return Err(lines.file_error("no labels (empty file)"));
    }
    Ok(labels)
}

/// Reads split files: one split per line, 1-based distinct indices ≤ `n`; returned 0-based.
pub fn read_splits(path: &Path, n: usize) -> Result<Vec<Vec<usize>>> {
    parse_splits(text::open(path)?, path, n)
}

/// [`read_splits`] from any reader; `path` is only used in messages.
pub fn parse_splits<R: BufRead>(reader: R, path: &Path, n: usize) -> Result<Vec<Vec<usize>>> {
    let mut lines = Lines::new(reader, path);
    let mut splits = Vec::new();
    while let Some((no, line)) = lines.next_line()? {
        if text::is_blank(line) {
            continue;
        }
        let mut split = Vec::new();
        let mut seen = vec![false; n];
        for tok in text::tokens(line) {
            let i = std::str::from_utf8(tok)
                .ok()
                .and_then(|t| t.parse::<usize>().ok())
                .filter(|i| (1..=n).contains(i));
            let Some(i) = i else {
                return Err(text::error_at(
                    path,
                    no,
                    format!("`{}` is not an index in 1..={n}", String::from_utf8_lossy(tok)),
                ));
            };
            if std::mem::replace(&mut seen[i - 1], true) {
                return Err(text::error_at(path, no, format!("index {i} listed twice")));
            }
            split.push(i - 1);
        }
        splits.push(split);
    }
    if splits.is_empty() {
        return Err(lines.file_error("no splits (empty file)"));
    }
    Ok(splits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sslab-dense-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn file(dir: &Path, tag: &str, text: &str) -> std::path::PathBuf {
        let p = dir.join(tag);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn reads_matrices_labels_and_splits() {
        let d = dir("ok");
        let m = read_matrix(&file(&d, "esl", "6 -1 0.5\n1 0.25 1\n"), true).unwrap();
        assert_eq!(m.labels, [6.0, 1.0]);
        assert_eq!(m.x, ndarray::array![[-1.0, 0.5], [0.25, 1.0]]);
        assert_eq!(read_labels(&file(&d, "y", "-1\n1\n\n")).unwrap(), [-1.0, 1.0]);
        assert_eq!(read_splits(&file(&d, "s", "3 1\n2 3\n"), 3).unwrap(), [vec![2, 0], vec![1, 2]]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn bad_text_files_name_file_and_line() {
        type Reader = fn(&std::path::Path) -> Result<()>;
        let cases: [(&str, Reader, &str, &str); 7] = [
            (
                "w",
                |p| read_matrix(p, false).map(drop),
                "1 2\n3\n",
                ":2: 1 values where earlier rows have 2",
            ),
            (
                "nan",
                |p| read_matrix(p, false).map(drop),
                "1 NaN\n",
                ":1: column 2: non-finite value `NaN`",
            ),
            ("empty", |p| read_matrix(p, false).map(drop), "", ":1: no data rows"),
            ("two", |p| read_labels(p).map(drop), "1\n1 2\n", ":2: expected one label per line"),
            ("idx0", |p| read_splits(p, 5).map(drop), "1 0\n", ":1: `0` is not an index in 1..=5"),
            ("idx9", |p| read_splits(p, 5).map(drop), "1 2\n9\n", ":2: `9` is not an index"),
            ("dup", |p| read_splits(p, 5).map(drop), "1 1\n", ":1: index 1 listed twice"),
        ];
        let d = dir("bad");
        for (tag, read, text, want) in cases {
            let msg = read(&file(&d, tag, text)).unwrap_err().to_string();
            assert!(msg.contains(tag) && msg.contains(want), "{tag}: {msg}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
