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

    def __init__(self, lambda_=None, n_jobs=None):
        self.lambda_ = lambda_
        self.n_jobs = n_jobs


class LinearSVM(LinearRLS):
    """L2-loss linear SVM on the labeled rows, by modified finite Newton (SVMlin's MFN).

    Parameters, attributes: as :class:`LinearRLS`.

    Examples
    --------
    >>> from sslab import LinearSVM
    >>> X = [[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.2, 0.8]]
    >>> LinearSVM(lambda_=0.1).fit(X, [1, 0, -1, -1]).predict(X).tolist()
    [1, 0, 1, 0]
    """

    _kind = "linear_svm"


class TSVM(_Svmlin):
    """Transductive SVM by SVMlin's multi-switch (``switches`` > 1) or single-switch
    (``switches=1``) label switching.

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

    def __init__(self, lambda_=None, lambda_u=None, r=None, switches=None, n_jobs=None):
        self.lambda_ = lambda_
        self.lambda_u = lambda_u
        self.r = r
        self.switches = switches
        self.n_jobs = n_jobs


class DA(_Svmlin):
    """Deterministic annealing for semi-supervised linear SVMs (SVMlin's DA).

    Parameters
    ----------
    lambda_, lambda_u, r, n_jobs : as :class:`TSVM`.

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

    def __init__(self, lambda_=None, lambda_u=None, r=None, n_jobs=None):
        self.lambda_ = lambda_
        self.lambda_u = lambda_u
        self.r = r
        self.n_jobs = n_jobs
