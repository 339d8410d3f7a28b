//! MATLAB v5 `.mat` files (the Amazon reviews, PCMAC and the SSL-book sets as distributed):
//! numeric variables, dense or sparse, of any integer or float class, compressed or not,
//! read into f64. Little-endian files only; cell, struct, char and complex variables are
//! skipped. gzip-transparent (the mirror keeps SSL-book set 8 gzip'd).

mod array;
mod element;
mod file;
mod splits;

use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use ndarray::{Array2, ShapeBuilder};

use super::{Csr, Features};
use crate::error::{Error, Result};

pub use splits::read_splits;

/// The numeric variables of a `.mat` file.
#[derive(Debug, Clone, PartialEq)]
pub struct MatFile {
    pub path: PathBuf,
    pub vars: Vec<Var>,
}

/// One named 2-D numeric variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub name: String,
    pub rows: usize,
    pub cols: usize,
    pub data: Data,
}

/// Values of a variable, as MATLAB stores them: column-major, or compressed sparse columns.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    Dense(Vec<f64>),
    /// Column `j` holds rows `row[col_start[j]..col_start[j+1]]` with `values` alongside.
    Sparse {
        col_start: Vec<usize>,
        row: Vec<usize>,
        values: Vec<f64>,
    },
}

/// Reads `path` (gzip-transparent).
pub fn read(path: &Path) -> Result<MatFile> {
    let raw = super::text::read_regular(path)?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| Error::io(path, e))?;
        out
    } else {
        raw
    };
    parse(&bytes, path)
}

/// Parses the bytes of a `.mat` file; `path` is only used in messages.
pub fn parse(bytes: &[u8], path: &Path) -> Result<MatFile> {
    Ok(MatFile { path: path.to_path_buf(), vars: file::variables(bytes, path)? })
}

/// An error about `path`'s contents.
fn bad(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Data(format!("{}: {message}", path.display()))
}

impl MatFile {
    /// The variable called `name`.
    pub fn get(&self, name: &str) -> Result<&Var> {
        self.vars.iter().find(|v| v.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.vars.iter().map(|v| v.name.as_str()).collect();
            bad(&self.path, format!("no numeric variable `{name}` (has: {})", known.join(", ")))
        })
    }

    /// Variable `name` as a feature matrix (one row per sample); dense variables become CSR
    /// when `sparse`, sparse ones stay sparse.
    pub fn features(&self, name: &str, sparse: bool) -> Result<Features> {
        let v = self.get(name)?;
        match &v.data {
            Data::Sparse { col_start, row, values } => {
                Ok(Features::Sparse(csc_to_csr(v, col_start, row, values)?))
            }
            Data::Dense(_) if sparse => Ok(Features::Sparse(dense_to_csr(&v.dense(&self.path)?)?)),
            Data::Dense(_) => Ok(Features::Dense(v.dense(&self.path)?)),
        }
    }

    /// Variable `name` as a vector (it must have one row or one column).
    pub fn vector(&self, name: &str) -> Result<Vec<f64>> {
        let v = self.get(name)?;
        match &v.data {
            Data::Dense(d) if v.rows == 1 || v.cols == 1 => Ok(d.clone()),
            _ => Err(bad(
                &self.path,
                format!("`{name}` is a {}x{} matrix, not a dense vector", v.rows, v.cols),
            )),
        }
    }
}

impl Var {
    /// The values as a row-major matrix.
    pub fn dense(&self, path: &Path) -> Result<Array2<f64>> {
        let Data::Dense(d) = &self.data else {
            return Err(bad(path, format!("`{}` is sparse", self.name)));
        };
        let x = Array2::from_shape_vec((self.rows, self.cols).f(), d.clone())
            .map_err(|e| bad(path, format!("`{}`: {e}", self.name)))?;
        Ok(x.as_standard_layout().into_owned())
    }
}

fn csc_to_csr(v: &Var, col_start: &[usize], row: &[usize], values: &[f64]) -> Result<Csr> {
    let mut indptr = vec![0usize; v.rows + 1];
    for &r in row {
        indptr[r + 1] += 1;
    }
    for i in 0..v.rows {
        indptr[i + 1] += indptr[i];
    }
    let mut next = indptr.clone();
    let (mut indices, mut vals) = (vec![0u32; row.len()], vec![0.0; row.len()]);
    for j in 0..v.cols {
        for k in col_start[j]..col_start[j + 1] {
            let slot = &mut next[row[k]];
            indices[*slot] = j as u32;
            vals[*slot] = values[k];
            *slot += 1;
        }
    }
    Csr::new(v.cols, indptr, indices, vals)
}

fn dense_to_csr(x: &Array2<f64>) -> Result<Csr> {
    let (mut indptr, mut indices, mut values) = (vec![0usize], Vec::new(), Vec::new());
    for row in x.rows() {
        for (j, &value) in row.iter().enumerate() {
            if value != 0.0 {
                indices.push(j as u32);
                values.push(value);
            }
        }
        indptr.push(indices.len());
    }
    Csr::new(x.ncols(), indptr, indices, values)
}

#[cfg(test)]
mod tests;
