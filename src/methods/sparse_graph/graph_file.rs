//! Graphs in files: a precomputed adjacency matrix from scipy (`scipy.sparse.save_npz`,
//! CSR or CSC; arrays `indptr`, `indices`, `data`, `shape`), and the cache of built kNN
//! graphs (`<data dir>/graphs/<key>.graph`: a header, then the CSR arrays little-endian),
//! keyed by the SHA-256 of the rows and the graph setting, so that a re-run reads the graph
//! instead of searching again.

use std::path::{Path, PathBuf};

use ndarray::ArrayView2;
use sha2::{Digest, Sha256};

use super::{Graph, KnnSpec, Symmetrise};
use crate::data::npz::Npz;
use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"SSLGRPH1";

/// Reads a `scipy.sparse.save_npz` file (n × n), symmetrised by `rule`.
pub fn read_npz(path: &Path, rule: Symmetrise) -> Result<Graph> {
    let bad = |m: String| Error::Data(format!("{}: {m}", path.display()));
    let mut npz = Npz::open(path)?;
    let mut array = |name: &str| -> Result<Vec<f64>> {
        Ok(npz.array(name, "save with scipy.sparse.save_npz")?.data)
    };
    let shape = array("shape")?;
    let (indptr, indices, data) = (array("indptr")?, array("indices")?, array("data")?);
    if shape.len() != 2 || shape[0] != shape[1] || indptr.len() as f64 != shape[0] + 1.0 {
        return Err(bad(format!("expected a square CSR or CSC matrix, shape {shape:?}")));
    }
    let index = |v: f64| (v >= 0.0 && v <= u32::MAX as f64).then_some(v as u32);
    let indices: Vec<u32> = indices
        .iter()
        .map(|&v| index(v).ok_or_else(|| bad(format!("column index {v}"))))
        .collect::<Result<_>>()?;
    let indptr: Vec<usize> = indptr.iter().map(|&v| v as usize).collect();
    let weights: Vec<f32> = data.iter().map(|&v| v as f32).collect();
    Graph::from_csr(&indptr, &indices, &weights, rule).map_err(|e| bad(e.to_string()))
}

/// The kNN graph of `x` under `spec`: read from `dir` when built before, else built and
/// written there (a failed write is reported on stderr; the graph is still returned).
pub fn cached(spec: &KnnSpec, x: ArrayView2<f64>, dir: &Path) -> Result<Graph> {
    let path = cache_path(spec, x, dir);
    if let Ok(bytes) = std::fs::read(&path)
        && let Some(g) = decode(&bytes).filter(|g| g.n() == x.nrows())
    {
        return Ok(g);
    }
    let g = spec.build(x)?;
    // Written beside its final name, then renamed: a reader never sees half a graph.
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    let written = std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&partial, encode(&g)))
        .and_then(|_| std::fs::rename(&partial, &path))
        .map_err(|e| Error::io(&path, e));
    if let Err(e) = written {
        eprintln!("warning: the kNN graph was not cached: {e}");
    }
    Ok(g)
}

/// `dir/<key>.graph`, the key the SHA-256 of the rows' bytes and the setting.
fn cache_path(spec: &KnnSpec, x: ArrayView2<f64>, dir: &Path) -> PathBuf {
    let mut h = Sha256::new();
    h.update(spec.describe().as_bytes());
    h.update((x.nrows() as u64).to_le_bytes());
    h.update((x.ncols() as u64).to_le_bytes());
    for row in x.rows() {
        for v in row {
            h.update(v.to_le_bytes());
        }
    }
    let hex: String = h.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{hex}.graph"))
}

