//! `.mat` files written byte by byte here (the layout of the MAT-File Format spec), read
//! back: dense double and uint8, small-format elements, sparse, compressed, gzip'd, splits,
//! and the errors.

use std::io::Write;

use flate2::Compression;
use flate2::write::{GzEncoder, ZlibEncoder};
use ndarray::array;

use super::*;

fn tag(kind: u32, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if data.len() <= 4 && kind != element::MI_MATRIX {
        out.extend((kind | ((data.len() as u32) << 16)).to_le_bytes());
        out.extend(data);
        out.resize(8, 0);
    } else {
        out.extend(kind.to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
        out.resize(8 + data.len().div_ceil(8) * 8, 0);
    }
    out
}

fn matrix(class: u32, name: &str, dims: [i32; 2], parts: &[Vec<u8>]) -> Vec<u8> {
    let mut body = tag(6, &[class.to_le_bytes(), 0u32.to_le_bytes()].concat());
    body.extend(tag(5, &[dims[0].to_le_bytes(), dims[1].to_le_bytes()].concat()));
    body.extend(tag(1, name.as_bytes()));
    for p in parts {
        body.extend(p);
    }
    tag(element::MI_MATRIX, &body)
}

fn doubles(v: &[f64]) -> Vec<u8> {
    tag(9, &v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
}

fn int32s(v: &[i32]) -> Vec<u8> {
    tag(5, &v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
}

fn file(elements: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![b' '; 116];
    out[..19].copy_from_slice(b"MATLAB 5.0 MAT-file");
    out.extend([0u8; 8]);
    out.extend(0x0100u16.to_le_bytes());
    out.extend(b"IM");
    for e in elements {
        out.extend(e);
    }
    out
}

fn compressed(el: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(el).unwrap();
    let z = z.finish().unwrap();
    [15u32.to_le_bytes().as_slice(), &(z.len() as u32).to_le_bytes(), &z].concat()
}

fn sample() -> Vec<u8> {
    // X = [1 2 3; 4 5 6] (column-major), y = uint8 [7; 8] stored in small format,
    // S = sparse 3x2 with S(1,1) = 0.5, S(3,1) = -1, S(2,2) = 2.
    let x = matrix(6, "X", [2, 3], &[doubles(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0])]);
    let y = matrix(9, "y", [2, 1], &[tag(2, &[7, 8])]);
    let s = matrix(
        5,
        "S",
        [3, 2],
        &[int32s(&[0, 2, 1]), int32s(&[0, 2, 3]), doubles(&[0.5, -1.0, 2.0])],
    );
    let c = matrix(1, "cell", [1, 1], &[]);
    file(&[x, compressed(&y), c, s])
}

#[test]
fn reads_dense_uint8_sparse_and_compressed_variables() {
    let f = parse(&sample(), Path::new("t.mat")).unwrap();
    assert_eq!(f.vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), ["X", "y", "S"]);
    assert_eq!(
        f.features("X", false).unwrap(),
        Features::Dense(array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    );
    assert_eq!(f.vector("y").unwrap(), [7.0, 8.0]);
    let s = Csr::new(2, vec![0, 1, 2, 3], vec![0, 1, 0], vec![0.5, 2.0, -1.0]).unwrap();
    assert_eq!(f.features("S", false).unwrap(), Features::Sparse(s));
    let x = Csr::new(3, vec![0, 3, 6], vec![0, 1, 2, 0, 1, 2], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        .unwrap();
    assert_eq!(f.features("X", true).unwrap(), Features::Sparse(x));
}

#[test]
fn reads_gzipped_files_and_splits() {
    let dir = std::env::temp_dir().join(format!("sslab-mat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let idx = matrix(6, "idxLabs", [2, 2], &[doubles(&[3.0, 1.0, 1.0, 2.0])]);
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(&file(&[idx])).unwrap();
    let path = dir.join("splits.mat.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    assert_eq!(read_splits(&path, 3).unwrap(), [vec![2, 0], vec![0, 1]]);
    assert!(
        read_splits(&path, 2)
            .unwrap_err()
            .to_string()
            .contains("split 1: 3 is not an index in 1..=2")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_files_are_errors_naming_the_file() {
    let mut truncated = sample();
    truncated.truncate(truncated.len() - 12);
    let ragged = file(&[matrix(6, "X", [2, 2], &[doubles(&[1.0, 2.0, 3.0])])]);
    let complex = file(&[matrix(6 | 1 << 11, "Z", [1, 1], &[doubles(&[1.0])])]);
    let mut hdf5 = sample();
    hdf5[126..128].copy_from_slice(b"\x00\x02");
    let cases: [(&[u8], &str); 4] = [
        (&truncated, "past the end of the file"),
        (&ragged, "`X` is 2x2 but holds 3 values"),
        (&complex, "`Z` is complex"),
        (&hdf5, "not a MATLAB v5 file"),
    ];
    for (bytes, want) in cases {
        let msg = parse(bytes, Path::new("bad.mat")).unwrap_err().to_string();
        assert!(msg.contains("bad.mat") && msg.contains(want), "{msg}");
    }
    let f = parse(&sample(), Path::new("t.mat")).unwrap();
    assert!(
        f.get("nope")
            .unwrap_err()
            .to_string()
            .contains("no numeric variable `nope` (has: X, y, S)")
    );
    assert!(f.vector("X").unwrap_err().to_string().contains("2x3 matrix"));
}
