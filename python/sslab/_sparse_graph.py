"""Graph-only methods on a sparse kNN graph (Laplace and Poisson learning, label spreading
and propagation), or on a graph given as a scipy.sparse adjacency (``graph="precomputed"``).
All are transductive: they label the rows given to ``fit``."""

import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from ._base import SemiSupervisedClassifier, TransductiveMixin, _fit, _same

_GRAPH = """
    k : int, default=None
        Neighbours of each point other than itself (default 10; 6 for label spreading and
        propagation, scikit-learn's ``n_neighbors=7``).
    weighting : {"knn_gaussian", "self_tuning", "binary"}, default=None
        Edge weights: GraphLearning's exp(-4 d²/d_k²) (default), self-tuning, or 1
        (default for label spreading and propagation).
    symmetrise : {"mean", "max", "mutual", "none"}, default=None
        (W + Wᵀ)/2 (default), the union, the mutual graph, or none (default for label
        spreading and propagation; Laplace and Poisson need a symmetric graph).
    search : {"auto", "exact", "nn_descent"}, default=None
        Neighbour search: exact up to 100,000 rows, NN-descent above (default ``"auto"``).
    tol : float, default=None
        Stopping tolerance (Laplace 1e-5, Poisson and the others 1e-3).
    iterations : int, default=None
        Steps at most (100,000 for Laplace and Poisson; 30 for label spreading, 1,000 for
        label propagation).
    graph : {None, "precomputed"}, default=None
        None: the kNN graph of the rows of ``X``. ``"precomputed"``: ``X`` is the graph, an
        n × n weight matrix (scipy.sparse, or dense), one node per row of ``y``, as the CLI's
        ``graph = "w.npz"``; held with float32 weights; ``k``, ``weighting`` and ``search``
        do not apply; a matrix that is not symmetric needs ``symmetrise`` (the CLI takes
        ``"max"``).
    n_jobs : int, default=None
        Threads of the fit (None or -1: one per core).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    transduction_ : ndarray of shape (n_samples,)
        Labels of the rows given to ``fit``.
    unlabeled_scores_ : ndarray of shape (n_unlabeled,) or (n_unlabeled, n_classes)
        Scores of the rows with ``y == -1``, in order.
    fit_seconds_ : float
        Wall time of the library's fit.

    Notes
    -----
    On the kNN graph the estimator keeps the fit's neighbours model instead of ``X``: the
    rows given to ``fit`` (a copy, n × d floats) and their node scores. ``predict`` scores
    any row by the weighted mean of the scores of its k nearest rows of ``fit`` under the
    graph's weights (a row equal to a row of ``fit`` takes that row's scores), without a
    refit, as the CLI's saved model and ``sslab predict``. With ``graph="precomputed"``
    there is no model (a new row has no place in the given graph): ``predict`` takes the
    matrix given to ``fit`` only.
"""


def _doc(summary, kind, cls, extra=""):
    example = f"""
    Examples
    --------
    >>> import numpy as np
    >>> from sslab import {cls}
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(2, 1, (30, 3)), rng.normal(-2, 1, (30, 3))]
    >>> y = np.r_[[1] * 3 + [-1] * 27, [0] * 3 + [-1] * 27]
    >>> {cls}().fit(X, y).transduction_.shape
    (60,)
"""
    return (
        f"{summary} (config kind ``{kind}``; two or more classes).\n\n    Parameters\n"
        "    ----------" + extra + _GRAPH + example
    )


