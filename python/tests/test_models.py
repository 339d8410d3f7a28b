"""The linear estimators keep their fitted model (issue 43): coef_ and intercept_, scores of
new rows without a refit (equal, bit for bit, to a refit's test scores), predict_proba, and
a pickle without X."""

import pickle

import numpy as np
import scipy.sparse as sp
import pytest

import sslab
from sslab._base import _fit

LINEAR = [
    sslab.QLDS(alpha_l=1.0, alpha_u=0.5), sslab.LSSVM(), sslab.GBSSL(), sslab.Spectral(),
    sslab.SelfTraining(), sslab.LinearRLS(lambda_=0.01), sslab.LinearSVM(lambda_=0.01),
    sslab.TSVM(lambda_=0.01), sslab.DA(lambda_=0.01),
]


def problem(n=200, d=12, seed=3):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(0.7, 1, (n, d)), rng.normal(-0.7, 1, (n, d))]
    y = np.full(2 * n, -1)
    y[:5], y[n : n + 5] = 1, 0
    return X, y, rng.normal(0, 1.5, (50, d))


@pytest.mark.parametrize("est", LINEAR, ids=lambda e: type(e).__name__)
def test_new_rows_score_without_a_refit_as_a_refit_does(est):
    X, y, new = problem()
    est.fit(X, y)
    assert est._X_fit is None and est.coef_.shape == (1, X.shape[1])
    labeled = np.flatnonzero(y != -1)
    ids = 1 - y[labeled]
    refit = _fit(est, X, labeled, ids, 2, new)[1]
    assert np.array_equal(est.decision_function(new), refit)
    # The unlabeled rows of fit score as the fit scored them.
    assert np.array_equal(est.decision_function(X)[y == -1], est.unlabeled_scores_)
    np.testing.assert_allclose(
        est.decision_function(new), new @ est.coef_[0] + est.intercept_[0], rtol=1e-12,
        atol=1e-12 * np.abs(refit).max(),
    )
    proba = est.predict_proba(new)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(est.classes_[proba.argmax(axis=1)], est.predict(new))


def test_the_pickle_holds_the_model_not_x():
    X, y, new = problem(n=2000, d=100)
    est = sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(X, y)
    size = len(pickle.dumps(est))
    # transduction_ and unlabeled_scores_ (n each) and the model (d): no n × d copy.
    assert size < 0.1 * X.nbytes, (size, X.nbytes)
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.decision_function(new), est.decision_function(new))


def test_sparse_rows_of_a_sparse_fit_score_without_densifying():
    X, y, new = problem()
    est = sslab.TSVM(lambda_=0.01).fit(sp.csr_matrix(X), y)
    labeled = np.flatnonzero(y != -1)
    refit = _fit(est, sp.csr_matrix(X), labeled, 1 - y[labeled], 2, sp.csr_matrix(new))[1]
    assert np.array_equal(est.decision_function(sp.csr_matrix(new)), refit)
