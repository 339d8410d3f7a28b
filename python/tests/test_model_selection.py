"""sslab.model_selection: the splitter folds labeled rows only and keeps every unlabeled row
in training; the scorer ignores y == -1 rows; GridSearchCV with both selects by the
labeled rows' accuracy, as a loop written out by hand does."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score

import sslab
from sslab.model_selection import LabeledKFold, labeled_accuracy, make_labeled_scorer


def _data(n=120, seed=0):
    """Two Gaussian blobs in 5-d, a quarter of the rows labeled (0/1), the rest -1."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 5)) + 1.5 * truth[:, None]
    y = np.where(rng.random(n) < 0.25, truth, -1)
    return X, y, truth


@pytest.mark.parametrize("stratify", [True, False])
def test_folds_hold_labeled_rows_only_and_training_every_unlabeled_row(stratify):
    _, y, _ = _data()
    unlabeled = set(np.flatnonzero(y == -1))
    labeled = np.flatnonzero(y != -1)
    cv = LabeledKFold(4, stratify=stratify, shuffle=True, random_state=1)
    tested = []
    for train, test in cv.split(np.zeros((len(y), 1)), y):
        assert not unlabeled & set(test)
        assert unlabeled <= set(train)
        assert not set(train) & set(test)
        assert set(train) | set(test) == set(range(len(y)))
        tested.extend(test)
    assert sorted(tested) == list(labeled)
    assert cv.get_n_splits() == 4


def test_too_few_labeled_rows_is_an_error():
    with pytest.raises(ValueError, match="only 2 labeled rows"):
        list(LabeledKFold(3, stratify=False).split(np.zeros((5, 1)), [0, 1, -1, -1, -1]))


class _Fixed:
    """A fitted stand-in predicting the given labels."""

    def __init__(self, predicted):
        self.predicted = np.asarray(predicted)

    def predict(self, X):
        return self.predicted[np.asarray(X)[:, 0].astype(int)]


def test_the_scorer_ignores_unlabeled_rows():
    X = np.arange(6)[:, None]
    y = np.array([0, 1, -1, 1, -1, 0])
    # Labeled rows 0, 1, 3, 5: predictions 0, 0, 1, 0, so 3 of 4 right; the -1 rows'
    # predictions (whatever they are) do not count.
    for unlabeled_guess in (0, 1, -1):
        model = _Fixed([0, 0, unlabeled_guess, 1, unlabeled_guess, 0])
        assert labeled_accuracy(model, X, y) == 0.75
    loss = make_labeled_scorer(lambda t, p: np.mean(t != p), greater_is_better=False)
    assert loss(_Fixed([0, 0, 1, 1, 1, 0]), X, y) == -0.25
    with pytest.raises(ValueError, match="no labeled row"):
        labeled_accuracy(_Fixed([0] * 6), X, np.full(6, -1))


def test_grid_search_selects_by_labeled_accuracy_as_a_hand_written_loop():
    X, y, _ = _data()
    grid = {"alpha_l": [1.0], "alpha_u": [0.0, 0.5, 1.0]}
    cv = LabeledKFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(sslab.QLDS(), grid, cv=cv, scoring=labeled_accuracy).fit(X, y)
    by_hand = {}
    for alpha_u in grid["alpha_u"]:
        scores = []
        for train, test in cv.split(X, y):
            model = sslab.QLDS(alpha_l=1.0, alpha_u=alpha_u).fit(X[train], y[train])
            scores.append(np.mean(model.predict(X[test]) == y[test]))
        by_hand[alpha_u] = np.mean(scores)
    best = max(by_hand, key=lambda a: (by_hand[a], -grid["alpha_u"].index(a)))
    assert search.best_params_["alpha_u"] == best
    assert search.best_score_ == pytest.approx(by_hand[best], abs=1e-12)
    assert search.best_score_ > 0.6
    cross = cross_val_score(sslab.QLDS(alpha_l=1.0, alpha_u=best), X, y, cv=cv,
                            scoring=labeled_accuracy)
    assert cross.mean() == pytest.approx(by_hand[best], abs=1e-12)
