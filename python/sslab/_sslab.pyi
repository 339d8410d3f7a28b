"""Types of the compiled half of the package (``python/src/``); the estimators call it."""

import os
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Params = dict[str, Union[bool, int, float, str, Sequence[Any]]]
"""A method's table: config key → value (bool, int, float, str, or a list of these)."""

Csr = tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float64]]
"""A CSR matrix as ``(indptr, indices, data)``."""

Model = dict[str, Any]
"""A linear model: ``weights`` (d × K), ``center`` (d or None), ``scale``, ``bias`` (K)."""

FitScores = tuple[
    npt.NDArray[np.float64], Optional[npt.NDArray[np.float64]], float, Optional[Model]
]
"""Unlabeled scores, test scores (None without test rows), fit seconds, the model or None."""

class NonFiniteInput(ValueError):
    """X holds NaN or infinity."""

def kinds() -> list[tuple[str, bool]]:
    """Every config kind with whether it handles more than two classes."""

def check(kind: str, params: Params) -> str:
    """Checks ``params`` for ``kind``; the method's default name."""

def fit_dense(
    kind: str,
    params: Params,
    x: npt.NDArray[np.float64],
    labeled: npt.NDArray[np.int64],
    classes_l: npt.NDArray[np.int64],
    n_classes: int,
    test: Optional[npt.NDArray[np.float64]] = None,
    n_jobs: Optional[int] = None,
) -> FitScores:
    """Fits ``kind`` on the rows of ``x`` (``labeled`` rows with class ids ``classes_l``)."""

def fit_sparse(
    kind: str,
    params: Params,
    csr: Csr,
    n_cols: int,
    labeled: npt.NDArray[np.int64],
    classes_l: npt.NDArray[np.int64],
    n_classes: int,
    test: Optional[Csr] = None,
    n_jobs: Optional[int] = None,
) -> FitScores:
    """``fit_dense`` on a CSR matrix of ``n_cols`` columns."""

def fit_graph(
    kind: str,
    params: Params,
    graph: Csr,
    labeled: npt.NDArray[np.int64],
    classes_l: npt.NDArray[np.int64],
    n_classes: int,
    n_jobs: Optional[int] = None,
) -> FitScores:
    """A graph-only method on the square adjacency ``graph`` (one node per row)."""

def score(
    weights: npt.NDArray[np.float64],
    center: Optional[npt.NDArray[np.float64]],
    scale: float,
    bias: npt.NDArray[np.float64],
    n_cols: int,
    dense: Optional[npt.NDArray[np.float64]] = None,
    csr: Optional[Csr] = None,
) -> npt.NDArray[np.float64]:
    """Scores of dense or CSR rows by a linear model."""

def score_kernel(
    support: npt.NDArray[np.float64],
    coef: npt.NDArray[np.float64],
    bias: npt.NDArray[np.float64],
    width: float,
    rule: float,
    rule_params: npt.NDArray[np.float64],
    n_cols: int,
    dense: Optional[npt.NDArray[np.float64]] = None,
    csr: Optional[Csr] = None,
) -> npt.NDArray[np.float64]:
    """Scores of dense or CSR rows by a kernel expansion (the `.npz` arrays)."""

def score_neighbours(
    rows: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    k: int,
    weighting: int,
    n_cols: int,
    dense: Optional[npt.NDArray[np.float64]] = None,
    csr: Optional[Csr] = None,
) -> npt.NDArray[np.float64]:
    """Scores of dense or CSR rows by a neighbours model (the `.npz` arrays)."""

def run(
    config: Union[str, os.PathLike[str]],
    out: Union[str, os.PathLike[str]],
    threads: Optional[int] = None,
) -> str:
    """Runs a TOML experiment into ``out/<name>/``; the path of its results.csv."""

def theory(
    dim: int,
    labeled: tuple[int, int],
    unlabeled: tuple[int, int],
    mean_norm: float,
    alpha_l: float,
    alpha_u: float,
    lambda_: str = "max_eig_all",
    epsilon: float = ...,
) -> dict[str, Any]:
    """The isotropic theory of QLDS (Theorem 1)."""
