#!/usr/bin/env bash
# The HTML report in a real browser: writes the site of every run folder under results/ with
# `sslab report`, opens the index and every page in headless Chromium (Debian's `chromium`;
# .ci/run installs it), keeps the DOM Chromium built and a screenshot of each page
# (out/report-screenshots/, not tracked; REPORT_SHOTS=dir for another), then checks with
# check_site.py that every link and image resolves, that every run folder under results/ has
# its page linked from the index, and that no page holds a script.
# Where it cannot run it prints "SKIPPED ... not passed" and why, and exits 0.
# Usage: tests/report/run.sh [path/to/sslab]   (default: $CARGO_TARGET_DIR/release/sslab)
set -euo pipefail
cd "$(dirname "$0")/../.."

skip() { echo "SKIPPED (not counted as passed): report browser test: $*"; exit 0; }

SSLAB=$(realpath "${1:-${CARGO_TARGET_DIR:-$HOME/.cache/sslab-target}/release/sslab}")
[ -x "$SSLAB" ] || { echo "no sslab binary at $SSLAB (build it first)"; exit 1; }
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "no chromium (as root with apt: apt-get install -y chromium)"
command -v python3 >/dev/null || skip "no python3 for the link checker"

T=$(mktemp -d /tmp/sslab-report.XXXXXX)
trap 'rm -rf "$T"' EXIT
SHOTS=${REPORT_SHOTS:-out/report-screenshots}
mkdir -p "$SHOTS" "$T/dom"
"$SSLAB" report --out "$T/site" --results results --root . > "$T/report.log"

# One Chromium per page: the DOM after loading, and a screenshot of the first 2000 pixels.
# Root needs --no-sandbox; the profile lives in $T so nothing is written under $HOME.
# A browser that dies at start gets one more try (seen once: a segfault while the machine
# was deleting gigabytes); a page that fails twice fails the test.
open_page() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/profile" --window-size=1300,2000 \
        --screenshot="$SHOTS/$2.png" --dump-dom "file://$1" > "$T/dom/$2.html" 2> "$T/chromium.log"
}
for page in "$T"/site/*.html; do
    name=$(basename "$page" .html)
    open_page "$page" "$name" || { echo "chromium failed on $page ($?): one more try"; open_page "$page" "$name"; } \
        || { tail -n 20 "$T/chromium.log"; echo "FAILED: chromium could not open $page"; exit 1; }
    [ -s "$T/dom/$name.html" ] || { echo "FAILED: empty DOM for $page"; exit 1; }
    [ -s "$SHOTS/$name.png" ] || { echo "FAILED: no screenshot of $page"; exit 1; }
done
python3 tests/report/check_site.py "$T/site" "$T/dom" results
echo "report browser test passed: $(ls "$T"/site/*.html | wc -l) pages opened in $("$CHROMIUM" --version 2>/dev/null | head -n 1); screenshots in $SHOTS"
