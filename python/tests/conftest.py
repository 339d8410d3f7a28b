"""Shared fixtures: the CLI binary the parity tests compare against."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs ``sslab ARGS...`` and returns its stdout (the binary of ``SSLAB_BIN``, else the release build)."""
    candidates = [os.environ.get("SSLAB_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR")
    candidates += [target and os.path.join(target, "release", "sslab")]
    candidates += [str(REPO / "target" / "release" / "sslab")]
    binary = next((c for c in candidates if c and os.path.exists(c)), None)
    if binary is None:
        pytest.fail("no sslab CLI binary: set SSLAB_BIN or run `cargo build --release`")

    def run(*args, cwd=None):
        done = subprocess.run(
            [binary, *map(str, args)], check=True, cwd=cwd, capture_output=True, text=True
        )
        return done.stdout

    return run
