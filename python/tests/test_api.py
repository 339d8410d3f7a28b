"""The package's own behaviour: inputs, errors, parameters, transductive prediction,
pickling, run and theory."""

import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.pipeline import make_pipeline

import sslab
from conftest import REPO


def blobs(n=60, d=4, seed=0, labeled=3):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(1.5, 1, (n, d)), rng.normal(-1.5, 1, (n, d))]
    y = np.full(2 * n, -1)
    y[:labeled], y[n : n + labeled] = 1, 0
    truth = np.r_[np.ones(n, int), np.zeros(n, int)]
    return X, y, truth


# `command` runs an external program once per split of a CLI run; from Python one calls
# that program's code directly, so it has no estimator.
NOT_ESTIMATORS = {"command"}


def test_every_cli_kind_has_one_estimator():
    kinds = {k for k, _ in sslab._sslab.kinds()} - NOT_ESTIMATORS
    assert kinds == {cls._kind for cls in sslab.ESTIMATORS}
    for kind, multiclass in sslab._sslab.kinds():
        if kind in NOT_ESTIMATORS:
            continue
        cls = next(c for c in sslab.ESTIMATORS if c._kind == kind)
        assert cls._multiclass == multiclass, kind


@pytest.mark.parametrize(
    "est, message",
    [
        (sslab.QLDS(alpha_l=1.0, alpha_u=-1.0), "alpha_u: must be finite and ≥ 0, got -1"),
        (sslab.QLDS(select="xx"), "select: unknown `xx` (known: th, cv, or)"),
        (sslab.QLDS(select="or"), "select:"),
        (sslab.TSVM(lambda_=-1.0), "lambda: must be finite and > 0, got -1"),
        (sslab.TSVM(solver="dual_cd", epsilon=0.0), "epsilon: must be finite and > 0, got 0"),
        (sslab.DA(solver="sgd"), "solver: expected \"mfn\" or \"dual_cd\""),
        (sslab.LinearSVM(solver="mfn", epsilon=0.1), "epsilon: is a dual_cd setting"),
        (sslab.TSVM(precondition=True), "precondition: is a setting of the CGLS solvers"),
        (sslab.TVRLS(gamma="x"), "gamma: expected a number, got the string"),
        (sslab.LapRLS(k=0), "k: must be ≥ 1, got 0"),
        (sslab.LSSVM(n_jobs=0), "n_jobs:"),
        (sslab.GradientSSL(alpha_l=[1.0, 2.0]), "alpha_l: one value"),
    ],
)
def test_bad_parameters_raise_a_value_error_naming_them(est, message):
    X, y, _ = blobs()
    with pytest.raises(ValueError) as e:
        est.fit(X, y)
    assert str(e.value).startswith(message), str(e.value)


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.full((4, 2), np.nan), [0, 1, -1, -1], "NaN"),
        (np.array([[np.inf, 0.0]] * 4), [0, 1, -1, -1], "infinity"),
        (np.ones((4, 2)), [0, 1, -1], "inconsistent numbers of samples"),
        (np.ones(4), [0, 1, -1, -1], "Expected 2D array"),
        (np.eye(4), [1, 1, -1, -1], "y holds only -1 and 1: -1 marks unlabeled rows"),
        (np.eye(4), [1, 1, 1, 1], "one class only"),
        (np.eye(4), [-1, -1, -1, -1], "no labeled row"),
        (np.eye(4), [0.5, 1.5, -1, -1], "Unknown label type"),
    ],
)
def test_bad_input_raises_scikit_learns_errors(X, y, message):
    with pytest.raises(ValueError, match=message):
        sslab.LSSVM().fit(X, y)


def test_a_failing_fit_is_a_value_error_not_a_panic():
    X, y, _ = blobs(n=5)
    with pytest.raises(ValueError, match="kNN graph needs"):
        sslab.LapRLS(k=50).fit(X, y)


def test_dtypes_and_orders_give_the_same_fit():
    X, y, _ = blobs()
    ref = sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(X, y).unlabeled_scores_
    for variant in (np.asfortranarray(X), pd.DataFrame(X)):
        got = sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(variant, y).unlabeled_scores_
        np.testing.assert_array_equal(got, ref)
    x32 = X.astype(np.float32)
    f32 = sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(x32, y).unlabeled_scores_
    f64 = sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(x32.astype(np.float64), y).unlabeled_scores_
    np.testing.assert_array_equal(f32, f64)


def test_c_contiguous_float64_is_not_copied():
    from sslab._base import _as_input

    X = np.ascontiguousarray(blobs()[0])
    assert _as_input(X) is X
    assert _as_input(np.asfortranarray(X)) is not X


def test_sparse_input_is_not_densified_and_dense_only_methods_refuse_it():
    X, y, _ = blobs()
    est = sslab.TSVM(lambda_=0.1).fit(sp.csr_matrix(X), y)
    # The fit kept its model, not X; sparse rows score by their non-zeros.
    assert est._X_fit is None
    assert np.allclose(est.decision_function(sp.csr_matrix(X)), est.decision_function(X))
    with pytest.raises(TypeError, match="[Ss]parse"):
        sslab.QLDS().fit(sp.csr_matrix(X), y)


