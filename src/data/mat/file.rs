//! The top level of a v5 `.mat` file: the header check and the walk over its (possibly
//! zlib-compressed) elements, each array parsed into a variable.

use std::io::Read;
use std::path::Path;

use flate2::read::ZlibDecoder;

use super::element::{Elements, MI_COMPRESSED, MI_MATRIX};
use super::{Var, array, bad};
use crate::error::Result;

/// Every numeric variable of the file's bytes, in file order.
pub fn variables(bytes: &[u8], path: &Path) -> Result<Vec<Var>> {
    if bytes.len() < 128 || &bytes[126..128] != b"IM" {
        let why = if bytes.get(126..128) == Some(b"MI") {
            "big-endian files are not supported"
        } else {
            "not a MATLAB v5 file"
        };
        return Err(bad(path, format!("{why} (v4 and v7.3/HDF5 .mat files are not read either)")));
    }
    let mut vars = Vec::new();
    for el in Elements::new(&bytes[128..], 128) {
        let (el, offset) = el.map_err(|m| bad(path, m))?;
        let at = |m: String| bad(path, format!("variable at byte {offset}: {m}"));
        match el.kind {
            MI_MATRIX => vars.extend(array::parse(el.data).map_err(at)?),
            MI_COMPRESSED => {
                let mut inner = Vec::new();
                ZlibDecoder::new(el.data)
                    .read_to_end(&mut inner)
                    .map_err(|e| at(format!("cannot inflate: {e}")))?;
                for sub in Elements::new(&inner, 0) {
                    let (sub, _) = sub.map_err(at)?;
                    if sub.kind == MI_MATRIX {
                        vars.extend(array::parse(sub.data).map_err(at)?);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(vars)
}
