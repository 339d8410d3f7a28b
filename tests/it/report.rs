//! `sslab report` without a browser (tests/report/run.sh opens the pages in Chromium): text
//! from the files is escaped, every relative link and image of the site resolves, and every
//! run folder under the repository's results/ has its page on the index.

use std::path::Path;
use std::process::Command;

use crate::common::TempDir;

const EVIL: &str = "<script>alert(1)</script>";

/// Runs `sslab report --results ROOT/results --root ROOT --out OUT` in `cwd`.
fn report(cwd: &Path, root: &Path, out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .current_dir(cwd)
        .args(["report", "--results"])
        .arg(root.join("results"))
        .arg("--root")
        .arg(root)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The quoted values of `attr="…"` in `html`, `&amp;` read back.
fn values(html: &str, attr: &str) -> Vec<String> {
    let key = format!(" {attr}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            rest[..rest.find('"').unwrap()].replace("&amp;", "&")
        })
        .collect()
}

/// Every page of `site`: (file name, text).
fn pages(site: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(site)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Every href and src of every page names a file of the site (and an id in it after `#`).
fn assert_links_resolve(site: &Path) {
    let all = pages(site);
    let mut checked = 0;
    for (name, html) in &all {
        for url in values(html, "href").into_iter().chain(values(html, "src")) {
            if url.starts_with("https://") || url.starts_with("http://") {
                continue;
            }
            let (file, frag) = url.split_once('#').unwrap_or((&url, ""));
            let file = if file.is_empty() { name.as_str() } else { file };
            assert!(
                !file.contains("..") && !file.starts_with('/'),
                "{name}: {url} leaves the site"
            );
            assert!(site.join(file).is_file(), "{name}: {url} does not resolve");
            if !frag.is_empty() {
                let target = &all.iter().find(|(n, _)| n == file).unwrap().1;
                assert!(
                    target.contains(&format!("id=\"{frag}\"")),
                    "{name}: no id {frag} in {file}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn text_from_the_files_is_escaped_everywhere() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = TempDir::new("report-escape");
    let root = &t.0;
    let run = root.join("results/evil");
    for dir in [
        &run,
        &root.join("configs/published"),
        &root.join("figures"),
        &root.join("docs/reproduction"),
    ] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let csv = std::fs::read_to_string(repo.join("results/quickstart/results.csv")).unwrap();
    std::fs::write(run.join("results.csv"), csv.replace(",GB-SSL,", &format!(",{EVIL},"))).unwrap();
    std::fs::write(run.join("summary.md"), format!("# evil\n\n{EVIL} commit abc\n")).unwrap();
    std::fs::write(
        root.join("configs/published/evil_table.csv"),
        format!("# {EVIL} paper\ndataset,method,mean,std,worse,note\ngauss-d100,{EVIL},7,1,false,{EVIL}\n"),
    )
    .unwrap();
    std::fs::write(
        root.join("docs/reproduction/evil.md"),
        format!("# Notes\n\n{EVIL}\n\nSee [x](evil.md) and {EVIL}.\n"),
    )
    .unwrap();
    std::fs::copy(repo.join("figures/quickstart_scores.png"), root.join("figures/evil_scores.png"))
        .unwrap();
    // A figure the user wrote into the run folder.
    std::fs::copy(repo.join("figures/quickstart_scores.png"), run.join("my curve.png")).unwrap();
    let site = root.join("site");
    report(root, root, &site);
    let all = pages(&site);
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["figures.html", "index.html", "notes-evil.html", "run-evil.html", "scorecard.html"]
    );
    for (name, html) in &all {
        assert!(!html.to_lowercase().contains("<script"), "{name} holds a script:\n{html}");
    }
    let page = |n: &str| &all.iter().find(|(p, _)| p == n).unwrap().1;
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    for n in ["run-evil.html", "scorecard.html", "notes-evil.html"] {
        assert!(page(n).contains(escaped), "{n}");
    }
    // The published cell is found and compared: 7.05 ± 0.84 against 7 ± 1.
    assert!(page("scorecard.html").contains("1 of 1 compared cells within 2 std"));
    assert!(page("run-evil.html").contains("<img src=\"img/evil_scores.png\""));
    assert!(page("run-evil.html").contains("<img src=\"img/evil-my_curve.png\""));
    assert!(page("notes-evil.html").contains("<a href=\"notes-evil.html\">x</a>"));
    assert_links_resolve(&site);
}

#[test]
fn the_repository_results_make_a_site_whose_links_resolve() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = TempDir::new("report-site");
    report(repo, repo, &t.0);
    let index = std::fs::read_to_string(t.0.join("index.html")).unwrap();
    let mut dirs = vec![repo.join("results")];
    let mut runs = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if !path.is_dir() {
                continue;
            }
            if path.join("results.csv").is_file() || path.join("summary.md").is_file() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                assert!(
                    index.contains(&format!("href=\"run-{name}.html\"")),
                    "no page for {}",
                    path.display()
                );
                runs += 1;
            } else {
                dirs.push(path);
            }
        }
    }
    assert!(runs >= 20, "only {runs} run folders");
    assert!(index.contains("href=\"scorecard.html#qlds_table2\""));
    assert_links_resolve(&t.0);
    // A user has no `../shared` (the project's own spec and mirror).
    for (name, html) in pages(&t.0) {
        assert!(!html.contains("../shared"), "{name} cites ../shared");
    }
}

#[test]
fn symbolic_links_are_neither_followed_nor_written_through() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = TempDir::new("report-links");
    let root = &t.0;
    let run = root.join("results/run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::create_dir_all(root.join("figures")).unwrap();
    std::fs::copy(repo.join("results/quickstart/results.csv"), run.join("results.csv")).unwrap();
    // A loop (results/a → results) and a figure behind a link to a file outside.
    std::os::unix::fs::symlink(".", root.join("results/a")).unwrap();
    let secret = root.join("secret.png");
    std::fs::write(&secret, "not for the site").unwrap();
    std::os::unix::fs::symlink(&secret, root.join("figures/run_leak.png")).unwrap();
    std::fs::copy(repo.join("figures/quickstart_scores.png"), root.join("figures/run_scores.png"))
        .unwrap();
    // A planted link where the site writes a figure.
    let site = root.join("site");
    std::fs::create_dir_all(site.join("img")).unwrap();
    let victim = root.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, site.join("img/run_scores.png")).unwrap();
    report(root, root, &site);
    assert!(!site.join("img/run_leak.png").exists(), "a file behind a link was published");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep", "written through a link");
    let img = site.join("img/run_scores.png");
    assert!(!std::fs::symlink_metadata(&img).unwrap().file_type().is_symlink());
    let names: Vec<String> = pages(&site).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"run-run.html".to_string()), "{names:?}");
}
