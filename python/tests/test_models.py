"""The linear estimators keep their fitted model (issue 43): coef_ and intercept_, scores of
new rows without a refit (equal, bit for bit, to a refit's test scores), predict_proba, and
a pickle without X. The RKHS graph estimators keep their kernel expansion: new rows without
a refit as a refit's test scores, the fit rows to rounding, and the CLI's `sslab predict`
on the same saved model."""

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


KERNEL = [
    sslab.KernelRLS(), sslab.KernelSVM(), sslab.LapRLS(), sslab.LapSVM(decision="class_mass"),
    sslab.TVRLS(), sslab.TVSVM(decision="zero_mean"),
]


@pytest.mark.parametrize("est", KERNEL, ids=lambda e: type(e).__name__)
def test_kernel_expansions_score_new_rows_without_a_refit(est):
    X, y, new = problem(n=60, d=5)
    est.fit(X, y)
    assert est._X_fit is None and est._model["kind"] == "kernel"
    labeled = np.flatnonzero(y != -1)
    refit = _fit(est, X, labeled, 1 - y[labeled], 2, new)[1]
    scores = est._scores(new)
    assert np.array_equal(scores, refit)
    assert np.array_equal(est.predict(new), est.classes_[(scores >= 0).astype(int)])
    # The fit's unlabeled rows (labeled first in the crate, in order after): the solve's
    # scores to rounding; TV's RKHS variable to the splitting's convergence.
    tol = 0.02 if "TV" in type(est).__name__ else 1e-12
    u = est._scores(X[y == -1])
    scale = np.abs(est.unlabeled_scores_).max()
    assert np.abs(u - est.unlabeled_scores_).max() <= tol * scale
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back._scores(new), scores)


def test_cheeger_and_more_classes_keep_no_expansion():
    X, y, new = problem(n=60, d=5)
    assert sslab.CheegerRLS().fit(X, y)._model is None
    y3 = y.copy()
    y3[60:63] = 2
    assert sslab.LapRLS().fit(X, y3)._model is None


def test_a_saved_kernel_model_scores_as_the_clis_predict(cli, tmp_path):
    """`sslab run` with `save_models = true` writes the Lap-RLS expansion; its arrays,
    loaded by numpy and scored by the extension, give `sslab predict`'s scores."""
    X, y, new = problem(n=40, d=4)
    train = tmp_path / "train.csv"
    label = [1] * 40 + [-1] * 40
    rows = [",".join(repr(float(v)) for v in x) + f",{c}" for x, c in zip(X, label)]
    train.write_text("a,b,c,d,label\n" + "\n".join(rows) + "\n")
    test = tmp_path / "new.csv"
    lines = [",".join(repr(float(v)) for v in x) + ",1" for x in new]
    test.write_text("a,b,c,d,label\n" + "\n".join(lines) + "\n")
    config = tmp_path / "k.toml"
    config.write_text(
        '[experiment]\nname = "k"\nseed = 2\nsplits = 1\nsave_models = true\n\n'
        f'[[datasets]]\nname = "d"\nkind = "csv"\npath = "{train}"\nlabel = "label"\n'
        'labeled_per_class = 3\nunlabeled = "rest"\n\n'
        '[[methods]]\nkind = "lap_rls"\ndecision = "balance"\n'
    )
    cli("run", config, "--out", tmp_path / "out", "--quiet")
    path = tmp_path / "out" / "k" / "models" / "d" / "0" / "Lap-RLS.npz"
    text = cli("predict", path, test)
    want = np.array([float(line.split(",")[1]) for line in text.splitlines()[1:]])
    m = np.load(path)
    from sslab import _sslab
    got = _sslab.score_kernel(
        m["support"], m["coef"], m["bias"], float(m["width"][0]), float(m["rule"][0]),
        m["rule_params"], new.shape[1], dense=np.ascontiguousarray(new),
    )
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    "est",
    [sslab.Laplace(k=5), sslab.Poisson(k=5, weighting="self_tuning"), sslab.GraphTVRLS(k=5)],
    ids=lambda e: type(e).__name__,
)
def test_neighbours_models_score_new_rows_without_a_refit(est):
    X, y, new = problem(n=60, d=5)
    est.fit(X, y)
    assert est._X_fit is None and est._model["kind"] == "neighbours"
    labeled = np.flatnonzero(y != -1)
    refit = _fit(est, X, labeled, 1 - y[labeled], 2, new)[1]
    assert np.array_equal(est._scores(new), refit)
    # A row of fit takes its node's scores: the unlabeled rows score as the fit.
    assert np.array_equal(est._scores(X)[y == -1], est.unlabeled_scores_)
    assert np.array_equal(est.predict(X)[y == -1], est.transduction_[y == -1])
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back._scores(new), refit)
