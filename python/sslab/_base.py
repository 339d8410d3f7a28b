"""The estimator base: scikit-learn's semi-supervised conventions over the compiled fits."""

import inspect

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _assert_all_finite, check_is_fitted, validate_data

from . import _sslab

# Python parameter names that are keywords or builtins, and their config keys.
_TOML_NAMES = {"lambda_": "lambda"}


class SemiSupervisedClassifier(ClassifierMixin, BaseEstimator):
    """Base of every sslab estimator (not used directly).

    ``fit(X, y)`` takes ``y == -1`` for unlabeled rows, as ``sklearn.semi_supervised`` does;
    the other labels may be any values and are mapped to ``classes_``. Parameters are stored
    unchanged by ``__init__`` and checked by ``fit`` with the crate's own checks: a bad value
    raises ``ValueError`` naming the parameter. ``n_jobs`` sizes the thread pool of the fit
    (``None`` or ``-1``: one thread per core; the process keeps one pool, rebuilt when the
    size changes); the GIL is released while fitting.

    Subclasses set ``_kind`` (the config kind), ``_multiclass`` (whether the method handles
    more than two classes itself; the others fit one binary problem per class, class k
    against the rest, and predict the class of largest score) and ``_sparse`` (whether it takes ``scipy.sparse`` input without
    densifying).

    The inductive methods (QLDS and its family, the SVMlin kinds, ``GradientSSL``: the
    linear ones) keep the model their fit returns: ``coef_`` (K × d) and ``intercept_`` (K),
    K = 1 for two classes, and ``predict``/``decision_function``/``predict_proba`` score new
    rows with it, without a refit and without keeping ``X`` (the scores of the rows of
    ``fit`` are the fit's own, bit for bit). Transductive methods keep ``X``
    (``TransductiveMixin``).
    """

    _kind = None
    _multiclass = False
    _sparse = False

    def _params(self):
        """The method's config table: every parameter but ``n_jobs`` that is not None."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        table = {}
        for name in names:
            value = getattr(self, name)
            if name == "n_jobs" or value is None:
                continue
            if isinstance(value, np.generic):
                value = value.item()
            table[_TOML_NAMES.get(name, name)] = value
        return table

    def _check_params(self):
        if self.n_jobs is not None and (
            isinstance(self.n_jobs, bool) or not isinstance(self.n_jobs, (int, np.integer))
            or (self.n_jobs < 1 and self.n_jobs != -1)
        ):
            raise ValueError(
                f"n_jobs: must be None, -1 (every core) or an integer ≥ 1, got {self.n_jobs!r}"
            )
        return _sslab.check(self._kind, self._params())

    def _validate_X(self, X, reset, ensure_all_finite=True):
        X = validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=["csr", "csc"] if self._sparse else False,
            dtype=[np.float64, np.float32],
            ensure_all_finite=ensure_all_finite,
        )
        return _as_input(X)

    def fit(self, X, y):
        """Fit on the rows of ``X``; rows with ``y == -1`` are unlabeled.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Dense float64/float32 in C or F order (C-contiguous float64 is not copied);
            ``scipy.sparse`` CSR/CSC for the sparse-capable methods.
        y : array-like of shape (n_samples,)
            Labels, ``-1`` for unlabeled rows.

        Returns
        -------
        self : object
        """
        self._check_params()
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse=["csr", "csc"] if self._sparse else False,
            dtype=[np.float64, np.float32],
            # Dense X is scanned for NaN and infinity by the compiled fit, in the one pass
            # that gathers its rows.
            ensure_all_finite=sp.issparse(X),
        )
        try:
            return self._fit_rows(_as_input(X), y)
        except ValueError:
            # scikit-learn's NaN/infinity error comes first, with its own message.
            error = _nan_inf_error(self, X)
            if error is None:
                raise
        raise error from None

    def _fit_rows(self, X, y):
        """``fit`` on checked inputs (dense ``X`` not yet for NaN and infinity)."""
        unlabeled = _is_unlabeled(y)
        if y.dtype.kind not in "iub":
            # Integer and boolean labels are binary or multiclass; the unlabeled marker -1
            # may be the one number among string labels (an object array).
            check_classification_targets(y[~unlabeled])
        labeled = np.flatnonzero(~unlabeled)
        if labeled.size == 0:
            raise ValueError("y has no labeled row (every label is -1)")
        self.classes_, ids = np.unique(y[labeled], return_inverse=True)
        n_classes = len(self.classes_)
        if n_classes < 2 and unlabeled.any():
            raise ValueError(
                f"y holds only -1 and {self.classes_[0]}: -1 marks unlabeled rows "
                "(sklearn.semi_supervised's convention), which leaves one class; if -1 is a "
                "class, relabel it (e.g. y = (y > 0).astype(int))"
            )
        if n_classes < 2:
            raise ValueError(
                f"y has labeled rows of one class only ({self.classes_[0]}); "
                "the methods need at least 2 classes"
            )
        # The crate's class 0 is +1 (scores > 0): classes_[1] in the binary case, as
        # scikit-learn's decision_function is positive for classes_[1].
        lib_ids = 1 - ids if n_classes == 2 else ids
        unlabeled_scores, _, self.fit_seconds_, model = self._fit_arrays(
            X, labeled, lib_ids, n_classes
        )
        self.unlabeled_scores_ = unlabeled_scores
        transduction = np.empty(len(y), dtype=self.classes_.dtype)
        transduction[labeled] = self.classes_[ids]
        unlabeled = np.flatnonzero(unlabeled)
        transduction[unlabeled] = self._labels(unlabeled_scores)
        self.transduction_ = transduction
        self._model = model
        if model is not None and model["kind"] == "linear":
            w, s = model["weights"], model["scale"]
            shift = 0.0 if model["center"] is None else model["center"] @ w
            self.coef_ = (w / s).T
            self.intercept_ = model["bias"] - shift / s
        if model is not None:
            # The model scores any rows: X is not kept.
            X = None
        self._X_fit = X
        return self

    def _fit_arrays(self, X, labeled, ids, n_classes):
        """The compiled fit of checked rows: unlabeled scores, test scores, seconds, model."""
        return _fit(self, X, labeled, ids, n_classes, None)

    def _labels(self, scores):
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def _scores(self, X):
        """Scores of the rows of ``X`` by the fitted model, in the crate. Dense ``X`` is not
        scanned for NaN and infinity before by a linear model: such a value makes its row's
        score non-finite, and only then is ``X`` scanned, for scikit-learn's own error. The
        graph models (a pass over the fit rows per row) scan it first."""
        check_is_fitted(self)
        model = self._model
        scan = sp.issparse(X) or model["kind"] != "linear"
        X = self._validate_X(X, reset=False, ensure_all_finite=scan)
        scores = _score_model(model, X)
        if not sp.issparse(X) and not np.isfinite(scores).all():
            error = _nan_inf_error(self, X)
            if error is not None:
                raise error
        return scores

    def predict(self, X):
        """Predicted class of each row of ``X``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        return self._labels(self._scores(X))

    def __sklearn_is_fitted__(self):
        # Not scikit-learn's default test (attributes ending in "_"): `lambda_` is a
        # parameter.
        return hasattr(self, "transduction_")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self._sparse
        tags.classifier_tags.multi_class = True
        return tags


