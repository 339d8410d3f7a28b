"""The graph family of the TV paper: kernel RLS/SVM and their Laplacian, TV and Cheeger
versions. They label the rows given to ``fit``; all but Cheeger also keep their kernel
expansion, which scores new rows without a refit."""

from ._base import SemiSupervisedClassifier, TransductiveMixin

_COMMON = """
    kernel_scale : float, default=None
        Width of the RBF kernel as a multiple of the median distance (default 1).
    decision : {"plain", "class_mass", "balance", "zero_mean"}, default=None
        How the unlabeled scores become labels (default ``"plain"``: sign or argmax)."""
_GRAPH = """
    k : int, default=None
        Neighbours of the kNN graph (default 10).
    weighting : {"self_tuning", "gaussian", "binary"}, default=None
        Edge weights of the graph (default ``"self_tuning"``)."""
_ATTRIBUTES = """
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
        Wall time of the library's fit, the span of the CLI's ``fit_seconds``.

    Notes
    -----
    RLS, SVM, Lap-RLS, Lap-SVM, TV-RLS and TV-SVM keep their kernel expansion
    f(x) = Σᵢ aᵢ K(xᵢ, x) + b over the rows of ``fit`` (RLS and SVM: the labeled ones; on
    more classes one column per class, RLS and SVM one expansion per class, one-vs-rest),
    with the decision rule's pointwise form:
    ``predict`` labels any rows through it, without a refit, and the
    estimator keeps the model instead of ``X`` (TV: the expansion of its RKHS variable, which
    its scores equal at the splitting's convergence). Otherwise ``predict`` labels a row
    given to ``fit`` with its ``transduction_`` label and a new row with the
    ``transduction_`` label of its nearest row of ``fit`` (Euclidean), the extension through
    the 1-nearest-neighbour graph; the method itself is not refitted.
"""


def _doc(summary, params, kind, cls, graph=True, multiclass=True):
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
    classes = "two or more classes" if multiclass else "two classes"
    return (
        f"{summary} (config kind ``{kind}``; {classes}).\n\n    Parameters\n    ----------"
        + params + _COMMON + (_GRAPH if graph else "") + _ATTRIBUTES + example
    )


_P = {
    "eta": "\n    eta : float, default=None\n        η, weight of the labeled loss (default 1).",
    "lambda_": "\n    lambda_ : float, default=None\n        λ, kernel-norm weight (default 0.1).",
    "gamma": "\n    gamma : float, default=None\n        γ, weight of the graph term (default 0.1).",
    "mu": "\n    mu : float, default=None\n        μ, the SVM box bound (default 1).",
    "r1": "\n    r1 : float, default=None\n        Augmented-Lagrangian weight r1 (default 1).",
    "r2": "\n    r2 : float, default=None\n        Augmented-Lagrangian weight r2 (default 1).",
    "c": "\n    c : float, default=None\n        Cheeger step c (default 1).",
    "iterations": "\n    iterations : int, default=None\n        Outer iterations (default 30).",
    "rof_iterations": "\n    rof_iterations : int, default=None\n        ROF steps at most (default 500).",
    "laplacian": '\n    laplacian : {"unnormalized", "symmetric"}, default=None\n'
    "        The graph Laplacian (default unnormalized).",
    "tv_norm": '\n    tv_norm : {"sqrt_n", "n"}, default=None\n        Norm of the projected '
    "functions (binary).",
    "tv_project": '\n    tv_project : {"g", "fhg"}, default=None\n        Functions projected '
    "(binary).",
    "kernel_rank": "\n    kernel_rank : int, default=None\n        Nyström landmarks m: the kernel "
    "as a rank-m factor (n × m memory instead of n × n;\n        two classes only; default: "
    "the dense kernel).",
}


def _params(*names):
    return "".join(_P[n] for n in names)


