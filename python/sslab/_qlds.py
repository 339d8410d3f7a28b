"""QLDS and its corners (LS-SVM, GB-SSL), spectral clustering and self-training."""

from ._base import BinaryDecisionMixin, SemiSupervisedClassifier


class QLDS(BinaryDecisionMixin, SemiSupervisedClassifier):
    """Quadratic-loss semi-supervised linear classifier (QLDS) of the QLDS paper.

    Either fixed weights (``alpha_l``, ``alpha_u``) or ``select="th"`` (the theory's
    choice over a grid) or ``select="cv"`` (cross-validation over the grid). The oracle
    choice (``select="or"``) needs the unlabeled truth and is not offered here.

    Parameters
    ----------
    alpha_l, alpha_u : float or list of float, default=None
        Weights of the labeled and unlabeled terms; required without ``select``; with
        ``select``, optional lists giving that axis of the grid.
    select : {"th", "cv"}, default=None
        Choose (α_l, α_u) over the grid by theory or cross-validation; when None and
        neither ``alpha_l`` nor ``alpha_u`` is given, ``"th"``.
    lambda_ : float or {"max_eig_all", "max_eig_unlabeled"}, default=None
        λ or its policy (config key ``lambda``; default ``"max_eig_all"``).
    epsilon : float, default=None
        Margin of the eigenvalue λ policies.
    grid : int, default=None
        Points per grid axis with ``select``.
    folds : int, default=None
        Folds of ``select="cv"``.
    theory_scale : {"labeled_within", "none"}, default=None
        Scale estimate of ``select="th"``.
    n_jobs : int, default=None
        Threads of the fit (None or -1: one per core).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    n_features_in_ : int
    transduction_ : ndarray of shape (n_samples,)
        Labels of the rows given to ``fit``.
    unlabeled_scores_ : ndarray of shape (n_unlabeled,)
        Scores of the rows with ``y == -1``, in order (> 0: ``classes_[1]``).
    fit_seconds_ : float
        Wall time of the library's fit and scoring, the span of the CLI's ``fit_seconds``
        (without the input checks and the copy of the rows into labeled and unlabeled blocks).

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import QLDS
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(1, 1, (50, 5)), rng.normal(-1, 1, (50, 5))]
    >>> y = np.r_[[1] * 3 + [-1] * 47, [0] * 3 + [-1] * 47]
    >>> QLDS(select="th").fit(X, y).transduction_.shape
    (100,)
    """

    _kind = "qlds"

    def __init__(self, alpha_l=None, alpha_u=None, select=None, lambda_=None, epsilon=None,
                 grid=None, folds=None, theory_scale=None, n_jobs=None):
        self.alpha_l = alpha_l
        self.alpha_u = alpha_u
        self.select = select
        self.lambda_ = lambda_
        self.epsilon = epsilon
        self.grid = grid
        self.folds = folds
        self.theory_scale = theory_scale
        self.n_jobs = n_jobs

    def _params(self):
        table = super()._params()
        if self.select is None and self.alpha_l is None and self.alpha_u is None:
            table["select"] = "th"
        return table

    def _check_params(self):
        if self.select == "or":
            raise ValueError(
                'select: "or" (the oracle) needs the unlabeled truth, which fit(X, y) does '
                'not have; use "th" or "cv"'
            )
        return super()._check_params()


class LSSVM(BinaryDecisionMixin, SemiSupervisedClassifier):
    """Least-squares SVM on the labeled rows (QLDS at α_l = 1, α_u = 0).

    Parameters
    ----------
    lambda_ : float or {"max_eig_all", "max_eig_unlabeled", "cv"}, default=None
        λ, its policy, or ``"cv"`` (cross-validation around the top eigenvalue).
    epsilon : float, default=None
        Margin of the eigenvalue λ policies.
    folds : int, default=None
        Folds of ``lambda_="cv"``.
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`QLDS`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import LSSVM
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [0.1, 0.9], [0.9, 0.2]])
    >>> LSSVM(lambda_=1.0).fit(X, [0, 1, -1, -1]).predict(X).tolist()
    [0, 1, 0, 1]
    """

    _kind = "ls_svm"

    def __init__(self, lambda_=None, epsilon=None, folds=None, n_jobs=None):
        self.lambda_ = lambda_
        self.epsilon = epsilon
        self.folds = folds
        self.n_jobs = n_jobs


class GBSSL(LSSVM):
    """Graph-based SSL's linear corner of QLDS (α_l = 0, α_u = 1).

    Parameters, attributes: as :class:`LSSVM`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import GBSSL
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(1, 1, (30, 4)), rng.normal(-1, 1, (30, 4))]
    >>> y = np.r_[[1] * 2 + [-1] * 28, [0] * 2 + [-1] * 28]
    >>> GBSSL().fit(X, y).classes_.tolist()
    [0, 1]
    """

    _kind = "gb_ssl"


class Spectral(BinaryDecisionMixin, SemiSupervisedClassifier):
    """Spectral clustering's linear classifier: the top eigenvector of the second moments,
    oriented by the labeled rows.

    Parameters
    ----------
    center : bool, default=None
        Centre the data first (default true).
    matrix : {"unlabeled", "all"}, default=None
        Second moments of the unlabeled rows (default) or of all rows.
    orient : bool, default=None
        Orient the eigenvector by the labeled rows (default true).
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`QLDS`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import Spectral
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(2, 1, (30, 3)), rng.normal(-2, 1, (30, 3))]
    >>> y = np.r_[[1] * 2 + [-1] * 28, [0] * 2 + [-1] * 28]
    >>> Spectral().fit(X, y).n_features_in_
    3
    """

    _kind = "spectral"

    def __init__(self, center=None, matrix=None, orient=None, n_jobs=None):
        self.center = center
        self.matrix = matrix
        self.orient = orient
        self.n_jobs = n_jobs


class SelfTraining(BinaryDecisionMixin, SemiSupervisedClassifier):
    """Self-training around an LS-SVM, ST(LS-SVM).

    Parameters
    ----------
    lambda_ : float or {"max_eig_all", "max_eig_unlabeled"}, default=None
        λ of the LS-SVM or its policy.
    epsilon : float, default=None
        Margin of the eigenvalue λ policies.
    policy : {"fraction", "margin"}, default=None
        Rows added per round: a fraction (``step``) or those beyond a margin (``theta``).
    step : float, default=None
        Fraction added per round (``policy="fraction"``).
    theta : float, default=None
        Margin (``policy="margin"``).
    max_rounds : int, default=None
        Rounds at most.
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`QLDS`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import SelfTraining
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(1, 1, (30, 4)), rng.normal(-1, 1, (30, 4))]
    >>> y = np.r_[[1] * 2 + [-1] * 28, [0] * 2 + [-1] * 28]
    >>> SelfTraining(step=0.2).fit(X, y).transduction_.shape
    (60,)
    """

    _kind = "self_training"

    def __init__(self, lambda_=None, epsilon=None, policy=None, step=None, theta=None,
                 max_rounds=None, n_jobs=None):
        self.lambda_ = lambda_
        self.epsilon = epsilon
        self.policy = policy
        self.step = step
        self.theta = theta
        self.max_rounds = max_rounds
        self.n_jobs = n_jobs