def test_labels_map_to_classes_and_decision_function_is_positive_for_classes_1():
    X, y, truth = blobs()
    est = sslab.LSSVM().fit(X, np.where(y == -1, -1, y + 5))
    assert est.classes_.tolist() == [5, 6]
    scores = est.decision_function(X)
    assert np.array_equal(est.predict(X), est.classes_[(scores >= 0).astype(int)])
    assert np.mean(est.transduction_ == truth + 5) > 0.9


def test_transductive_predict_extends_through_the_nearest_fitted_row():
    X, y, truth = blobs()
    est = sslab.CheegerRLS().fit(X, y)
    assert np.array_equal(est.predict(X), est.transduction_)
    new = X[[0, 70]] + 1e-3
    assert est.predict(new).tolist() == est.transduction_[[0, 70]].tolist()
    assert not hasattr(est, "decision_function")


def test_multiclass_graph_methods_label_three_classes():
    rng = np.random.default_rng(0)
    centres = np.array([[4.0, 0.0], [-4.0, 0.0], [0.0, 4.0]])
    X = np.concatenate([c + rng.normal(size=(40, 2)) for c in centres])
    truth = np.repeat([0, 1, 2], 40)
    y = np.full(120, -1)
    y[[0, 1, 40, 41, 80, 81]] = truth[[0, 1, 40, 41, 80, 81]]
    est = sslab.LapRLS().fit(X, y)
    assert est.classes_.tolist() == [0, 1, 2]
    assert est.unlabeled_scores_.shape == (114, 3)
    assert np.mean(est.transduction_ == truth) > 0.9


def test_fitted_estimators_clone_and_pickle():
    X, y, _ = blobs()
    for cls in (sslab.QLDS, sslab.TSVM, sslab.TVRLS):
        est = cls().fit(X, y)
        back = pickle.loads(pickle.dumps(est))
        assert np.array_equal(back.predict(X), est.predict(X))
        assert clone(est).get_params() == est.get_params()


def test_n_jobs_does_not_change_the_fit():
    X, y, _ = blobs()
    one = sslab.TVRLS(n_jobs=1).fit(X, y).unlabeled_scores_
    two = sslab.TVRLS(n_jobs=2).fit(X, y).unlabeled_scores_
    np.testing.assert_array_equal(one, two)


def test_tsvm_in_a_pipeline_on_sparse_counts():
    rng = np.random.default_rng(0)
    counts = sp.random(200, 50, density=0.1, random_state=1, format="csr") * 5
    counts = counts.floor()
    y = np.full(200, -1)
    y[:10] = rng.integers(0, 2, 10)
    y[0], y[1] = 0, 1
    pipe = make_pipeline(TfidfTransformer(), sslab.TSVM(lambda_=0.01)).fit(counts, y)
    assert pipe.predict(counts[:5]).shape == (5,)


@pytest.mark.parametrize("cls, name", [(sslab.LinearSVM, "SVM(dual CD)"), (sslab.TSVM, "TSVM(S=10000, dual CD)"), (sslab.DA, "DA(dual CD)")])
def test_dual_cd_reaches_the_fit_of_mfn(cls, name):
    X, y, truth = blobs()
    cd = cls(lambda_=0.01, solver="dual_cd", epsilon=1e-6)
    assert cd._check_params() == name
    mfn = cls(lambda_=0.01, solver="mfn").fit(X, y)
    cd.fit(X, y)
    np.testing.assert_array_equal(cd.transduction_, mfn.transduction_)
    np.testing.assert_allclose(cd.unlabeled_scores_, mfn.unlabeled_scores_, atol=1e-4)


def test_run_returns_the_results_rows(tmp_path):
    rows = sslab.run(REPO / "configs" / "quickstart.toml", out=tmp_path, threads=1)
    assert isinstance(rows, pd.DataFrame)
    assert (tmp_path / "quickstart" / "results.csv").exists()
    assert set(rows.status) == {"ok"} and len(rows) > 0


def test_theory_matches_the_cli(cli):
    import json

    got = sslab.theory(dim=100, labeled=10, unlabeled=(400, 600), mean_norm=2.0, alpha_l=1.0,
                       alpha_u=0.5)
    want = json.loads(cli("theory", "--dim", 100, "--labeled", 10, "--unlabeled", "400,600",
                          "--mean-norm", 2.0, "--alpha-l", 1.0, "--alpha-u", 0.5, "--json"))
    assert got == want


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("y", [[0, 1, -1, -1, -1], [1, 1, -1, -1, -1]])
def test_nan_and_infinity_give_scikit_learns_exact_message_first(dtype, bad, y):
    # The compiled fit scans X for NaN/infinity while gathering its rows; the message is
    # scikit-learn's own (also before the one-class error of the second y).
    from sklearn.utils.validation import _assert_all_finite

    X = np.eye(5, dtype=dtype)
    X[3, 1] = bad
    with pytest.raises(ValueError) as expected:
        _assert_all_finite(X, input_name="X", estimator_name="QLDS")
    with pytest.raises(ValueError) as got:
        sslab.QLDS(alpha_l=1.0, alpha_u=0.5).fit(X, y)
    assert str(got.value) == str(expected.value)
    assert np.isfinite(np.delete(X, 3, axis=0)).all()


