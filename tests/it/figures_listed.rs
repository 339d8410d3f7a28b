//! Every committed figure (`figures/*.png`) is listed in docs/figures.md's table of what
//! `make redraw-figures` draws (names may use `{a,b}` alternatives), and every name listed
//! there exists.

use std::path::Path;

/// The names `pattern` stands for: each `{a,b,…}` group expanded.
fn expand(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else { return vec![pattern.to_string()] };
    let close = open + pattern[open..].find('}').expect("a closing brace");
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close]
        .split(',')
        .flat_map(|alt| expand(&format!("{head}{alt}{tail}")))
        .collect()
}

#[test]
fn every_committed_figure_is_listed_with_its_command() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("docs/figures.md")).unwrap();
    let section = doc.split("## Redrawing every committed figure").nth(1).unwrap();
    let table = section.split("\n## ").next().unwrap();
    let mut listed = Vec::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let first = row.split('|').nth(1).unwrap();
        for name in first.split('`').skip(1).step_by(2) {
            listed.extend(expand(name));
        }
    }
    let mut committed: Vec<String> = std::fs::read_dir(repo.join("figures"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    committed.sort();
    for name in &committed {
        assert!(listed.contains(name), "figures/{name} is not in docs/figures.md's redraw table");
    }
    for name in &listed {
        assert!(committed.contains(name), "docs/figures.md lists {name}, not in figures/");
    }
    assert_eq!(expand("a_{b,c}_{d,e}.png").len(), 4);
}
