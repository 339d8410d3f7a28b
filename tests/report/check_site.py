#!/usr/bin/env python3
"""Checks a report site from the DOMs Chromium built (tests/report/run.sh).

Usage: check_site.py SITE_DIR DOM_DIR RESULTS_DIR

- every page of SITE_DIR was opened (a DOM per page), and holds no <script>;
- every href and src resolves: a relative file of the site (exists; an image a non-empty
  PNG or SVG), with its #fragment an id in the target page; web addresses are counted
  and left alone (the site must open offline, so none may be an image or a style);
- every run folder under RESULTS_DIR (a folder holding results.csv or summary.md, searched
  below the others) has its page linked from the index.
Exits 1 listing every failure.
"""
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urldefrag


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.scripts = [], set(), 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "script":
            self.scripts += 1
        for key in ("href", "src"):
            if a.get(key) is not None:
                self.links.append((tag, key, a[key]))


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def run_dirs(results):
    out = []
    for name in sorted(os.listdir(results)):
        d = os.path.join(results, name)
        if not os.path.isdir(d):
            continue
        if os.path.isfile(os.path.join(d, "results.csv")) or os.path.isfile(os.path.join(d, "summary.md")):
            out.append(d)
        else:
            out.extend(run_dirs(d))
    return out


def main(site, doms, results):
    failures = []
    pages = sorted(f for f in os.listdir(site) if f.endswith(".html"))
    parsed = {}
    for f in pages:
        dom = os.path.join(doms, f)
        if not os.path.isfile(dom):
            failures.append(f"{f}: not opened in the browser")
            continue
        parsed[f] = parse(dom)
    checked = external = 0
    for f, p in parsed.items():
        if p.scripts:
            failures.append(f"{f}: {p.scripts} <script> element(s)")
        for tag, key, url in p.links:
            checked += 1
            if url.startswith(("http://", "https://")):
                if tag != "a":
                    failures.append(f"{f}: <{tag} {key}> fetches {url} (the site must open offline)")
                external += 1
                continue
            path, frag = urldefrag(url)
            target = f if path == "" else unquote(path)
            if ":" in target or target.startswith("/") or ".." in target.split("/"):
                failures.append(f"{f}: <{tag} {key}={url!r}> is not a relative link inside the site")
                continue
            full = os.path.join(site, target)
            if not os.path.isfile(full):
                failures.append(f"{f}: <{tag} {key}={url!r}> does not resolve")
                continue
            if tag == "img":
                with open(full, "rb") as fh:
                    head = fh.read(512)
                if not (head.startswith(b"\x89PNG\r\n\x1a\n") or b"<svg" in head):
                    failures.append(f"{f}: image {url} is not a PNG or SVG")
            if frag:
                ids = parsed[target].ids if target in parsed else set()
                if frag not in ids:
                    failures.append(f"{f}: <{tag} {key}={url!r}>: no id {frag!r} in {target}")
    index = parsed.get("index.html")
    if index is None:
        failures.append("no index.html")
    else:
        linked = {url for _, key, url in index.links if key == "href"}
        for d in run_dirs(results):
            name = os.path.basename(d)
            if not any(u.startswith("run-") and u.endswith(f"{name}.html") for u in linked):
                failures.append(f"index.html: no link to the page of run folder {d}")
    for line in failures:
        print("FAILED:", line)
    print(f"checked {len(parsed)} pages, {checked} links and images ({external} web addresses not followed), "
          f"{len(run_dirs(results))} run folders; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