class _SparseGraph(TransductiveMixin, SemiSupervisedClassifier):
    _multiclass = True

    def __init__(self, k=None, weighting=None, symmetrise=None, search=None, tol=None,
                 iterations=None, graph=None, n_jobs=None):
        self.k = k
        self.weighting = weighting
        self.symmetrise = symmetrise
        self.search = search
        self.tol = tol
        self.iterations = iterations
        self.graph = graph
        self.n_jobs = n_jobs

    @property
    def _sparse(self):
        # A precomputed graph is taken as scipy.sparse; rows of features are dense.
        return self.graph == "precomputed"

    def _params(self):
        # `graph` of a config is a file; here it only says what X is.
        return {k: v for k, v in super()._params().items() if k != "graph"}

    def _check_params(self):
        if self.graph not in (None, "precomputed"):
            raise ValueError(
                f"graph: expected None (the kNN graph of X) or 'precomputed' (X is the n × n "
                f"adjacency), got {self.graph!r}"
            )
        return super()._check_params()

    def _fit_rows(self, X, y):
        if self._sparse:
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"graph='precomputed': X must be the n × n adjacency, got shape {X.shape}"
                )
            X = sp.csr_matrix(X)
            if self.symmetrise is None and (X != X.T).nnz:
                raise ValueError(
                    "graph='precomputed': the adjacency is not symmetric; symmetrise it (e.g. "
                    "A.maximum(A.T)) or set symmetrise ('max' as the CLI, 'mean', 'mutual')"
                )
        return super()._fit_rows(X, y)

    def _fit_arrays(self, X, labeled, ids, n_classes):
        return _fit(self, X, labeled, ids, n_classes, None, graph=self._sparse)

    def predict(self, X):
        """Labels of the rows of ``X`` (see Notes).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        if self._sparse:
            check_is_fitted(self)
            if not _same(sp.csr_matrix(self._validate_X(X, reset=False)), self._X_fit):
                raise ValueError(
                    "graph='precomputed' labels the nodes of the graph given to fit: predict "
                    "takes that matrix only"
                )
            return self.transduction_
        check_is_fitted(self)
        return self._labels(self._scores(X))


class Laplace(_SparseGraph):
    _kind = "laplace"
    __doc__ = _doc("Laplace learning (harmonic functions), as GraphLearning's ``laplace``",
                   "laplace", "Laplace")


class Poisson(_SparseGraph):
    _kind = "poisson"
    __doc__ = _doc("Poisson learning, as GraphLearning's ``poisson``", "poisson", "Poisson")


class LabelPropagation(_SparseGraph):
    _kind = "label_propagation"
    __doc__ = _doc("Label propagation, as scikit-learn's with ``kernel='knn'``",
                   "label_propagation", "LabelPropagation")


class LabelSpreading(_SparseGraph):
    _kind = "label_spreading"
    __doc__ = _doc("Label spreading, as scikit-learn's with ``kernel='knn'``",
                   "label_spreading", "LabelSpreading",
                   "\n    alpha : float, default=None\n        Clamping factor in (0, 1) "
                   "(default 0.2).")

    def __init__(self, alpha=None, k=None, weighting=None, symmetrise=None, search=None,
                 tol=None, iterations=None, graph=None, n_jobs=None):
        self.alpha = alpha
        super().__init__(k, weighting, symmetrise, search, tol, iterations, graph, n_jobs)


_NODES = """
    eta : float, default=None
        η, weight of the squared loss on the labeled nodes (default 1; not Cheeger).
    lambda_ : float, default=None
        λ > 0, ridge weight (default 0.1).
    gamma : float, default=None
        γ ≥ 0, Laplacian or TV weight (default 0.1; not Cheeger).
    c : float, default=None
        Cheeger step (default 1; Cheeger only).
    rof_iterations : int, default=None
        Cap of each graph-ROF solve (TV 10,000, Cheeger 500)."""


class _OnNodes(_SparseGraph):
    def __init__(self, eta=None, lambda_=None, gamma=None, c=None, rof_iterations=None, k=None,
                 weighting=None, symmetrise=None, search=None, tol=None, iterations=None,
                 graph=None, n_jobs=None):
        self.eta = eta
        self.lambda_ = lambda_
        self.gamma = gamma
        self.c = c
        self.rof_iterations = rof_iterations
        super().__init__(k, weighting, symmetrise, search, tol, iterations, graph, n_jobs)


class GraphLapRLS(_OnNodes):
    _kind = "graph_lap_rls"
    __doc__ = _doc("Lap-RLS of the TV-SVM paper with the function on the graph's nodes",
                   "graph_lap_rls", "GraphLapRLS", _NODES)

    def __init__(self, eta=None, lambda_=None, gamma=None, k=None, weighting=None,
                 symmetrise=None, search=None, tol=None, iterations=None, graph=None,
                 n_jobs=None):
        super().__init__(eta, lambda_, gamma, None, None, k, weighting, symmetrise, search, tol,
                         iterations, graph, n_jobs)


class GraphTVRLS(_OnNodes):
    _kind = "graph_tv_rls"
    __doc__ = _doc("TV-RLS of the TV-SVM paper with the function on the graph's nodes",
                   "graph_tv_rls", "GraphTVRLS", _NODES)

    def __init__(self, eta=None, lambda_=None, gamma=None, rof_iterations=None, k=None,
                 weighting=None, symmetrise=None, search=None, tol=None, graph=None,
                 n_jobs=None):
        super().__init__(eta, lambda_, gamma, None, rof_iterations, k, weighting, symmetrise,
                         search, tol, None, graph, n_jobs)


class GraphCheegerRLS(_OnNodes):
    _kind = "graph_cheeger_rls"
    __doc__ = _doc("Cheeger-RLS of the TV-SVM paper with the function on the graph's nodes",
                   "graph_cheeger_rls", "GraphCheegerRLS", _NODES)

    def __init__(self, lambda_=None, c=None, rof_iterations=None, k=None, weighting=None,
                 symmetrise=None, search=None, tol=None, iterations=None, graph=None,
                 n_jobs=None):
        super().__init__(None, lambda_, None, c, rof_iterations, k, weighting, symmetrise,
                         search, tol, iterations, graph, n_jobs)
