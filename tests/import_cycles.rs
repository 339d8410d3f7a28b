//! No import circle between the files of `src/`: each crate (the library from `src/lib.rs`,
//! the command line from `src/main.rs`) is read as a tree of file modules; every plain `use`
//! and every `crate::…`/`super::…` path in code is an edge from its file to the file that
//! defines the named item (re-exports, `pub use`, are followed to the defining file and are
//! not edges themselves). A strongly connected set of two or more files fails the test.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A lexical token of the part of Rust this check needs.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Path, // `::`
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other,
}

/// Tokens of `src`, without comments, string, char and lifetime literals.
fn lex(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut out) = (0, Vec::new());
    // `i` just after an opening quote: the index after the closing one (`hashes` `#`s
    // after it, no escapes in a raw string).
    let quoted = |mut i: usize, raw: bool, hashes: usize| {
        while i < c.len() {
            if !raw && c[i] == '\\' {
                i += 2;
                continue;
            }
            if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
                return i + 1 + hashes;
            }
            i += 1;
        }
        i
    };
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = quoted(i + 1, false, 0);
        } else if let Some((start, raw, hashes)) = prefixed_string(&c, i) {
            i = quoted(start, raw, hashes);
        } else if ch == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while is_ident(c.get(i)) {
                    i += 1;
                }
            }
        } else if is_ident(Some(&ch)) {
            let start = i;
            while is_ident(c.get(i)) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else {
            out.push(match ch {
                ':' if c.get(i + 1) == Some(&':') => {
                    i += 1;
                    Tok::Path
                }
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                ';' => Tok::Semi,
                '*' => Tok::Star,
                _ => Tok::Other,
            });
            i += 1;
        }
    }
    out
}

/// A byte (`b"`) or raw (`r"`, `r#"`, `br#"`) string starting at `i`: the index after its
/// opening quote, whether it is raw, and its number of `#`s.
fn prefixed_string(c: &[char], i: usize) -> Option<(usize, bool, usize)> {
    if i > 0 && is_ident(c.get(i - 1)) {
        return None;
    }
    let raw_from = match (c[i], c.get(i + 1)) {
        ('b', Some('"')) => return Some((i + 2, false, 0)),
        ('b', Some('r')) => i + 2,
        ('r', _) => i + 1,
        _ => return None,
    };
    let hashes = c[raw_from..].iter().take_while(|&&x| x == '#').count();
    (c.get(raw_from + hashes) == Some(&'"')).then_some((raw_from + hashes + 1, true, hashes))
}

fn is_ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// How a path was found in a file.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A plain `use`: an edge, and a name children may import through `super::`.
    Use,
    /// A `pub use` (any visibility): a name only, followed to its definition.
    Reexport,
    /// A `crate::…` or `super::…` path in code: an edge.
    Inline,
}

/// One path found in a file: its segments relative to `module` (the file's module path plus
/// the inline modules it sits in).
struct Import {
    module: Vec<String>,
    path: Vec<String>,
    kind: Kind,
}

/// The `mod name;` declarations and the imports of one file whose module path is `module`.
fn scan(toks: &[Tok], module: &[String]) -> (Vec<String>, Vec<Import>) {
    let (mut mods, mut imports) = (Vec::new(), Vec::new());
    let mut scope: Vec<(String, usize)> = Vec::new(); // inline modules and their brace depth
    let (mut depth, mut i) = (0, 0);
    let here = |scope: &[(String, usize)]| {
        let mut m = module.to_vec();
        m.extend(scope.iter().map(|(n, _)| n.clone()));
        m
    };
    while i < toks.len() {
        match (&toks[i], toks.get(i + 1), toks.get(i + 2)) {
            (Tok::Ident(m), Some(Tok::Ident(name)), Some(t)) if m == "mod" => {
                if *t == Tok::Semi && scope.is_empty() {
                    mods.push(name.clone());
                } else if *t == Tok::Open {
                    depth += 1;
                    scope.push((name.clone(), depth));
                    i += 2;
                }
                i += 1;
            }
            (Tok::Ident(u), ..) if u == "use" => {
                let public = i > 0 && matches!(&toks[i - 1], Tok::Ident(p) if p == "pub")
                    || i > 3 && matches!(&toks[i - 4], Tok::Ident(p) if p == "pub");
                let end = i + toks[i..].iter().position(|t| *t == Tok::Semi).unwrap_or(0);
                let mut paths = Vec::new();
                use_tree(&toks[i + 1..end], &mut Vec::new(), &mut paths);
                let (m, kind) = (here(&scope), if public { Kind::Reexport } else { Kind::Use });
                imports.extend(paths.into_iter().map(|path| Import {
                    module: m.clone(),
                    path,
                    kind,
                }));
                i = end + 1;
            }
            (Tok::Ident(root), Some(Tok::Path), _) if root == "crate" || root == "super" => {
                let mut path = vec![root.clone()];
                i += 1;
                while let (Some(Tok::Path), Some(Tok::Ident(s))) = (toks.get(i), toks.get(i + 1)) {
                    path.push(s.clone());
                    i += 2;
                }
                imports.push(Import { module: here(&scope), path, kind: Kind::Inline });
            }
            (Tok::Open, ..) => {
                depth += 1;
                i += 1;
            }
            (Tok::Close, ..) => {
                if scope.last().is_some_and(|(_, d)| *d == depth) {
                    scope.pop();
                }
                depth -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    (mods, imports)
}

/// The paths of a use tree (`a::{b, c::d}` gives `a::b` and `a::c::d`; `*` is a segment).
fn use_tree(toks: &[Tok], prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut i = 0;
    let start = prefix.len();
    while i < toks.len() {
        match &toks[i] {
            Tok::Ident(s) if s == "as" => i += 1, // skip the alias
            Tok::Ident(s) => prefix.push(s.clone()),
            Tok::Star => prefix.push("*".into()),
            Tok::Open => {
                let mut level = 0;
                let close = i + toks[i..]
                    .iter()
                    .position(|t| {
                        level += match t {
                            Tok::Open => 1,
                            Tok::Close => -1,
                            _ => 0,
                        };
                        level == 0
                    })
                    .unwrap_or(toks.len() - i - 1);
                let inner = &toks[i + 1..close];
                let mut level = 0;
                let mut from = 0;
                for (j, t) in inner.iter().enumerate() {
                    level += match t {
                        Tok::Open => 1,
                        Tok::Close => -1,
                        _ => 0,
                    };
                    if (*t == Tok::Comma && level == 0) || j + 1 == inner.len() {
                        let to = if *t == Tok::Comma { j } else { j + 1 };
                        use_tree(&inner[from..to], prefix, out);
                        from = j + 1;
                    }
                }
                i = close;
            }
            Tok::Comma => {
                out.push(prefix.clone());
                prefix.truncate(start);
            }
            _ => {}
        }
        i += 1;
    }
    if prefix.len() > start {
        out.push(prefix.clone());
    }
    prefix.truncate(start);
}

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
    let mut all = BTreeSet::new();
    let mut dirs = vec![src];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                all.insert(path);
            }
        }
    }
    assert_eq!(read, all, "every file of src/ is read as a module");
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
    write("b.rs", "pub fn other() {}\n");
    assert!(circles(&edges(&read_crate(&dir.join("lib.rs")))).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
