#!/usr/bin/env bash
# Creates/updates the venv ~/.cache/sslab-py-venv (SSLAB_PY_VENV), builds and installs the
# Python package from this checkout, and runs its pytest suite (python/tests). Prints
# "SKIPPED: <why>" and exits 0 only when python3 or its venv module is unavailable; pytest
# lists each skipped test with its reason (-rs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${SSLAB_PY_VENV:-$HOME/.cache/sslab-py-venv}"
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIPPED: python3 is not installed"; exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        echo "SKIPPED: python3 has no working venv module (install python3-venv)"; exit 0
    fi
fi
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet "$here[test]"
cd "$here/.."
# The parity tests compare with the CLI of this checkout.
cargo build --release --locked --bin sslab
export SSLAB_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/sslab"
exec "$venv/bin/python" -m pytest -q -rs python/tests "$@"
