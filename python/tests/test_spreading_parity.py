"""Parity of the CLI's label spreading and label propagation (`kind = "label_spreading"`,
`"label_propagation"`: k = n_neighbors − 1, binary weights, no symmetrisation) with
scikit-learn's LabelSpreading / LabelPropagation (kernel="knn", n_neighbors=10): on a
3-class, 600-point CSV data set, over the CLI's own splits (read back from `splits/`), the
argmax of each unlabeled point's class scores (`scores.csv`) equals scikit-learn's
`transduction_` on at least 99.9 % of the unlabeled points, i.e. on all of them here.
"""

import numpy as np
import pandas as pd
import pytest

sklearn_semi = pytest.importorskip(
    "sklearn.semi_supervised", reason="SKIPPED: scikit-learn is not installed"
)

N_NEIGHBORS = 10
METHODS = {
    "Label spreading": ("label_spreading", sklearn_semi.LabelSpreading),
    "Label propagation": ("label_propagation", sklearn_semi.LabelPropagation),
}

CONFIG = """
[experiment]
name = "spreading_parity"
seed = 11
splits = 3
save_scores = true

[[datasets]]
name = "blobs"
kind = "csv"
path = "blobs.csv"
label = "label"
labeled_per_class = 4
unlabeled = "rest"
""" + "".join(
    f"""
[[methods]]
kind = "{kind}"
k = {N_NEIGHBORS - 1}
weighting = "binary"
symmetrise = "none"
"""
    for kind, _ in METHODS.values()
)


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, cli):
    tmp = tmp_path_factory.mktemp("spreading_parity")
    rng = np.random.default_rng(5)
    # Three overlapping Gaussian classes of 200 points in 4-d: the graph links classes,
    # so the propagated scores decide many points by margins, not by isolation.
    centres = np.array([[0, 0, 0, 0], [1.6, 0.4, 0, 0], [0.6, 1.5, 0.3, 0]])
    X = np.concatenate([rng.normal(size=(200, 4)) + c for c in centres])
    y = np.repeat(np.arange(3), 200)
    table = pd.DataFrame(X, columns=[f"x{j}" for j in range(4)]).assign(label=y)
    table.to_csv(tmp / "blobs.csv", index=False)
    (tmp / "spreading.toml").write_text(CONFIG)
    cli("run", "spreading.toml", "--out", "out", "--quiet", cwd=tmp)
    run = tmp / "out" / "spreading_parity"
    data = pd.read_csv(tmp / "blobs.csv")  # the values the CLI read (shortest round trip)
    splits = pd.read_csv(run / "splits" / "blobs.csv", dtype=str)
    splits = [
        ([int(i) for i in s.labeled.split()], [int(i) for i in s.unlabeled.split()])
        for s in splits.itertuples()
    ]
    scores = pd.read_csv(run / "scores.csv")
    results = pd.read_csv(run / "results.csv")
    X = data[[f"x{j}" for j in range(4)]].to_numpy()
    return X, data.label.to_numpy(), splits, scores, results


@pytest.mark.parametrize("method", METHODS)
def test_argmax_equals_sklearn_transduction(cli_run, method):
    X, y, splits, scores, results = cli_run
    _, estimator = METHODS[method]
    assert len(splits) == 3
    for split, (labeled, unlabeled) in enumerate(splits):
        # Every row is in the split: the CLI's graph is built on the file's rows in order.
        assert sorted(labeled + unlabeled) == list(range(len(y)))
        assert (results[(results.method == method) & (results.split == split)].status == "ok").all()
        fit = scores[(scores.method == method) & (scores.split == split)]
        assert (fit.set == "unlabeled").all()
        table = fit.pivot(index="row", columns="class", values="score")
        assert table.shape == (len(unlabeled), 3) and sorted(table.index) == sorted(unlabeled)
        ours = table.to_numpy().argmax(axis=1)  # the first maximum, as the CLI's errors
        y_fit = np.full(len(y), -1)
        y_fit[labeled] = y[labeled]
        theirs = estimator(kernel="knn", n_neighbors=N_NEIGHBORS).fit(X, y_fit)
        theirs = theirs.transduction_[table.index.to_numpy()]
        agree = np.mean(ours == theirs)
        assert agree >= 0.999, (method, split, agree, np.flatnonzero(ours != theirs))
        # Not a trivial problem: some unlabeled points are misclassified by both.
        assert np.mean(ours != y[table.index.to_numpy()]) > 0.01
