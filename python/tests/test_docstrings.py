"""Every docstring example of the package runs and prints what it shows."""

import doctest
import importlib

import pytest

MODULES = ["sslab._qlds", "sslab._svmlin", "sslab._graph", "sslab._gradient",
           "sslab._experiment"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0, result