class _Graph(TransductiveMixin, SemiSupervisedClassifier):
    _multiclass = True

    def predict(self, X):
        """Labels of the rows of ``X``: through the kernel expansion when the fit kept one,
        else through their nearest row of ``fit``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        if getattr(self, "_model", None) is not None:
            return self._labels(self._scores(X))
        return TransductiveMixin.predict(self, X)


class KernelRLS(_Graph):
    _kind = "rls"
    _multiclass = False
    __doc__ = _doc("Kernel regularized least squares on the labeled rows",
                   _params("eta", "lambda_", "kernel_rank"), "rls", "KernelRLS", graph=False, multiclass=False)

    def __init__(self, eta=None, lambda_=None, kernel_rank=None, kernel_scale=None, decision=None,
                 n_jobs=None):
        self.eta = eta
        self.lambda_ = lambda_
        self.kernel_rank = kernel_rank
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.n_jobs = n_jobs


class KernelSVM(KernelRLS):
    _kind = "svm"
    __doc__ = _doc("Kernel SVM on the labeled rows", _params("lambda_", "mu"), "svm",
                   "KernelSVM", graph=False, multiclass=False)

    def __init__(self, lambda_=None, mu=None, kernel_scale=None, decision=None, n_jobs=None):
        self.lambda_ = lambda_
        self.mu = mu
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.n_jobs = n_jobs


class LapRLS(_Graph):
    _kind = "lap_rls"
    __doc__ = _doc("Laplacian RLS", _params("eta", "lambda_", "gamma", "laplacian", "kernel_rank"), "lap_rls",
                   "LapRLS")

    def __init__(self, eta=None, lambda_=None, gamma=None, laplacian=None, kernel_rank=None,
                 kernel_scale=None, decision=None, k=None, weighting=None, n_jobs=None):
        self.eta = eta
        self.lambda_ = lambda_
        self.gamma = gamma
        self.laplacian = laplacian
        self.kernel_rank = kernel_rank
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs


class LapSVM(_Graph):
    _kind = "lap_svm"
    __doc__ = _doc("Laplacian SVM", _params("lambda_", "gamma", "mu", "laplacian"), "lap_svm",
                   "LapSVM")

    def __init__(self, lambda_=None, gamma=None, mu=None, laplacian=None, kernel_scale=None,
                 decision=None, k=None, weighting=None, n_jobs=None):
        self.lambda_ = lambda_
        self.gamma = gamma
        self.mu = mu
        self.laplacian = laplacian
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs


class TVRLS(_Graph):
    _kind = "tv_rls"
    __doc__ = _doc("Graph total-variation RLS",
                   _params("eta", "lambda_", "gamma", "r1", "r2", "iterations",
                           "rof_iterations", "tv_norm", "tv_project", "kernel_rank"), "tv_rls",
                   "TVRLS")

    def __init__(self, eta=None, lambda_=None, gamma=None, r1=None, r2=None, iterations=None,
                 rof_iterations=None, tv_norm=None, tv_project=None, kernel_rank=None,
                 kernel_scale=None, decision=None, k=None, weighting=None, n_jobs=None):
        self.kernel_rank = kernel_rank
        self.eta = eta
        self.lambda_ = lambda_
        self.gamma = gamma
        self.r1 = r1
        self.r2 = r2
        self.iterations = iterations
        self.rof_iterations = rof_iterations
        self.tv_norm = tv_norm
        self.tv_project = tv_project
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs


class TVSVM(_Graph):
    _kind = "tv_svm"
    __doc__ = _doc("Graph total-variation SVM",
                   _params("lambda_", "gamma", "mu", "r1", "r2", "iterations",
                           "rof_iterations", "tv_norm", "tv_project"), "tv_svm", "TVSVM")

    def __init__(self, lambda_=None, gamma=None, mu=None, r1=None, r2=None, iterations=None,
                 rof_iterations=None, tv_norm=None, tv_project=None, kernel_scale=None,
                 decision=None, k=None, weighting=None, n_jobs=None):
        self.lambda_ = lambda_
        self.gamma = gamma
        self.mu = mu
        self.r1 = r1
        self.r2 = r2
        self.iterations = iterations
        self.rof_iterations = rof_iterations
        self.tv_norm = tv_norm
        self.tv_project = tv_project
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs


class CheegerRLS(_Graph):
    _kind = "cheeger_rls"
    __doc__ = _doc("Cheeger-cut RLS", _params("lambda_", "r1", "c", "iterations",
                                              "rof_iterations", "kernel_rank"), "cheeger_rls",
                   "CheegerRLS")

    def __init__(self, lambda_=None, r1=None, c=None, iterations=None, rof_iterations=None,
                 kernel_rank=None, kernel_scale=None, decision=None, k=None, weighting=None,
                 n_jobs=None):
        self.kernel_rank = kernel_rank
        self.lambda_ = lambda_
        self.r1 = r1
        self.c = c
        self.iterations = iterations
        self.rof_iterations = rof_iterations
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs


class CheegerSVM(_Graph):
    _kind = "cheeger_svm"
    __doc__ = _doc("Cheeger-cut SVM", _params("lambda_", "mu", "r1", "c", "iterations",
                                              "rof_iterations"), "cheeger_svm", "CheegerSVM")

    def __init__(self, lambda_=None, mu=None, r1=None, c=None, iterations=None,
                 rof_iterations=None, kernel_scale=None, decision=None, k=None,
                 weighting=None, n_jobs=None):
        self.lambda_ = lambda_
        self.mu = mu
        self.r1 = r1
        self.c = c
        self.iterations = iterations
        self.rof_iterations = rof_iterations
        self.kernel_scale = kernel_scale
        self.decision = decision
        self.k = k
        self.weighting = weighting
        self.n_jobs = n_jobs
