//! Shared by the tests: the data mirror (the tests reading it are ignored, and counted as
//! such, where it is absent) and temporary data directories filled from it, removed when
//! dropped; a fetch in a child process with its own environment; a Python interpreter; and
//! the Rust sources of a folder, for the layout tests; a split of rows given directly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use sslab::data::registry::Registry;
use sslab::data::{DataSource, Features, Problem, fetch};
use sslab::engine::{Split, Store};

/// The data mirror (`$SSLAB_DATA_MIRROR`, else ../shared/data); a test that asks for it
/// without one fails instead of passing silently.
pub fn mirror() -> PathBuf {
    let dir = std::env::var_os("SSLAB_DATA_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    assert!(
        dir.is_dir(),
        "needs the data mirror, none at {} (set SSLAB_DATA_MIRROR)",
        dir.display()
    );
    dir
}

/// A temporary directory, removed (with its contents) when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh, empty `sslab-TAG-PID-N` directory under the system temporary folder (`N`
    /// counts the directories of this process, so two tests never share one).
    pub fn new(tag: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("sslab-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A temporary data directory holding the registered files of `names` (all when empty),
/// fetched from `mirror` only.
pub fn fetched(mirror: &Path, names: &[&str], tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let reg = Registry::builtin().unwrap();
    fetch::fetch(&reg, &names, &dir.0, &[mirror.to_path_buf()]).unwrap();
    dir
}

/// The variable naming the fetch of a child of [`fetch_in_child`]: `URL`, `SHA256`, `DEST`
/// and `OUT` separated by tabs.
const CHILD_FETCH: &str = "SSLAB_IT_CHILD_FETCH";

/// Fetches the registered `mushrooms/mushrooms.txt` from `url` (a file of checksum `sha256`)
/// into `dest` in a child process: this test binary rerun for the one test `test`, with `env`
/// set (`None`: removed), so that no test changes the environment the others read. The
/// fetch's outcome (`Debug`) or its error message.
pub fn fetch_in_child(
    test: &str,
    url: &str,
    sha256: &str,
    dest: &Path,
    env: &[(&str, Option<String>)],
) -> Result<String, String> {
    let out = dest.with_extension("child-outcome");
    let _ = std::fs::remove_file(&out);
    let mut child = Command::new(std::env::current_exe().unwrap());
    child.args([test, "--exact", "--include-ignored", "--nocapture", "--test-threads", "1"]);
    child.env(CHILD_FETCH, format!("{url}\t{sha256}\t{}\t{}", dest.display(), out.display()));
    for (name, value) in env {
        match value {
            Some(v) => child.env(name, v),
            None => child.env_remove(name),
        };
    }
    let o = child.output().unwrap();
    let log =
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success() && log.contains("1 passed"), "child test {test} failed:\n{log}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    match text.split_once('\n') {
        Some(("ok", outcome)) => Ok(outcome.to_string()),
        Some(("error", message)) => Err(message.to_string()),
        _ => panic!("child test {test} wrote {text:?}"),
    }
}

/// In a child of [`fetch_in_child`]: runs the fetch it names, writes its result for the
/// parent and returns true; false in any other process.
pub fn child_fetch() -> bool {
    let Ok(job) = std::env::var(CHILD_FETCH) else { return false };
    let [url, sha256, dest, out]: [&str; 4] =
        job.split('\t').collect::<Vec<_>>().try_into().unwrap();
    let mut reg = Registry::builtin().unwrap();
    let entry = reg.files.get_mut("mushrooms/mushrooms.txt").unwrap();
    entry.sha256 = sha256.to_string();
    entry.mirror_sha256 = None;
    entry.url = Some(url.to_string());
    let text = match fetch::fetch(&reg, &["mushrooms".to_string()], Path::new(dest), &[]) {
        Ok(done) => format!("ok\n{:?}", done[0].1),
        Err(e) => format!("error\n{e}"),
    };
    std::fs::write(out, text).unwrap();
    true
}

/// A Python interpreter that imports numpy (and scikit-learn when `sklearn`), if any.
pub fn python(sklearn: bool) -> Option<String> {
    let venv = std::env::var("HOME").map(|h| format!("{h}/.cache/sslab-py-venv/bin/python"));
    let candidates = [std::env::var("SSLAB_PYTHON").ok(), venv.ok(), Some("python3".into())];
    let import = if sklearn { "import numpy, sklearn" } else { "import numpy" };
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args(["-c", import])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The `.rs` files under `dir`, recursively.
pub fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

/// A split of `problem` (rows given directly, drawn from `source`) with the dataset's and
/// the split's `stores`, the held-out `test` rows, the split's `seed` and `index`.
pub fn split<'a>(
    problem: &'a Problem,
    source: &'a DataSource,
    stores: (&'a Store, &'a Store),
    test: Option<&'a Features>,
    seed: u64,
    index: usize,
) -> Split<'a> {
    Split {
        problem,
        source: Some(source),
        rows: None,
        dataset_store: stores.0,
        split_store: stores.1,
        test,
        seed,
        index,
    }
}
