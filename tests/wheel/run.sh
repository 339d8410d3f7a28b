#!/usr/bin/env bash
# The wheel of `make wheel` (out/wheel/) installs with pip where there is no Rust: a fresh
# venv in a temporary folder, PATH without any folder holding cargo or rustc, the wheel's
# dependencies from PyPI as binary wheels only, then the wheel itself; it then runs
# docs/python.md's "Ten lines" from a folder holding data/mushrooms and data/pcmac (the
# checkout's, else fetched from the data mirror by the CLI, $SSLAB_BIN) and checks that it
# prints the errors the page quotes and that `sslab.__version__` is the wheel's. Prints
# "SKIPPED: <why>" and exits 0 only when it cannot run (no wheel, no python3 venv, no
# package registry, no data); any other failure exits 1.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
wheel="$(ls "$repo"/out/wheel/sslab-*.whl 2>/dev/null | head -n 1 || true)"
[ -n "$wheel" ] || { echo "SKIPPED: no wheel in out/wheel (run make wheel)"; exit 0; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is not installed"; exit 0; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The data of the example: the checkout's data/, else a copy from the mirror.
mirror="${SSLAB_DATA_MIRROR:-$repo/../shared/data}"
if [ -d "$repo/data/mushrooms" ] && [ -d "$repo/data/pcmac" ]; then
  here="$repo"
elif [ -d "$mirror" ] && [ -x "${SSLAB_BIN:-}" ]; then
  SSLAB_DATA_DIR="$tmp/data" "$SSLAB_BIN" data fetch mushrooms pcmac --mirror "$mirror" >/dev/null
  here="$tmp"
else
  echo "SKIPPED: needs data/mushrooms and data/pcmac, or the data mirror and SSLAB_BIN"; exit 0
fi

# No Rust from here on.
path=""
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || path="${path:+$path:}$d"
done
export PATH="$path"
unset CARGO_TARGET_DIR CARGO_HOME RUSTUP_HOME
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
  echo "FAILED: cargo or rustc still on PATH"; exit 1
fi
python3 -m venv "$tmp/venv" >/dev/null 2>&1 || { echo "SKIPPED: python3 has no working venv module"; exit 0; }
py="$tmp/venv/bin/python"
deps="$("$py" - "$repo/python/pyproject.toml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
print(" ".join(re.findall(r'"([^"]+)"', re.search(r"^dependencies = \[(.*)\]", text, re.M).group(1))))
PY
)"
# shellcheck disable=SC2086
"$py" -m pip install --quiet --only-binary :all: $deps \
  || { echo "SKIPPED: the wheel's dependencies ($deps) could not be installed from the registry"; exit 0; }
"$py" -m pip install --quiet --no-index --no-deps "$wheel"
cd "$here"
"$py" - "$repo/docs/python.md" "$wheel" "$tmp/venv" <<'PY'
import contextlib, io, os, re, sys

import sslab

page, wheel, venv = sys.argv[1:]
assert os.path.realpath(sslab.__file__).startswith(os.path.realpath(venv)), sslab.__file__
version = os.path.basename(wheel).split("-")[1]
assert sslab.__version__ == version, (sslab.__version__, version)
text = open(page).read()
code = re.search(r"```python\n(.*?)```", text.split("\n## Ten lines\n", 1)[1], re.S).group(1)
out = io.StringIO()
with contextlib.redirect_stdout(out):
    exec(compile(code, page, "exec"), {})
printed = dict(line.rsplit(" ", 1) for line in out.getvalue().splitlines())
for name in ("QLDS(th) error", "TSVM error"):
    assert f"{name} {float(printed[name]):.3f}" in text, (name, printed[name])
print(f"ok: {os.path.basename(wheel)} installed without Rust; sslab {sslab.__version__}; "
      + "; ".join(f"{k} {v}" for k, v in printed.items()))
PY