def _score_model(model, X):
    """Scores of the checked rows ``X`` (dense or CSR) by the model dict of a fit (the
    crate's ``Model::score``); a one-vs-rest model's column k is class k's binary score."""
    kind = model["kind"]
    if kind == "one_vs_rest":
        return np.column_stack([_score_model(m, X) for m in model["classes"]])
    if kind == "kernel":
        score = _sslab.score_kernel
        names = ("support", "coef", "bias", "width", "rule", "rule_params")
        args = tuple(model[n] for n in names)
        args = args[:3] + (float(args[3][0]), float(args[4][0])) + args[5:]
    elif kind == "neighbours":
        score = _sslab.score_neighbours
        k, weighting = int(model["k"][0]), int(model["weighting"][0])
        args = (model["rows"], model["scores"], k, weighting)
    else:
        score = _sslab.score
        args = (model["weights"], model["center"], model["scale"], model["bias"])
    if sp.issparse(X):
        return score(*args, X.shape[1], csr=_csr(X))
    return score(*args, X.shape[1], dense=X)

class BinaryDecisionMixin:
    """``decision_function`` of a binary method: positive for ``classes_[1]``; with more
    classes, one column per class (one-vs-rest)."""

    def decision_function(self, X):
        """Signed scores of the rows of ``X`` (> 0: ``classes_[1]``); with more classes,
        the score of each class against the rest.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        return self._scores(X)

    def predict_proba(self, X):
        """Class shares of the rows of ``X`` from their scores: the logistic function
        1 / (1 + exp(−f)) of ``decision_function`` f for ``classes_[1]``, its complement for
        ``classes_[0]``. A monotone map of the scores, not calibrated probabilities: each
        row sums to 1 and its larger share is the class ``predict`` gives (a score of
        exactly 0, a tie, predicts ``classes_[1]``). With more classes: the logistic of
        each class's score, each row divided by its sum (scikit-learn's one-vs-rest).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        p = 0.5 * (1.0 + np.tanh(0.5 * self._scores(X)))
        if p.ndim == 2:
            return p / p.sum(axis=1, keepdims=True)
        return np.column_stack([1.0 - p, p])


