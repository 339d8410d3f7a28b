"""Model selection for semi-supervised estimators.

scikit-learn's splitters and scorers treat ``y == -1`` as a class: a test fold holds
unlabeled rows, which the fit never sees and the score counts as wrong predictions. Here
:class:`LabeledKFold` folds the labeled rows only and keeps every unlabeled row in every
training fold, and :func:`make_labeled_scorer` scores labeled rows only (``y == -1`` rows
are ignored), so ``GridSearchCV(QLDS(), grid, cv=LabeledKFold(5), scoring=labeled_accuracy)``
selects on labeled rows the way the estimators are used.
"""

import numpy as np
from sklearn.metrics import accuracy_score
from sklearn.model_selection import BaseCrossValidator, KFold, StratifiedKFold
from sklearn.utils import _safe_indexing

from ._base import _is_unlabeled

__all__ = ["LabeledKFold", "make_labeled_scorer", "labeled_accuracy"]


class LabeledKFold(BaseCrossValidator):
    """K-fold cross-validation over the labeled rows (``y != -1``) only.

    Each test fold is a fold of the labeled rows (stratified by class unless
    ``stratify=False``); each training fold holds the other labeled rows and every unlabeled
    row, so no unlabeled row is ever scored and every fit sees all of them.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds (at least 2, at most the number of labeled rows; stratified: at most
        the size of the smallest class).
    stratify : bool, default=True
        Folds keep the class proportions of the labeled rows (``StratifiedKFold``).
    shuffle : bool, default=False
        Shuffle the labeled rows before folding.
    random_state : int, RandomState instance or None, default=None
        The shuffle's seed (only with ``shuffle=True``).
    """

    def __init__(self, n_splits=5, *, stratify=True, shuffle=False, random_state=None):
        self.n_splits = n_splits
        self.stratify = stratify
        self.shuffle = shuffle
        self.random_state = random_state

    def split(self, X, y, groups=None):
        """Yields ``(train, test)`` row indices: test rows labeled, train rows the other
        labeled rows and every unlabeled row (both sorted)."""
        y = np.asarray(y)
        unlabeled = _is_unlabeled(y)
        labeled = np.flatnonzero(~unlabeled)
        if labeled.size < self.n_splits:
            raise ValueError(
                f"n_splits={self.n_splits}: y has only {labeled.size} labeled rows (y != -1)"
            )
        kind = StratifiedKFold if self.stratify else KFold
        folds = kind(self.n_splits, shuffle=self.shuffle, random_state=self.random_state)
        rest = np.flatnonzero(unlabeled)
        for train, test in folds.split(labeled, y[labeled]):
            yield np.sort(np.r_[labeled[train], rest]), labeled[test]

    def get_n_splits(self, X=None, y=None, groups=None):
        """The number of folds."""
        return self.n_splits

    def _iter_test_indices(self, X=None, y=None, groups=None):
        for _, test in self.split(X, y, groups):
            yield test


class _LabeledScorer:
    """A scorer ``(estimator, X, y) -> float`` of the labeled rows of ``y`` only."""

    def __init__(self, score_func, sign, kwargs):
        self._score_func, self._sign, self._kwargs = score_func, sign, kwargs

    def __call__(self, estimator, X, y, sample_weight=None):
        y = np.asarray(y)
        keep = ~_is_unlabeled(y)
        if not keep.any():
            raise ValueError("no labeled row (y != -1) to score")
        rows = np.flatnonzero(keep)
        kwargs = dict(self._kwargs)
        if sample_weight is not None:
            kwargs["sample_weight"] = np.asarray(sample_weight)[rows]
        predicted = estimator.predict(_safe_indexing(X, rows))
        return self._sign * self._score_func(y[rows], predicted, **kwargs)

    def __repr__(self):
        return f"make_labeled_scorer({self._score_func.__name__})"


def make_labeled_scorer(score_func, *, greater_is_better=True, **kwargs):
    """A scorer for ``cross_val_score`` / ``GridSearchCV`` (``scoring=``) computing
    ``score_func(y_true, y_pred, **kwargs)`` on the rows with ``y != -1``; rows with
    ``y == -1`` are ignored. ``greater_is_better=False`` negates it (for a loss)."""
    return _LabeledScorer(score_func, 1 if greater_is_better else -1, kwargs)


labeled_accuracy = make_labeled_scorer(accuracy_score)
"""Accuracy on the labeled rows only."""