/// Header (magic, n, entries, symmetric, recall or NaN), then indptr (u64), indices (u32),
/// weights (f32), all little-endian.
fn encode(g: &Graph) -> Vec<u8> {
    let (indptr, indices, weights) = g.csr();
    let mut out = Vec::with_capacity(g.size_bytes() + 40);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(g.n() as u64).to_le_bytes());
    out.extend_from_slice(&(g.nnz() as u64).to_le_bytes());
    out.extend_from_slice(&u64::from(g.is_symmetric()).to_le_bytes());
    out.extend_from_slice(&g.recall().unwrap_or(f64::NAN).to_le_bytes());
    indptr.iter().for_each(|&v| out.extend_from_slice(&(v as u64).to_le_bytes()));
    indices.iter().for_each(|&v| out.extend_from_slice(&v.to_le_bytes()));
    weights.iter().for_each(|&v| out.extend_from_slice(&v.to_le_bytes()));
    out
}

/// The graph of [`encode`]'s bytes (None when they are not one).
fn decode(bytes: &[u8]) -> Option<Graph> {
    let word =
        |k: usize| Some(u64::from_le_bytes(bytes.get(8 + 8 * k..16 + 8 * k)?.try_into().ok()?));
    if bytes.get(..8)? != MAGIC {
        return None;
    }
    let (n, nnz, symmetric) = (word(0)? as usize, word(1)? as usize, word(2)? == 1);
    let recall = f64::from_bits(word(3)?);
    let body = &bytes[40..];
    if body.len() != (n + 1) * 8 + nnz * 8 {
        return None;
    }
    let (p, rest) = body.split_at((n + 1) * 8);
    let (i, w) = rest.split_at(nnz * 4);
    let indptr = p.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])) as usize);
    let indices = i.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4])));
    let weights = w.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])));
    let g = Graph::from_parts(indptr.collect(), indices.collect(), weights.collect(), symmetric)?;
    Some(if recall.is_nan() { g } else { g.with_recall(recall) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_graph_reads_back_equal_and_garbage_is_rejected() {
        let x = ndarray::Array2::from_shape_fn((40, 2), |(i, j)| ((i * 7 + j * 3) % 11) as f64);
        let spec = KnnSpec { k: 3, ..KnnSpec::default() };
        let g = spec.build(x.view()).unwrap().with_recall(0.5);
        assert_eq!(decode(&encode(&g)), Some(g.clone()));
        assert_eq!(decode(b"SSLGRPH1 short"), None);
        let dir = std::env::temp_dir().join(format!("sslab-graph-cache-{}", std::process::id()));
        let first = cached(&spec, x.view(), &dir).unwrap();
        let again = cached(&spec, x.view(), &dir).unwrap();
        assert_eq!(first, again);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_a_scipy_npz_adjacency() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("sslab-npz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // [[0, 2, 0], [2, 0, 1], [0, 1, 0]] in CSR.
        let arrays: [(&str, Vec<usize>, Vec<f64>); 4] = [
            ("indptr", vec![4], vec![0.0, 1.0, 3.0, 4.0]),
            ("indices", vec![4], vec![1.0, 0.0, 2.0, 1.0]),
            ("data", vec![4], vec![2.0, 2.0, 1.0, 1.0]),
            ("shape", vec![2], vec![3.0, 3.0]),
        ];
        let path = dir.join("w.npz");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        for (name, shape, data) in arrays {
            let file = dir.join(format!("{name}.npy"));
            crate::data::npy::write_f64(&file, &shape, &data).unwrap();
            zip.start_file(format!("{name}.npy"), zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(&std::fs::read(&file).unwrap()).unwrap();
        }
        zip.finish().unwrap();
        let g = read_npz(&path, Symmetrise::Max).unwrap();
        assert_eq!(g.csr(), (&[0, 1, 3, 4][..], &[1, 0, 2, 1][..], &[2.0, 2.0, 1.0, 1.0][..]));
        assert!(read_npz(&dir.join("indptr.npy"), Symmetrise::Max).is_err());
        // A FIFO is refused, naming the file, without waiting for a writer.
        let fifo = dir.join("fifo.npz");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_npz(&fifo, Symmetrise::Max).unwrap_err().to_string();
        assert!(err.contains("fifo.npz"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