class TransductiveMixin:
    """``predict`` of a transductive method: the rows given to ``fit`` get their
    ``transduction_`` label; a new row gets the ``transduction_`` label of its nearest
    (Euclidean) row of ``fit``, the extension through the 1-nearest-neighbour graph."""

    def predict(self, X):
        """Labels of the rows of ``X`` through their nearest row of ``fit``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        if _same(X, self._X_fit):
            return self.transduction_
        train = self._X_fit
        sq = (train * train).sum(axis=1)
        nearest = np.empty(X.shape[0], dtype=np.int64)
        for start in range(0, X.shape[0], 1024):
            block = X[start : start + 1024]
            d = sq[None, :] - 2.0 * block @ train.T
            nearest[start : start + 1024] = np.argmin(d, axis=1)
        return self.transduction_[nearest]


def _nan_inf_error(est, X):
    """scikit-learn's error for a dense ``X`` holding NaN or infinity, or None."""
    if sp.issparse(X):
        return None
    try:
        _assert_all_finite(X, input_name="X", estimator_name=type(est).__name__)
    except ValueError as e:
        return e
    return None


def _is_unlabeled(y):
    """Rows labeled the number -1. A string ``"-1"`` is refused rather than taken as a class
    (scikit-learn refuses string labels for the same reason): use an object array with the
    number -1 for unlabeled rows."""
    if y.dtype.kind in "iuf":
        return y == -1
    if y.dtype.kind in "US" and (y.astype(str) == "-1").any():
        raise ValueError(
            "y holds the string '-1': unlabeled rows are the number -1 (use an object array, "
            "e.g. np.array(['a', -1, 'b'], dtype=object))"
        )
    if y.dtype.kind == "O":
        number = lambda v: isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
        return np.array([number(v) and v == -1 for v in y], dtype=bool)
    return np.zeros(len(y), dtype=bool)


def _as_input(X):
    """Float64 C-contiguous dense (no copy when already so) or canonical float64 CSR."""
    if sp.issparse(X):
        X = X.tocsr()
        if not X.has_sorted_indices or X.dtype != np.float64:
            X = X.astype(np.float64, copy=True)
            X.sum_duplicates()
            X.sort_indices()
        return X
    return np.ascontiguousarray(X, dtype=np.float64)


def _same(a, b):
    """Whether ``a`` holds the same rows as ``b`` (same object, or equal values)."""
    if a is b:
        return True
    if a.shape != b.shape or sp.issparse(a) != sp.issparse(b):
        return False
    if sp.issparse(a):
        return (a != b).nnz == 0
    return np.array_equal(a, b)


def _csr(X):
    return (
        X.indptr.astype(np.int64, copy=False),
        X.indices.astype(np.int32, copy=False),
        X.data.astype(np.float64, copy=False),
    )


def _fit(est, X, labeled, ids, n_classes, test, graph=False):
    """The compiled fit of ``est`` on the rows of ``X`` (CSR ``X`` the graph itself when
    ``graph``)."""
    args = (
        np.ascontiguousarray(labeled, dtype=np.int64),
        np.ascontiguousarray(ids, dtype=np.int64),
        n_classes,
    )
    params = est._params()
    if graph:
        return _sslab.fit_graph(est._kind, params, _csr(X), *args, n_jobs=_threads(est.n_jobs))
    if sp.issparse(X):
        return _sslab.fit_sparse(
            est._kind, params, _csr(X), X.shape[1], *args,
            test=None if test is None else _csr(test), n_jobs=_threads(est.n_jobs),
        )
    return _sslab.fit_dense(est._kind, params, X, *args, test=test, n_jobs=_threads(est.n_jobs))


def _threads(n_jobs):
    """``n_jobs`` as the crate takes it: None for every core (``None`` or ``-1``)."""
    return None if n_jobs is None or n_jobs == -1 else int(n_jobs)
