//! No import circle between the files of `src/`: each crate (the library from `src/lib.rs`,
//! the command line from `src/main.rs`) is read as a tree of file modules; every plain `use`
//! and every `crate::…`/`super::…` path in code is an edge from its file to the file that
//! defines the named item (re-exports, `pub use`, are followed to the defining file and are
//! not edges themselves). A strongly connected set of two or more files fails the test, and
//! so does one of two or more top folders of `src/` (an import arrow running back up).

use crate::common;
mod scan;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use scan::{Import, Kind, lex, scan};

/// The file modules of one crate (module path → file) and the imports of each file.
type Crate = (BTreeMap<Vec<String>, PathBuf>, Vec<(PathBuf, Vec<Import>)>);

/// Reads the crate rooted at `root` (a `lib.rs` or `main.rs`).
fn read_crate(root: &Path) -> Crate {
    let (mut files, mut imports) = (BTreeMap::new(), Vec::new());
    let mut todo = vec![(Vec::new(), root.to_path_buf())];
    while let Some((module, file)) = todo.pop() {
        let text = std::fs::read_to_string(&file).unwrap();
        let (mods, found) = scan(&lex(&text), &module);
        let name = file.file_stem().unwrap().to_str().unwrap();
        let dir = match name {
            "mod" | "lib" | "main" => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        for m in mods {
            let (flat, nested) = (dir.join(format!("{m}.rs")), dir.join(&m).join("mod.rs"));
            let child = if flat.exists() { flat } else { nested };
            let mut path = module.clone();
            path.push(m);
            todo.push((path, child));
        }
        files.insert(module, file.clone());
        imports.push((file, found));
    }
    (files, imports)
}

/// The file edges of one crate: each file to the files defining what it imports.
fn edges(krate: &Crate) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let (files, imports) = krate;
    // Absolute path of an import, or None for another crate's.
    let absolute = |imp: &Import| -> Option<Vec<String>> {
        let mut m = imp.module.clone();
        let mut rest = imp.path.as_slice();
        match rest.first().map(String::as_str) {
            Some("crate") => {
                m.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    m.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let mut child = m.clone();
                child.push(first.to_string());
                files.get(&child)?;
            }
            None => return None,
        }
        m.extend(rest.iter().cloned());
        Some(m)
    };
    let reexports: HashMap<(Vec<String>, String), Vec<String>> = imports
        .iter()
        .flat_map(|(_, found)| found.iter())
        .filter(|imp| imp.kind != Kind::Inline && imp.path.last().is_some_and(|s| s != "*"))
        .filter_map(|imp| {
            let target = absolute(imp)?;
            Some(((imp.module.clone(), target.last()?.clone()), target))
        })
        .collect();
    // The file defining `path`: the deepest file module on it, through its re-exports.
    let define = |mut path: Vec<String>| -> Option<PathBuf> {
        for _ in 0..32 {
            let k = (0..=path.len()).rev().find(|&k| files.contains_key(&path[..k]))?;
            match path.get(k).and_then(|name| reexports.get(&(path[..k].to_vec(), name.clone()))) {
                Some(target) if *target != path => path = target.clone(),
                _ => return files.get(&path[..k]).cloned(),
            }
        }
        None
    };
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, found) in imports {
        let to = found
            .iter()
            .filter(|imp| imp.kind != Kind::Reexport)
            .filter_map(|imp| define(absolute(imp)?));
        graph.entry(file.clone()).or_default().extend(to.filter(|t| t != file));
    }
    graph
}

/// The strongly connected sets of two or more files (Tarjan).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: HashMap<&'a PathBuf, (usize, usize)>,
        stack: Vec<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) -> usize {
        let n = s.index.len();
        s.index.insert(v, (n, n));
        s.stack.push(v);
        let mut low = n;
        for w in s.graph.get(v).into_iter().flatten() {
            let w = s.graph.get_key_value(w).map_or(w, |(k, _)| k);
            low = low.min(match s.index.get(w) {
                None => visit(s, w),
                Some(&(i, _)) if s.stack.contains(&w) => i,
                Some(_) => usize::MAX,
            });
        }
        s.index.insert(v, (n, low));
        if low == n {
            let at = s.stack.iter().position(|x| *x == v).unwrap();
            let set: Vec<PathBuf> = s.stack.drain(at..).cloned().collect();
            if set.len() > 1 {
                s.out.push(set);
            }
        }
        low
    }
    let mut s = State { graph, index: HashMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_import_circle_between_the_files_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut read = BTreeSet::new();
    for root in ["lib.rs", "main.rs"] {
        let krate = read_crate(&src.join(root));
        read.extend(krate.0.values().cloned());
        let found = circles(&edges(&krate));
        assert!(found.is_empty(), "import circles from {root}: {found:#?}");
    }
    let all: BTreeSet<PathBuf> = common::rust_sources(&src).into_iter().collect();
    assert_eq!(read, all, "every file of src/ is read as a module");
}

/// The file graph with each file of a top folder of `src/` merged into that folder (files
/// directly in `src/` stay themselves); unit-test files (`tests.rs`, `*_tests.rs`, `tests/`)
/// are left out, as they may use any layer.
fn folders(
    graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    src: &Path,
) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let top = |file: &Path| -> PathBuf {
        let rest = file.strip_prefix(src).unwrap_or(file);
        src.join(rest.components().next().map_or(rest, |c| Path::new(c.as_os_str())))
    };
    let test = |file: &Path| {
        file.components().any(|c| c.as_os_str() == "tests")
            || file.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.ends_with("tests"))
    };
    let mut merged: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, to) in graph.iter().filter(|(file, _)| !test(file.strip_prefix(src).unwrap_or(file)))
    {
        let from = top(file);
        let to = to.iter().map(|t| top(t)).filter(|t| *t != from).collect::<Vec<_>>();
        merged.entry(from).or_default().extend(to);
    }
    merged
}

#[test]
fn no_import_circle_between_the_folders_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&folders(&edges(&read_crate(&src.join("lib.rs"))), &src));
    assert!(found.is_empty(), "folders of src/ importing each other: {found:#?}");
}

#[test]
fn a_circle_through_a_reexport_is_found() {
    let dir = std::env::temp_dir().join(format!("sslab-import-cycles-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "mod a;\nmod b;\n");
    write("a/mod.rs", "mod inner;\npub use inner::Thing;\n");
    write("a/inner.rs", "use crate::b::other;\n/// \"crate::x {\" '{'\npub struct Thing;\n");
    write("b.rs", "pub fn other() {}\nfn f() -> crate::a::Thing {\n    crate::a::Thing\n}\n");
    let found = circles(&edges(&read_crate(&dir.join("lib.rs"))));
    assert_eq!(found.len(), 1, "{found:?}");
    let names: BTreeSet<_> = found[0].iter().map(|p| p.strip_prefix(&dir).unwrap()).collect();
    assert_eq!(names, [Path::new("a/inner.rs"), Path::new("b.rs")].into());
    let folder = circles(&folders(&edges(&read_crate(&dir.join("lib.rs"))), &dir));
    let names: BTreeSet<_> = folder[0].iter().map(|p| p.strip_prefix(&dir).unwrap()).collect();
    assert_eq!(names, [Path::new("a"), Path::new("b.rs")].into());
    write("b.rs", "pub fn other() {}\n");
    assert!(circles(&edges(&read_crate(&dir.join("lib.rs")))).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
