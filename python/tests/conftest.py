"""Shared fixtures: the CLI binary the parity tests compare against, and the registered
datasets, found as the Rust tests find them."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
MIRROR = pathlib.Path(os.environ.get("SSLAB_DATA_MIRROR") or REPO.parent / "shared" / "data")
"""The data mirror (``$SSLAB_DATA_MIRROR``, else ``../shared/data``), as the Rust tests read it."""


def _binary():
    """The sslab CLI binary: ``SSLAB_BIN``, else the release build."""
    candidates = [os.environ.get("SSLAB_BIN")]
    target = os.environ.get("CARGO_TARGET_DIR")
    candidates += [target and os.path.join(target, "release", "sslab")]
    candidates += [str(REPO / "target" / "release" / "sslab")]
    binary = next((c for c in candidates if c and os.path.exists(c)), None)
    if binary is None:
        pytest.fail("no sslab CLI binary: set SSLAB_BIN or run `cargo build --release`")
    return binary


@pytest.fixture(scope="session")
def cli():
    """Runs ``sslab ARGS...`` (in ``cwd``, with ``env`` added) and returns its stdout."""
    binary = _binary()

    def run(*args, cwd=None, env=None):
        done = subprocess.run(
            [binary, *map(str, args)], check=True, cwd=cwd, capture_output=True, text=True,
            env={**os.environ, **(env or {})},
        )
        return done.stdout

    return run


@pytest.fixture(scope="session")
def data(cli, tmp_path_factory):
    """``data(*names)``: a ``data`` folder holding the registered datasets ``names``: the
    checkout's ``data/`` where ``make data`` fetched them, else a temporary one filled from
    the data mirror; skips, naming the command, only where neither has them."""
    made = {}

    def get(*names):
        if all((REPO / "data" / n).is_dir() for n in names):
            return REPO / "data"
        if not MIRROR.is_dir():
            pytest.skip(f'needs make data DATASETS="{" ".join(names)}" or the data mirror {MIRROR}')
        if names not in made:
            dest = tmp_path_factory.mktemp("mirror") / "data"
            cli("data", "fetch", *names, "--mirror", MIRROR, env={"SSLAB_DATA_DIR": str(dest)})
            made[names] = dest
        return made[names]

    return get
