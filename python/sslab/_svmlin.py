"""The SVMlin family: RLS, L2-SVM-MFN, TSVM (multi- and single-switch) and DA; dense or
``scipy.sparse`` input, never densified."""

from ._base import BinaryDecisionMixin, SemiSupervisedClassifier


class _Svmlin(BinaryDecisionMixin, SemiSupervisedClassifier):
    _sparse = True


class LinearRLS(_Svmlin):
    """Regularized least squares on the labeled rows (SVMlin's RLS).

    Parameters
    ----------
    lambda_ : float, default=None
        Regularization (> 0; default 1).
    precondition : bool, default=None
        CG with a diagonal preconditioner (default False, the public release's plain CGLS).
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`sslab.QLDS`.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sslab import LinearRLS
    >>> X = sp.csr_matrix([[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]])
    >>> LinearRLS(lambda_=0.1).fit(X, [1, 0, -1, -1]).predict(X).tolist()
    [1, 0, 1, 0]
    """

    _kind = "linear_rls"

    def __init__(self, lambda_=None, precondition=None, n_jobs=None):
        self.lambda_ = lambda_
        self.precondition = precondition
        self.n_jobs = n_jobs


class LinearSVM(_Svmlin):
    """L2-loss linear SVM on the labeled rows, by dual coordinate descent or modified finite
    Newton (SVMlin's MFN).

    Parameters
    ----------
    lambda_, precondition, n_jobs : as :class:`LinearRLS` (``precondition`` with MFN only).
    solver : "dual_cd" or "mfn", default=None
        The solver (default "dual_cd", the faster; "mfn": SVMlin's own).
    epsilon : float, default=None
        With "dual_cd": stop when every projected gradient is within ±epsilon (default 0.1).

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`sslab.QLDS`.

    Examples
    --------
    >>> from sslab import LinearSVM
    >>> X = [[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]]
    >>> LinearSVM(lambda_=0.1).fit(X, [1, 0, -1, -1]).predict(X).tolist()
    [1, 0, 1, 0]
    """

    _kind = "linear_svm"

    def __init__(self, lambda_=None, solver=None, epsilon=None, precondition=None, n_jobs=None):
        self.lambda_ = lambda_
        self.solver = solver
        self.epsilon = epsilon
        self.precondition = precondition
        self.n_jobs = n_jobs


class TSVM(_Svmlin):
    """Transductive SVM by SVMlin's multi-switch (``switches`` > 1) or single-switch
    (``switches=1``) label switching. With no unlabeled row (``y`` without -1) it fits the
    supervised problem, the L2-SVM of :class:`LinearSVM` at ``lambda_`` times the number of rows.

    Parameters
    ----------
    lambda_ : float, default=None
        Regularization (> 0; default 1).
    lambda_u : float, default=None
        Weight of the unlabeled loss (> 0; default 1).
    r : float or "labeled", default=None
        Positive fraction of the unlabeled rows, or ``"labeled"`` (the labeled rows'
        fraction, the default).
    switches : int, default=None
        Labels switched per step at most (default 10000).
    solver : "dual_cd" or "mfn", default=None
        The solver of each retraining (default "dual_cd": dual coordinate descent
        warm-started across retrainings, about 3× faster; "mfn": SVMlin's own, the same
        objective by another path).
    epsilon : float, default=None
        With "dual_cd": stop when every projected gradient is within ±epsilon (default 0.001).
    precondition : bool, default=None
        With "mfn": CG with a diagonal preconditioner (default False).
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`sslab.QLDS`.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sslab import TSVM
    >>> X = sp.csr_matrix([[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]])
    >>> TSVM(lambda_=0.01).fit(X, [1, 0, -1, -1]).transduction_.tolist()
    [1, 0, 1, 0]
    """

    _kind = "tsvm"

    def __init__(
        self,
        lambda_=None,
        lambda_u=None,
        r=None,
        switches=None,
        solver=None,
        epsilon=None,
        precondition=None,
        n_jobs=None,
    ):
        self.lambda_ = lambda_
        self.lambda_u = lambda_u
        self.r = r
        self.switches = switches
        self.solver = solver
        self.epsilon = epsilon
        self.precondition = precondition
        self.n_jobs = n_jobs


class DA(_Svmlin):
    """Deterministic annealing for semi-supervised linear SVMs (SVMlin's DA). With no
    unlabeled row it fits the supervised problem, as :class:`TSVM` does.

    Parameters
    ----------
    lambda_, lambda_u, r, solver, epsilon, precondition, n_jobs : as :class:`TSVM` (with
        "dual_cd" each w-step is warm-started from the last).

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`sslab.QLDS`.

    Examples
    --------
    >>> from sslab import DA
    >>> X = [[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]]
    >>> DA(lambda_=0.01).fit(X, [1, 0, -1, -1]).transduction_.tolist()
    [1, 0, 1, 0]
    """

    _kind = "da"

    def __init__(
        self, lambda_=None, lambda_u=None, r=None, solver=None, epsilon=None, precondition=None,
        n_jobs=None,
    ):
        self.lambda_ = lambda_
        self.lambda_u = lambda_u
        self.r = r
        self.solver = solver
        self.epsilon = epsilon
        self.precondition = precondition
        self.n_jobs = n_jobs
