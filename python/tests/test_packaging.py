"""Packaging: ``sslab.__version__`` is the workspace's version (Cargo.toml), the compiled
module's type stub (``_sslab.pyi``) names exactly what the module defines, and the package
is marked typed (``py.typed``)."""

import ast
import pathlib
import re

import sslab
from sslab import _sslab

from conftest import REPO


def test_version_is_the_workspaces():
    text = (REPO / "Cargo.toml").read_text()
    section = text.split("[workspace.package]", 1)[1]
    assert sslab.__version__ == re.search(r'^version = "([^"]+)"', section, re.M).group(1)


def test_the_stub_names_what_the_compiled_module_defines():
    package = pathlib.Path(sslab.__file__).parent
    stub = ast.parse((package / "_sslab.pyi").read_text())
    defined = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    defined |= {t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    aliases = {t.id for n in stub.body if isinstance(n, ast.Assign) for t in n.targets}
    public = {n for n in dir(_sslab) if not n.startswith("_")} | {"__version__"}
    assert defined == public, (defined ^ public)
    assert not aliases & public
    assert (package / "py.typed").is_file()
