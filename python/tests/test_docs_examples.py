"""The examples of docs/python.md run as written: the "Ten lines" block (QLDS(th) on
mushrooms, TSVM on pcmac's word counts in a Pipeline with TfidfTransformer) from the folder
holding ``data/`` (the checkout, or one filled from the data mirror), printing the errors
the page reports; the "Model selection" block prints what the page says."""

import contextlib
import io
import os
import re

import pytest

from conftest import REPO

PAGE = REPO / "docs" / "python.md"


def _block(heading):
    """The first ```python block after the line `## heading`."""
    text = PAGE.read_text()
    section = text.split(f"\n## {heading}\n", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_ten_lines_run_and_print_the_reported_errors(data):
    code = _block("Ten lines")
    assert len(code.strip().splitlines()) <= 16, "the example grew"
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(data("mushrooms", "pcmac").parent)
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), {})
    finally:
        os.chdir(cwd)
    printed = dict(line.rsplit(" ", 1) for line in out.getvalue().splitlines())
    page = PAGE.read_text()
    # The page's "Measured:" sentence quotes both errors to 3 decimals.
    for name in ("QLDS(th) error", "TSVM error"):
        value = float(printed[name])
        assert f"{name} {value:.3f}" in page, (name, value)


def test_the_model_selection_example_prints_what_the_page_says():
    code = _block("Model selection")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {})
    assert f"Printed: `{out.getvalue().strip()}`" in PAGE.read_text(), out.getvalue()
