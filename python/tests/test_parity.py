"""Parity with the CLI: on the splits the CLI ran (its persisted split indices), each
estimator's unlabeled scores equal the CLI's (its `scores.csv`, `save_scores = true`) to
1e-10 relative and its error equals the CLI's results.csv row exactly; the SVMlin paper's
pcmac read with load_svmlight_file gives the CLI's test error exactly. The dense and
sparse paths of the SVMlin family give the same scores (1e-10 relative).
"""

import io
import pathlib

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

import sslab
from conftest import REPO

CONFIG = """
[experiment]
name = "parity"
seed = 7
splits = 3
save_scores = true

[[datasets]]
name = "g"
kind = "svmlight"
path = "g.svm"
features = 10
labels = [1, -1]
labeled_per_class = 5
unlabeled_per_class = 100

[[methods]]
kind = "qlds"
select = "th"

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "tsvm"

[[methods]]
kind = "da"

[[methods]]
kind = "lap_rls"

[[methods]]
kind = "tv_rls"
"""

ESTIMATORS = {
    "QLDS(th)": lambda: sslab.QLDS(select="th"),
    "LS-SVM": sslab.LSSVM,
    "TSVM(S=10000, dual CD)": sslab.TSVM,
    "DA(dual CD)": sslab.DA,
    "Lap-RLS": sslab.LapRLS,
    "TV-RLS": sslab.TVRLS,
}


def _splits(path):
    splits = pd.read_csv(path, dtype=str)
    return [
        ([int(i) for i in row.labeled.split()], [int(i) for i in row.unlabeled.split()])
        for row in splits.itertuples()
    ]


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, cli):
    tmp = tmp_path_factory.mktemp("parity")
    rng = np.random.default_rng(1)
    mu = np.zeros(10)
    mu[0] = 1.2
    X = np.r_[rng.normal(size=(150, 10)) + mu, rng.normal(size=(150, 10)) - mu]
    y = np.r_[np.ones(150), -np.ones(150)]
    dump_svmlight_file(X, y, str(tmp / "g.svm"), zero_based=False)
    (tmp / "g.toml").write_text(CONFIG)
    cli("run", "g.toml", "--out", "out", "--quiet", cwd=tmp)
    X, y = load_svmlight_file(str(tmp / "g.svm"), n_features=10)
    run = tmp / "out" / "parity"
    results = pd.read_csv(run / "results.csv")
    scores = pd.read_csv(run / "scores.csv", keep_default_na=False, dtype={"class": str})
    # Classes 0/1 (1 = the CLI's +1): -1 marks unlabeled rows in scikit-learn's convention.
    return X.toarray(), (y > 0).astype(int), _splits(run / "splits" / "g.csv"), results, scores


@pytest.mark.parametrize("method", ESTIMATORS)
def test_scores_and_error_equal_the_cli(cli_run, method):
    X, y, splits, results, scores = cli_run
    for split, (labeled, unlabeled) in enumerate(splits):
        # The CLI's problem: labeled rows first, each part in the split's order.
        rows = labeled + unlabeled
        y_fit = np.r_[y[labeled], -np.ones(len(unlabeled))]
        est = ESTIMATORS[method]().fit(X[rows], y_fit)
        cli = scores[(scores.method == method) & (scores.split == split)]
        assert (cli.set == "unlabeled").all() and (cli["class"] == "").all()
        assert cli.row.tolist() == unlabeled
        # read_csv parses Rust's shortest round-trip form back to the same float.
        cli_scores = cli.score.astype(float).to_numpy()
        assert est.unlabeled_scores_.shape == cli_scores.shape
        assert np.abs(cli_scores).max() > 0
        np.testing.assert_allclose(est.unlabeled_scores_, cli_scores, rtol=1e-10, atol=0)
        error = np.mean(est.transduction_[len(labeled):] != y[unlabeled])
        row = results[(results.method == method) & (results.split == split)]
        assert row.status.item() == "ok"
        assert error == row.error.item(), (method, split, error, row.error.item())


@pytest.mark.parametrize("cls", [sslab.TSVM, sslab.DA, sslab.LinearRLS, sslab.LinearSVM])
def test_sparse_and_dense_scores_agree(cli_run, cls):
    X, y, splits, _, _ = cli_run
    labeled, unlabeled = splits[0]
    rows = labeled + unlabeled
    y_fit = np.r_[y[labeled], -np.ones(len(unlabeled))]
    dense = cls(lambda_=0.1).fit(X[rows], y_fit).unlabeled_scores_
    for fmt in (sp.csr_matrix, sp.csc_matrix):
        sparse = cls(lambda_=0.1).fit(fmt(X[rows]), y_fit).unlabeled_scores_
        np.testing.assert_allclose(sparse, dense, rtol=1e-10, atol=1e-12)


def _svmlin_examples(path, n_features):
    """An SVMlin examples file (index:value rows without labels) through
    load_svmlight_file, by giving every row a dummy label."""
    text = "".join("0 " + line for line in pathlib.Path(path).read_text().splitlines(True))
    X, _ = load_svmlight_file(io.BytesIO(text.encode()), n_features=n_features,
                              zero_based=False)
    return X


def test_pcmac_sparse_tsvm_test_error_and_scores_equal_the_cli(tmp_path, cli, data):
    pcmac = data("svmlin_pcmac") / "svmlin_pcmac"
    config = (REPO / "configs" / "svmlin_pcmac.toml").read_text()
    config = config.replace("[experiment]\n", "[experiment]\nsave_scores = true\n", 1)
    (tmp_path / "pcmac.toml").write_text(config)
    cli("run", tmp_path / "pcmac.toml", "--out", tmp_path, "--quiet", cwd=REPO,
        env={"SSLAB_DATA_DIR": str(pcmac.parent)})
    run = tmp_path / "svmlin_pcmac"
    results = pd.read_csv(run / "results.csv")
    scores = pd.read_csv(run / "scores.csv", keep_default_na=False, dtype={"class": str})
    ((labeled, unlabeled),) = _splits(run / "splits" / "pcmac.csv")
    X = _svmlin_examples(pcmac / "training_examples", 7511)
    X_test = _svmlin_examples(pcmac / "test_examples", 7511)
    y = (np.loadtxt(pcmac / "training_labels") > 0).astype(int)
    y_test = (np.loadtxt(pcmac / "test_labels") > 0).astype(int)
    rows = labeled + unlabeled
    y_fit = np.r_[y[labeled], -np.ones(len(unlabeled))]
    checked = 0
    for row in results.itertuples():
        params = dict(p.split("=") for p in row.params.split())
        if row.kind not in ("tsvm", "da"):
            continue
        r = params["r"] if params["r"] == "labeled" else float(params["r"])
        # The config pins SVMlin's own solver (MFN rows name no solver in their params).
        kwargs = {"lambda_": float(params["lambda"]), "r": r, "solver": "mfn"}
        if row.kind == "tsvm":
            est = sslab.TSVM(switches=int(params["switches"]), **kwargs)
        else:
            est = sslab.DA(**kwargs)
        est.fit(X[rows], y_fit)
        assert est._X_fit is None
        error = np.mean(est.predict(X_test) != y_test)
        assert error == row.test_error, (row.method, error, row.test_error)
        cli_test = scores[(scores.method == row.method) & (scores.set == "test")]
        assert cli_test.row.tolist() == list(range(X_test.shape[0]))
        np.testing.assert_allclose(est.decision_function(X_test),
                                   cli_test.score.astype(float).to_numpy(), rtol=1e-10, atol=0)
        checked += 1
    assert checked == 6
