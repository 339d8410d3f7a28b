//! Reading a Rust file just enough for the import check: tokens without comments and
//! literals, its `mod name;` declarations, its `use` trees and `crate::`/`super::` paths.

/// A lexical token of the part of Rust this check needs.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
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
pub fn lex(src: &str) -> Vec<Tok> {
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
pub enum Kind {
    /// A plain `use`: an edge, and a name children may import through `super::`.
    Use,
    /// A `pub use` (any visibility): a name only, followed to its definition.
    Reexport,
    /// A `crate::…` or `super::…` path in code: an edge.
    Inline,
}

/// One path found in a file: its segments relative to `module` (the file's module path plus
/// the inline modules it sits in).
pub struct Import {
    pub module: Vec<String>,
    pub path: Vec<String>,
    pub kind: Kind,
}

/// The `mod name;` declarations and the imports of one file whose module path is `module`.
pub fn scan(toks: &[Tok], module: &[String]) -> (Vec<String>, Vec<Import>) {
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
