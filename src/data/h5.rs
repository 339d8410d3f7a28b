//! HDF5 datasets (USPS `usps.h5`) through `hdf5-reader`, a pure-Rust decoder: integer or
//! float arrays of one or two dimensions, read into f64.

use std::path::Path;

use hdf5_reader::{Dataset, Datatype, H5Type, Hdf5File};
use ndarray::{Array2, ArrayD, Ix2};

use crate::error::{Error, Result};

/// Dataset `name` (e.g. `train/data`) of `path` as a row-major matrix.
pub fn read_matrix(path: &Path, name: &str) -> Result<Array2<f64>> {
    let x = read(path, name)?;
    let shape = x.shape().to_vec();
    x.into_dimensionality::<Ix2>()
        .map_err(|_| bad(path, name, format!("has shape {shape:?}, not a matrix")))
}

/// Dataset `name` of `path` as a vector (one dimension, or a single row or column).
pub fn read_vector(path: &Path, name: &str) -> Result<Vec<f64>> {
    let x = read(path, name)?;
    let shape = x.shape().to_vec();
    if shape.iter().filter(|&&d| d > 1).count() > 1 {
        return Err(bad(path, name, format!("has shape {shape:?}, not a vector")));
    }
    Ok(x.iter().copied().collect())
}

fn read(path: &Path, name: &str) -> Result<ArrayD<f64>> {
    super::text::regular_file(path)?;
    let file = Hdf5File::open(path)
        .map_err(|e| Error::Data(format!("{}: not a readable HDF5 file: {e}", path.display())))?;
    let ds = file.dataset(name).map_err(|e| bad(path, name, format!("not found: {e}")))?;
    let h5 = |e: hdf5_reader::error::Error| bad(path, name, e);
    match ds.dtype() {
        Datatype::FloatingPoint { size: 4, .. } => as_f64::<f32>(&ds, f64::from).map_err(h5),
        Datatype::FloatingPoint { size: 8, .. } => as_f64::<f64>(&ds, |v| v).map_err(h5),
        Datatype::FixedPoint { size: 1, signed: false, .. } => {
            as_f64::<u8>(&ds, f64::from).map_err(h5)
        }
        Datatype::FixedPoint { size: 2, signed: true, .. } => {
            as_f64::<i16>(&ds, f64::from).map_err(h5)
        }
        Datatype::FixedPoint { size: 4, signed: true, .. } => {
            as_f64::<i32>(&ds, f64::from).map_err(h5)
        }
        Datatype::FixedPoint { size: 8, signed: true, .. } => {
            as_f64::<i64>(&ds, |v| v as f64).map_err(h5)
        }
        other => Err(bad(path, name, format!("has type {other:?}, not a supported number type"))),
    }
}

fn as_f64<T: H5Type + Copy>(
    ds: &Dataset,
    f: impl Fn(T) -> f64,
) -> hdf5_reader::error::Result<ArrayD<f64>> {
    Ok(ds.read_array::<T>()?.mapv(f))
}

fn bad(path: &Path, name: &str, message: impl std::fmt::Display) -> Error {
    Error::Data(format!("{}: dataset `{name}` {message}", path.display()))
}
