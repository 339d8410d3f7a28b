//! IDX parsing on hand-made byte buffers: a good pair, bad magic (and a gzip'd file),
//! truncated and over-long files, and images and labels that do not pair up.

use std::path::Path;

use super::*;

/// An IDX file: the big-endian header words, then `data`.
fn idx(header: &[u32], data: &[u8]) -> Vec<u8> {
    header.iter().flat_map(|w| w.to_be_bytes()).chain(data.iter().copied()).collect()
}

/// Three 2 × 2 images and their labels.
fn files() -> (Vec<u8>, Vec<u8>) {
    let pixels = [0, 255, 51, 102, 1, 2, 3, 4, 255, 255, 0, 0];
    (idx(&[0x803, 3, 2, 2], &pixels), idx(&[0x801, 3], &[9, 0, 3]))
}

fn err(r: Result<impl std::fmt::Debug>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn a_good_pair_gives_pixels_over_255_and_the_labels() {
    let (images, labels) = files();
    let x = parse_images(&images, Path::new("i")).unwrap();
    assert_eq!((x.count, x.rows, x.cols), (3, 2, 2));
    let y = parse_labels(&labels, Path::new("l")).unwrap();
    assert_eq!(y, [9, 0, 3]);
    let (features, values) = pair(x, y, Path::new("i"), Path::new("l")).unwrap();
    assert_eq!(features.dim(), (3, 4));
    assert_eq!(features.row(0).to_vec(), [0.0, 1.0, 0.2, 0.4]);
    assert_eq!(features[[1, 3]], 4.0 / 255.0);
    assert_eq!(values, [9.0, 0.0, 3.0]);
    // No images at all is a valid (empty) file.
    let empty = parse_images(&idx(&[0x803, 0, 28, 28], &[]), Path::new("e")).unwrap();
    assert_eq!(empty.features().unwrap().dim(), (0, 784));
}

#[test]
fn a_bad_magic_names_the_file_and_both_magics() {
    let (images, labels) = files();
    let e = err(parse_labels(&images, Path::new("data/x-images")));
    assert!(e.contains("data/x-images: bad magic 0x00000803, expected 0x00000801"), "{e}");
    let e = err(parse_images(&labels, Path::new("y")));
    assert!(e.contains("bad magic 0x00000801, expected 0x00000803 (IDX images)"), "{e}");
    let gz = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6];
    let e = err(parse_images(&gz, Path::new("t.gz")));
    assert!(e.contains("gzip-compressed"), "{e}");
}

#[test]
fn truncated_or_overlong_files_are_errors() {
    let (images, labels) = files();
    let e = err(parse_images(&images[..10], Path::new("i")));
    assert!(e.contains("i: truncated: 10 bytes, shorter than the 16-byte header"), "{e}");
    let e = err(parse_images(&images[..images.len() - 1], Path::new("i")));
    assert!(e.contains("truncated: the header announces 12 data bytes, the file has 11"), "{e}");
    let e = err(parse_labels(&labels[..9], Path::new("l")));
    assert!(e.contains("l: truncated: the header announces 3 data bytes, the file has 1"), "{e}");
    let mut long = labels.clone();
    long.push(7);
    let e = err(parse_labels(&long, Path::new("l")));
    assert!(e.contains("1 bytes after the 3 data bytes"), "{e}");
    let huge = idx(&[0x803, u32::MAX, u32::MAX, u32::MAX], &[]);
    assert!(parse_images(&huge, Path::new("h")).is_err());
}

#[test]
fn images_and_labels_must_pair_up() {
    let (images, _) = files();
    let x = parse_images(&images, Path::new("a/img")).unwrap();
    let y = parse_labels(&idx(&[0x801, 2], &[1, 2]), Path::new("a/lab")).unwrap();
    let e = err(pair(x, y, Path::new("a/img"), Path::new("a/lab")));
    assert!(e.contains("a/lab has 2 labels but a/img has 3 images"), "{e}");
}

#[test]
fn read_takes_files_and_names_a_missing_one() {
    let dir = std::env::temp_dir().join(format!("sslab-idx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (images, labels) = files();
    std::fs::write(dir.join("img"), images).unwrap();
    std::fs::write(dir.join("lab"), labels).unwrap();
    let (x, y) = read(&dir.join("img"), &dir.join("lab")).unwrap();
    assert_eq!((x.nrows(), y.len()), (3, 3));
    let e = err(read(&dir.join("img"), &dir.join("none")));
    assert!(e.contains("none"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
