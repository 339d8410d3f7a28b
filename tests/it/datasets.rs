//! Every registered dataset, fetched from the mirror into a temporary data directory, loads
//! with the shape and class counts listed in `../shared/data/MANIFEST.md` (numbers typed in
//! here from the manifest). Skips, saying so, when the mirror is absent.

use crate::common;

use sslab::data::load::{load_named, official_splits};
use sslab::data::registry::Registry;
use sslab::data::{Features, svmlin};

/// (name, part, rows, features, per-class counts in registry class order)
type Expected = (&'static str, Option<&'static str>, usize, usize, &'static [usize]);

const EXPECTED: &[Expected] = &[
    ("mushrooms", None, 8124, 112, &[3916, 4208]),
    ("splice", Some("train"), 1000, 60, &[517, 483]),
    ("splice", Some("test"), 2175, 60, &[1131, 1044]),
    ("adult", Some("train"), 32561, 123, &[7841, 24720]),
    ("adult", Some("test"), 16281, 123, &[3846, 12435]),
    ("adult", None, 48842, 123, &[11687, 37155]),
    ("books", None, 2000, 400, &[1000, 1000]),
    ("dvd", None, 1999, 400, &[999, 1000]),
    ("electronics", None, 1998, 400, &[998, 1000]),
    ("kitchen", None, 1999, 400, &[999, 1000]),
    ("usps", Some("train"), 7291, 256, &[1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]),
    ("usps", Some("test"), 2007, 256, &[359, 264, 198, 166, 200, 160, 170, 147, 166, 177]),
    ("ssl_digit1", None, 1500, 241, &[734, 766]),
    ("ssl_usps", None, 1500, 241, &[300, 1200]),
    ("ssl_coil2", None, 1500, 241, &[750, 750]),
    ("ssl_bci", None, 400, 117, &[200, 200]),
    ("ssl_g241c", None, 1500, 241, &[750, 750]),
    ("ssl_coil", None, 1500, 241, &[250; 6]),
    ("ssl_g241n", None, 1500, 241, &[748, 752]),
    ("ssl_secstr", None, 83679, 15, &[35823, 47856]),
    ("ssl_text", None, 1500, 11960, &[750, 750]),
    ("pcmac", None, 1943, 3289, &[982, 961]),
    ("svmlin_pcmac", Some("test"), 486, 7511, &[242, 244]),
    ("fashion_mnist", Some("test"), 10000, 784, &[1000; 10]),
];

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn registered_datasets_match_the_manifest() {
    let mirror = common::mirror();
    let data = common::fetched(&mirror, &[], "datasets-all");
    let root = &data.0;
    let reg = Registry::builtin().unwrap();
    for &(name, part, rows, features, counts) in EXPECTED {
        let parts = part.map(|p| vec![p.to_string()]);
        let d = load_named(&reg, name, root, parts.as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((d.len(), d.dim()), (rows, features), "{name} {part:?}");
        assert_eq!(d.class_counts(), counts, "{name} {part:?}");
        if name == "ssl_text" {
            let Features::Sparse(x) = &d.x else { panic!("ssl_text should be sparse") };
            assert_eq!(x.nnz(), 78440);
        }
    }
    let covered: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    assert!(
        reg.datasets.keys().all(|k| covered.contains(&k.as_str())),
        "a registered dataset is not checked"
    );
}

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn official_splits_and_svmlin_files_match_the_manifest() {
    let mirror = common::mirror();
    let data = common::fetched(
        &mirror,
        &["ssl_digit1", "ssl_text", "ssl_secstr", "svmlin_pcmac"],
        "datasets-splits",
    );
    let root = &data.0;
    let reg = Registry::builtin().unwrap();
    for (name, n, labeled, count) in [
        ("ssl_digit1", 1500, 10, 12),
        ("ssl_text", 1500, 100, 12),
        ("ssl_secstr", 83679, 10000, 10),
    ] {
        let splits = official_splits(&reg, name, root, labeled, n).unwrap();
        assert_eq!(splits.len(), count, "{name}");
        assert!(splits.iter().all(|s| s.len() == labeled), "{name}");
    }
    assert!(
        official_splits(&reg, "ssl_digit1", root, 7, 1500)
            .unwrap_err()
            .to_string()
            .contains("have: 10, 100")
    );
    let train = svmlin::read(
        &root.join("svmlin_pcmac/training_examples"),
        &root.join("svmlin_pcmac/training_labels"),
        Some(7511),
    )
    .unwrap();
    assert_eq!((train.x.nrows(), train.x.ncols()), (1460, 7511));
    let count = |v: f64| train.labels.iter().filter(|l| **l == v).count();
    assert_eq!((count(1.0), count(-1.0), count(0.0)), (21, 29, 1410));
    let (lab, unl) = train.labeled_unlabeled();
    assert_eq!((lab.len(), unl.len()), (50, 1410));
    // The training part loads with the unlabeled rows' truth unknown (NaN), in file order.
    let named = load_named(&reg, "svmlin_pcmac", root, Some(&["train".to_string()])).unwrap();
    assert_eq!(named.unknown_truth(), unl);
    // Its config runs: the file's own split passes the checks of the sizes against the rows
    // (whose unlabelled rows have no class), made when the rows are read.
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/svmlin_pcmac.toml");
    let out = root.join("out");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", config, "--out", out.to_str().unwrap(), "--quiet"])
        .env("SSLAB_DATA_DIR", root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn fashion_mnist_loads_70000_images_of_784_pixels_in_0_1() {
    let mirror = common::mirror();
    let data = common::fetched(&mirror, &["fashion_mnist"], "datasets-fashion");
    let reg = Registry::builtin().unwrap();
    let d = load_named(&reg, "fashion_mnist", &data.0, None).unwrap();
    assert_eq!((d.len(), d.dim()), (70000, 784));
    assert_eq!(d.class_counts(), [7000; 10]);
    let Features::Dense(x) = &d.x else { panic!("fashion_mnist should be dense") };
    let (min, max) =
        x.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    assert_eq!((min, max), (0.0, 1.0));
    // Train first, then test; values from Python's gzip + struct on the mirror's files: the
    // first image of each part is an ankle boot (label 9) whose pixels sum to 76247 and
    // 33456, pixels 300..306 as listed.
    assert_eq!(d.class_names[d.classes[0]], "Ankle boot");
    assert_eq!((d.classes[0], d.classes[1], d.classes[3]), (9, 0, 3));
    assert_eq!(d.classes[60000], 9);
    for (row, sum, pixels) in [
        (0, 76247.0, [210.0, 211.0, 213.0, 223.0, 220.0, 243.0]),
        (60000, 33456.0, [157.0, 166.0, 135.0, 154.0, 168.0, 140.0]),
    ] {
        let image = x.row(row).mapv(|v| v * 255.0);
        assert_eq!(image.sum().round(), sum, "row {row}");
        assert_eq!(image.slice(ndarray::s![300..306]).mapv(f64::round).to_vec(), pixels);
    }
}
