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
from sslab._base import _fit, _score_model

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
    sslab.TVRLS(tv_project="fhg", iterations=300),
    sslab.KernelRLS(kernel_rank=20), sslab.LapRLS(kernel_rank=20),
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


def test_kernel_rank_reaches_the_nystrom_form_and_two_classes_only():
    X, y, _ = problem(n=60, d=5)
    dense = sslab.LapRLS().fit(X, y).unlabeled_scores_
    low = sslab.LapRLS(kernel_rank=20).fit(X, y).unlabeled_scores_
    assert low.shape == dense.shape and not np.array_equal(low, dense)
    with pytest.raises(ValueError, match="kernel_rank"):
        sslab.LapRLS(kernel_rank=10).fit(*three_classes()[:2])
    with pytest.raises(ValueError, match="kernel_rank"):
        sslab.LapRLS(kernel_rank=0).fit(X, y)


def test_cheeger_keeps_no_expansion():
    X, y, new = problem(n=60, d=5)
    assert sslab.CheegerRLS().fit(X, y)._model is None
    assert sslab.CheegerRLS().fit(*three_classes()[:2])._model is None


def three_classes(n=30, d=4, seed=5):
    """Three classes around orthogonal centres, 3 labeled rows each, and 40 new rows."""
    rng = np.random.default_rng(seed)
    centres = 2.0 * np.eye(3, d)
    X = np.vstack([rng.normal(0, 0.7, (n, d)) + c for c in centres])
    y = np.full(3 * n, -1)
    for k in range(3):
        y[k * n : k * n + 3] = k
    return X, y, rng.normal(0, 1.5, (40, d)) + centres[rng.integers(0, 3, 40)]


@pytest.mark.parametrize(
    "est", [sslab.KernelRLS(), sslab.KernelSVM(), sslab.LapRLS(decision="zero_mean"),
            sslab.LapSVM(), sslab.TVRLS(), sslab.TVSVM(decision="class_mass")],
    ids=lambda e: type(e).__name__)
def test_multi_class_kernel_models_score_new_rows_without_a_refit(est):
    """Kernel RLS/SVM keep three expansions (one-vs-rest), the others one of three columns."""
    X, y, new = three_classes()
    est.fit(X, y)
    model = est._model
    assert est._X_fit is None
    if isinstance(est, (sslab.KernelRLS, sslab.KernelSVM)):
        assert model["kind"] == "one_vs_rest"
        assert [m["kind"] for m in model["classes"]] == ["kernel"] * 3
    else:
        assert model["kind"] == "kernel" and model["coef"].shape == (len(X), 3)
    labeled = np.flatnonzero(y != -1)
    refit = _fit(est, X, labeled, y[labeled], 3, new)[1]
    scores = est._scores(new)
    assert scores.shape == (40, 3) and np.array_equal(scores, refit)
    assert np.array_equal(est.predict(new), est.classes_[scores.argmax(axis=1)])
    u = est._scores(X[y == -1])
    scale = np.abs(est.unlabeled_scores_).max()
    assert np.abs(u - est.unlabeled_scores_).max() <= 1e-12 * scale
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back._scores(new), scores)


def saved_run(cli, tmp_path, X, classes, new, methods):
    """`sslab run` with `save_models = true` of ``methods`` (config text) on the rows of
    ``X`` of true classes ``classes``, 3 of them labeled per class; the folder of the saved
    models and the csv of the rows of ``new``."""
    d = X.shape[1]
    header = ",".join(f"x{j}" for j in range(d)) + ",label\n"
    train = tmp_path / "train.csv"
    rows = [",".join(repr(float(v)) for v in x) + f",{c}" for x, c in zip(X, classes)]
    train.write_text(header + "\n".join(rows) + "\n")
    test = tmp_path / "new.csv"
    test.write_text(header + "\n".join(
        ",".join(repr(float(v)) for v in x) + ",0" for x in new) + "\n")
    config = tmp_path / "k.toml"
    config.write_text(
        '[experiment]\nname = "k"\nseed = 2\nsplits = 1\nsave_models = true\n\n'
        f'[[datasets]]\nname = "d"\nkind = "csv"\npath = "{train}"\nlabel = "label"\n'
        'labeled_per_class = 3\nunlabeled = "rest"\n\n' + methods
    )
    cli("run", config, "--out", tmp_path / "out", "--quiet")
    return tmp_path / "out" / "k" / "models" / "d" / "0", test


def npz_model(path):
    """The model dict of a saved model (docs/output.md), read by numpy: a one-vs-rest model's
    class k from the arrays prefixed `class{k}_`."""
    z = dict(np.load(path))
    if "one_vs_rest" in z:
        k = int(z["one_vs_rest"][0])
        classes = [{n[len(f"class{c}_"):]: v for n, v in z.items() if n.startswith(f"class{c}_")}
                   for c in range(k)]
        return {"kind": "one_vs_rest", "classes": [dict(m, kind="kernel") for m in classes]}
    return dict(z, kind="kernel")


def clis_scores(cli, path, test):
    """`sslab predict` of ``test`` by the model ``path``: (n,) or (n, K) scores."""
    lines = cli("predict", path, test).splitlines()
    if lines[0] == "row,score":
        return np.array([float(line.split(",")[1]) for line in lines[1:]])
    cells = [line.split(",") for line in lines[1:]]
    n, k = 1 + max(int(c[0]) for c in cells), 1 + max(int(c[1]) for c in cells)
    out = np.full((n, k), np.nan)
    for row, cls, score in cells:
        out[int(row), int(cls)] = float(score)
    return out


SAVED = [
    ("Lap-RLS", 2, 'kind = "lap_rls"\ndecision = "balance"'),
    ("RLS", 3, 'kind = "rls"'),
    ("Lap-RLS", 3, 'kind = "lap_rls"\ndecision = "balance"'),
]


@pytest.mark.parametrize("method,n_classes,entry", SAVED)
def test_a_saved_kernel_model_scores_as_the_clis_predict(cli, tmp_path, method, n_classes,
                                                         entry):
    """`sslab run` with `save_models = true` writes the expansion (RLS on three classes:
    one-vs-rest, three expansions; Lap-RLS: one of three columns); its arrays, read by numpy
    and scored by the extension, give `sslab predict`'s scores."""
    if n_classes == 2:
        X, _, new = problem(n=40, d=4)
    else:
        X, _, new = three_classes()
    classes = np.repeat(np.arange(n_classes), len(X) // n_classes)
    folder, test = saved_run(cli, tmp_path, X, classes, new, f"[[methods]]\n{entry}\n")
    path = folder / f"{method}.npz"
    got = _score_model(npz_model(path), np.ascontiguousarray(new))
    assert got.shape == ((len(new),) if n_classes == 2 else (len(new), n_classes))
    assert np.array_equal(got, clis_scores(cli, path, test))


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
