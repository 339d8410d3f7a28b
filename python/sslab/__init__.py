"""sslab's semi-supervised methods as scikit-learn estimators.

Every method of the ``sslab`` CLI is a class here (``y == -1`` marks unlabeled rows, as in
``sklearn.semi_supervised``); :func:`run` runs a TOML experiment and :func:`theory`
evaluates the QLDS theory.
"""

from ._experiment import run, theory
from ._sslab import __version__
from ._gradient import GradientSSL
from ._graph import (
    CheegerRLS,
    CheegerSVM,
    KernelRLS,
    KernelSVM,
    LapRLS,
    LapSVM,
    TVRLS,
    TVSVM,
)
from ._qlds import GBSSL, LSSVM, QLDS, SelfTraining, Spectral
from ._sparse_graph import (
    GraphCheegerRLS,
    GraphLapRLS,
    GraphTVRLS,
    LabelPropagation,
    LabelSpreading,
    Laplace,
    Poisson,
)
from ._svmlin import DA, TSVM, LinearRLS, LinearSVM

ESTIMATORS = (
    QLDS, LSSVM, GBSSL, Spectral, SelfTraining, GradientSSL, LinearRLS, LinearSVM, TSVM, DA,
    KernelRLS, KernelSVM, LapRLS, LapSVM, TVRLS, TVSVM, CheegerRLS, CheegerSVM,
    Laplace, Poisson, LabelSpreading, LabelPropagation, GraphLapRLS, GraphTVRLS,
    GraphCheegerRLS,
)
"""Every estimator, one per config kind of the CLI."""

__all__ = [c.__name__ for c in ESTIMATORS] + ["ESTIMATORS", "run", "theory"]
