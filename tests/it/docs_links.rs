//! The documentation holds together: every relative link in README.md, CONTRIBUTING.md and
//! docs/**/*.md names an existing file (and, with `#anchor`, an existing heading of it, by
//! the code host's heading ids), every `tests/…` path they name in code exists, and README.md
//! stays within 250 lines.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The README's size limit, in lines.
const README_LINES: usize = 250;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md and every markdown file under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages
}

/// The text outside fenced code blocks, paragraph by paragraph, with inline code spans
/// (which may run over lines within a paragraph) blanked out.
fn prose(text: &str) -> Vec<String> {
    let mut paragraphs = vec![String::new()];
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if line.trim().is_empty() {
            paragraphs.push(String::new());
        } else if !fenced {
            let last = paragraphs.last_mut().unwrap();
            last.push_str(line);
            last.push('\n');
        }
    }
    paragraphs
        .iter()
        .map(|p| p.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, s)| s).collect())
        .collect()
}

/// The targets of the inline links and images `[text](target)` of a page.
fn links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for paragraph in prose(text) {
        let mut rest = paragraph.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.trim_matches(['<', '>']).to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// The id a code host gives a heading: lower case, spaces to hyphens, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            _ => None,
        })
        .collect()
}

/// The heading ids of a page (ATX headings outside code blocks; repeats get `-1`, `-2`, ...).
fn anchors(text: &str) -> HashSet<String> {
    let mut ids = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim_end_matches('#'));
        let mut id = base.clone();
        let mut n = 0;
        while !ids.insert(id.clone()) {
            n += 1;
            id = format!("{base}-{n}");
        }
    }
    ids
}

/// The broken relative links of `page` (text `text`), as messages.
fn broken(page: &Path, text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for target in links(text) {
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let path = page.parent().unwrap().join(file);
        let linked = if file.is_empty() {
            text.to_string()
        } else if !path.exists() {
            bad.push(format!("{}: `{target}`: no file {}", page.display(), path.display()));
            continue;
        } else if path.extension().is_some_and(|e| e == "md") {
            std::fs::read_to_string(&path).unwrap()
        } else {
            String::new()
        };
        if !anchor.is_empty() && !anchors(&linked).contains(anchor) {
            bad.push(format!("{}: `{target}`: no heading `#{anchor}`", page.display()));
        }
    }
    bad
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let pages = pages();
    assert!(pages.len() > 5, "{pages:?}");
    let mut bad = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        checked += links(&text).len();
        bad.extend(broken(page, &text));
    }
    assert!(checked > 50, "only {checked} links found");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

/// The `tests/…` paths a page names in code spans and blocks (`tests/it/cli.rs`).
fn test_paths(text: &str) -> Vec<&str> {
    let code = text.split('`').skip(1).step_by(2);
    let words = code.flat_map(|span| span.split_whitespace());
    words.filter(|w| w.starts_with("tests/")).map(|w| w.trim_end_matches([',', ')', ':'])).collect()
}

#[test]
fn every_test_file_the_documentation_names_exists() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for path in test_paths(&text) {
            checked += 1;
            if !root().join(path).exists() {
                bad.push(format!("{}: `{path}`", page.display()));
            }
        }
    }
    assert!(checked > 20, "only {checked} test paths found");
    assert!(bad.is_empty(), "no such test file:\n{}", bad.join("\n"));
    assert_eq!(
        test_paths("see `tests/it/cli.rs`, `src/m/tests/x` and\n```\ntests/run.sh\n```"),
        ["tests/it/cli.rs", "tests/run.sh"]
    );
}

#[test]
fn the_readme_stays_short() {
    let lines = std::fs::read_to_string(root().join("README.md")).unwrap().lines().count();
    assert!(lines <= README_LINES, "README.md has {lines} lines (at most {README_LINES})");
}

#[test]
fn the_checker_finds_broken_links_and_anchors() {
    let page = root().join("docs/page.md");
    let text = "# A page\n\n## Result columns (`results.csv`)\n\n[ok](#result-columns-resultscsv) \
                [ok](../README.md) [ok](configuration.md#tuning) `[code](nowhere.md)`\n\
                [bad](nowhere.md) [bad](#no-such-heading) [bad](configuration.md#nope)\n\n\
                ```\n[fenced](nowhere.md)\n```\n[web](https://example.org/x.md)\n";
    let bad = broken(&page, text);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].contains("`nowhere.md`") && bad[1].contains("#no-such-heading"), "{bad:?}");
    assert_eq!(slug("Table 2: {0, 1, 4, 9}"), "table-2-0-1-4-9");
    assert_eq!(slug("QLDS with a selected (α_l, α_u)"), "qlds-with-a-selected-α_l-α_u");
    let ids = anchors("# Notes\n## Notes\n```\n# not a heading\n```\n");
    assert_eq!(ids, HashSet::from(["notes".to_string(), "notes-1".to_string()]));
}