def test_a_fit_reuses_its_thread_pool_and_a_forked_child_still_fits():
    import multiprocessing

    X, y, truth = blobs()
    first = sslab.LSSVM(n_jobs=1).fit(X, y).transduction_
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as p:
        child = p.apply(_fit_lssvm, (X, y))
    assert np.array_equal(child, first)
    assert np.mean(first != truth) < 0.2


def _fit_lssvm(X, y):
    return sslab.LSSVM(n_jobs=1).fit(X, y).transduction_


def _threads():
    import os

    return len(os.listdir(f"/proc/{os.getpid()}/task"))


def test_n_jobs_values_share_one_pool_and_minus_one_means_every_core():
    X, y, truth = blobs()
    sslab.LSSVM(n_jobs=1).fit(X, y)
    base = _threads()
    for n in range(2, 12):
        sslab.LSSVM(n_jobs=n).fit(X, y)
    # One pool alive, of the last size asked: at most 11 threads beyond the first pool's one
    # (a replaced pool's threads end on their own, soon after).
    import time

    deadline = time.monotonic() + 5
    while _threads() > base + 11 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _threads() <= base + 11, _threads()
    all_cores = sslab.LSSVM(n_jobs=-1).fit(X, y).transduction_
    assert np.array_equal(all_cores, sslab.LSSVM(n_jobs=1).fit(X, y).transduction_)
    with pytest.raises(ValueError, match="n_jobs: must be None, -1"):
        sslab.LSSVM(n_jobs=-2).fit(X, y)


def test_a_string_minus_one_label_is_refused_and_the_number_in_an_object_array_is_unlabeled():
    X, y, truth = blobs()
    names = np.where(y == 1, "yes", np.where(y == 0, "no", "-1"))
    with pytest.raises(ValueError, match="y holds the string '-1'"):
        sslab.LSSVM().fit(X, names)
    mixed = np.array([{1: "yes", 0: "no"}.get(v, -1) for v in y], dtype=object)
    est = sslab.LSSVM().fit(X, mixed)
    assert sorted(est.classes_) == ["no", "yes"]
    assert np.mean((est.transduction_ == "yes") != (truth == 1)) < 0.2


def test_a_fully_labeled_y_fits_the_supervised_problem():
    # TSVM's and DA's objective without unlabeled rows, ½λ‖w‖² + (1/2l)Σ l2, is the l2-SVM
    # of costs 1 at λ·l (divided by l); by MFN both reach its optimum.
    X, _, truth = blobs(n=40)
    svm = sslab.LinearSVM(lambda_=0.01 * len(truth), solver="mfn").fit(X, truth)
    for cls in (sslab.TSVM, sslab.DA):
        est = cls(lambda_=0.01, solver="mfn").fit(X, truth)
        np.testing.assert_allclose(est.coef_, svm.coef_, rtol=1e-6)
        np.testing.assert_allclose(est.intercept_, svm.intercept_, rtol=1e-6, atol=1e-9)
        assert est.unlabeled_scores_.shape == (0,)
    # GradientSSL with the square loss: ridge on the centred rows, λ = lambda_scale·λ_max(C).
    n = len(truth)
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / n
    lam = 0.5 * np.linalg.eigvalsh(C)[-1]
    yl = 2.0 * truth - 1.0
    omega = np.linalg.solve(lam * np.eye(X.shape[1]) + C, Xc.T @ yl / np.sqrt(n))
    est = sslab.GradientSSL(alpha_l=1.0, alpha_u=0.25, lambda_scale=0.5, tolerance=1e-9,
                            weight_decay=0.0, iterations=100_000, learning_rate=1e-2)
    est.fit(X, truth)
    np.testing.assert_allclose(est.decision_function(X), Xc @ omega / np.sqrt(n), atol=1e-3)


def test_a_binary_method_fits_three_classes_one_vs_rest():
    # Three blobs; each column of the three-class fit is the binary fit of that class
    # against the rest, and the prediction is the column of largest score.
    rng = np.random.default_rng(3)
    centers = np.array([[3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]])
    truth = np.repeat([0, 1, 2], 30)
    X = centers[truth] + rng.standard_normal((90, 3))
    y = np.where(np.arange(90) % 10 < 3, truth, -1)
    est = sslab.LSSVM().fit(X, y)
    scores = est.decision_function(X)
    assert scores.shape == (90, 3) and est.coef_.shape == (3, 3)
    for k in range(3):
        binary = sslab.LSSVM().fit(X, np.where(y == -1, -1, (y == k).astype(int)))
        np.testing.assert_array_equal(scores[:, k], binary.decision_function(X))
    np.testing.assert_array_equal(est.predict(X), np.argmax(scores, axis=1))
    assert (est.predict(X) == truth).mean() > 0.9
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
