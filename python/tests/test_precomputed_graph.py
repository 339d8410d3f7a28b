"""A precomputed graph from Python (``graph="precomputed"``, a scipy.sparse adjacency as X)
gives the CLI's scores on the same graph written as a file (``graph = "w.npz"``), row by row
to 1e-10 relative, and the CLI's error exactly; the matrix is checked (square, symmetric
unless ``symmetrise`` is set, no kNN keys)."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
from sklearn.neighbors import kneighbors_graph

import sslab

CONFIG = """
[experiment]
name = "given"
seed = 3
splits = 2
save_scores = true

[[datasets]]
name = "g"
kind = "svmlight"
path = "g.svm"
features = 4
labeled_per_class = 3
unlabeled = "rest"

[[methods]]
kind = "laplace"
graph = "w.npz"

[[methods]]
kind = "poisson"
graph = "w.npz"

[[methods]]
kind = "label_spreading"
graph = "w.npz"
"""

ESTIMATORS = {
    "Laplace": sslab.Laplace,
    "Poisson": sslab.Poisson,
    "Label spreading": sslab.LabelSpreading,
}


def _adjacency(X):
    """A symmetric weighted kNN graph of the rows of ``X`` (not sslab's own)."""
    A = kneighbors_graph(X, 6, mode="distance")
    A.data = np.exp(-A.data**2)
    return A.maximum(A.T).tocsr()


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, cli):
    tmp = tmp_path_factory.mktemp("given")
    rng = np.random.default_rng(5)
    centres = np.array([[3, 0, 0, 0], [0, 3, 0, 0], [0, 0, 3, 0]], dtype=float)
    X = np.concatenate([rng.normal(size=(40, 4)) + c for c in centres])
    y = np.repeat([1, 2, 3], 40)
    A = _adjacency(X)
    dump_svmlight_file(X, y, str(tmp / "g.svm"), zero_based=False)
    sp.save_npz(tmp / "w.npz", A)
    (tmp / "g.toml").write_text(CONFIG)
    cli("run", "g.toml", "--out", "out", "--quiet", cwd=tmp)
    run = tmp / "out" / "given"
    results = pd.read_csv(run / "results.csv")
    scores = pd.read_csv(run / "scores.csv", keep_default_na=False, dtype={"class": str})
    splits = pd.read_csv(run / "splits" / "g.csv", dtype=str)
    splits = [[int(i) for i in row.labeled.split()] for row in splits.itertuples()]
    return A, y, splits, results, scores


@pytest.mark.parametrize("method", ESTIMATORS)
def test_a_precomputed_graph_gives_the_clis_scores_on_that_graph_as_a_file(cli_run, method):
    A, y, splits, results, scores = cli_run
    for split, labeled in enumerate(splits):
        y_fit = np.full(len(y), -1)
        y_fit[labeled] = y[labeled]
        est = ESTIMATORS[method](graph="precomputed").fit(A, y_fit)
        unlabeled = np.flatnonzero(y_fit == -1)
        cli = scores[(scores.method == method) & (scores.split == split)]
        assert (cli.set == "unlabeled").all() and sorted(cli.row.unique()) == list(unlabeled)
        # One row per (unlabeled row, class id): the class's score.
        cli = cli.pivot(index="row", columns="class", values="score").astype(float)
        cli = cli[[str(c) for c in range(len(est.classes_))]].to_numpy()
        assert est.unlabeled_scores_.shape == cli.shape and np.abs(cli).max() > 0
        np.testing.assert_allclose(est.unlabeled_scores_, cli, rtol=1e-10, atol=1e-12)
        error = np.mean(est.transduction_[unlabeled] != y[unlabeled])
        row = results[(results.method == method) & (results.split == split)]
        assert row.status.item() == "ok"
        assert error == row.error.item(), (method, split, error, row.error.item())
        np.testing.assert_array_equal(est.predict(A), est.transduction_)


def test_the_matrix_is_checked(cli_run):
    A, y, splits, _, _ = cli_run
    y_fit = np.full(len(y), -1)
    y_fit[splits[0]] = y[splits[0]]
    with pytest.raises(ValueError, match="must be the n × n adjacency"):
        sslab.Laplace(graph="precomputed").fit(A[:, :-1], y_fit)
    directed = sp.triu(A, format="csr")
    with pytest.raises(ValueError, match="the adjacency is not symmetric"):
        sslab.Laplace(graph="precomputed").fit(directed, y_fit)
    # Told how to symmetrise, it is the symmetric matrix (max(W, Wᵀ) = A).
    told = sslab.Laplace(graph="precomputed", symmetrise="max").fit(directed, y_fit)
    given = sslab.Laplace(graph="precomputed").fit(A, y_fit)
    np.testing.assert_array_equal(told.unlabeled_scores_, given.unlabeled_scores_)
    # Dense matrices are the graph of their non-zeros.
    dense = sslab.Laplace(graph="precomputed").fit(A.toarray(), y_fit)
    np.testing.assert_array_equal(dense.unlabeled_scores_, given.unlabeled_scores_)
    with pytest.raises(ValueError, match="k: describes a kNN graph, but the graph is given"):
        sslab.Laplace(graph="precomputed", k=5).fit(A, y_fit)
    with pytest.raises(ValueError, match="graph: expected None"):
        sslab.Laplace(graph="w.npz").fit(A, y_fit)
    with pytest.raises(ValueError, match="takes that matrix only"):
        given.predict(A[::-1])
