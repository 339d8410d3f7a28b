"""The peers' side of `make bench-graph-peers`, one job per process so that the thread
variables (OMP/MKL/OPENBLAS_NUM_THREADS) set by graph_peers.py apply from the start. Each
command prints one JSON line (wall seconds from perf_counter, CPU seconds of the process
from process_time):

- `annoy X.npy OUT_DIR`: GraphLearning's own search, gl.weightmatrix.knnsearch(X, 11,
  method='annoy') (10 trees, 2k candidates re-ranked by exact distances), written as
  knn_ind.npy / knn_dist.npy;
- `gl KNN_DIR METHODS TRIALS.npy LABELS.npy OUT_DIR`: W = gl.weightmatrix.knn(None, 10,
  knn_data=...) (exp(-4 d^2/d_10^2), (W + W^T)/2), then gl.ssl.laplace(W) / gl.ssl.poisson(W)
  (defaults) fit_predict on every labeled set; predictions to OUT_DIR/<method>.npy;
- `sklearn X.npy METHOD TRIALS.npy LABELS.npy OUT_DIR`: LabelSpreading or LabelPropagation
  (kernel="knn", n_neighbors=10, other parameters default) on every labeled set. The first
  fit is a plain fit (graph built inside; its share is timed separately); later fits reuse
  that graph (the same estimator code, `_build_graph` returning the first one), so their
  time is the iterations only. transduction_ to OUT_DIR/<method>.npy, the first fit's kNN
  lists (self included, n x 10) to OUT_DIR/<method>_neighbours.npy.
"""

import json
import os
import sys
import time
import warnings

import numpy as np


def clock():
    return time.perf_counter(), time.process_time()


def since(start):
    return time.perf_counter() - start[0], time.process_time() - start[1]


def trials_of(path):
    """Labeled sets, one per row; negative entries pad the shorter ones."""
    return [row[row >= 0] for row in np.load(path)]


def annoy(x_path, out):
    import graphlearning as gl

    X = np.load(x_path)
    start = clock()
    ind, dist = gl.weightmatrix.knnsearch(X, 11, method="annoy")
    wall, cpu = since(start)
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "knn_ind.npy"), np.asarray(ind, dtype=np.int64))
    np.save(os.path.join(out, "knn_dist.npy"), np.asarray(dist, dtype=np.float64))
    print(json.dumps({"command": "annoy", "n": len(X), "wall_seconds": wall, "cpu_seconds": cpu}))


def graphlearning(knn_dir, methods, trials_path, labels_path, out):
    import graphlearning as gl
    from scipy.sparse.csgraph import connected_components

    ind = np.load(os.path.join(knn_dir, "knn_ind.npy"))
    dist = np.load(os.path.join(knn_dir, "knn_dist.npy"))
    labels = np.load(labels_path)
    trials = trials_of(trials_path)
    start = clock()
    W = gl.weightmatrix.knn(None, 10, knn_data=(ind, dist))
    graph = gl.graph(W)
    build = since(start)
    components = connected_components(W, directed=False)[0]
    result = {"command": "gl", "n": len(labels), "nnz": int(W.nnz),
              "components": int(components), "graph_wall_seconds": build[0],
              "graph_cpu_seconds": build[1], "solves": {}}
    os.makedirs(out, exist_ok=True)
    for method in methods.split(","):
        model = {"laplace": gl.ssl.laplace, "poisson": gl.ssl.poisson}[method](graph)
        preds, wall, cpu = [], [], []
        for train in trials:
            start = clock()
            preds.append(model.fit_predict(train, labels[train]))
            w, c = since(start)
            wall.append(w)
            cpu.append(c)
        np.save(os.path.join(out, method + ".npy"), np.asarray(preds, dtype=np.int64))
        result["solves"][method] = {"wall_seconds": wall, "cpu_seconds": cpu}
    print(json.dumps(result))


def sklearn(x_path, method, trials_path, labels_path, out):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.semi_supervised import LabelPropagation, LabelSpreading

    base = {"label_spreading": LabelSpreading, "label_propagation": LabelPropagation}[method]
    kept = {}

    class Reused(base):
        """The estimator, with the graph of its first fit kept for the later ones."""

        def _get_kernel(self, X, y=None):
            k = super()._get_kernel(X, y)
            if y is None and "neighbours" not in kept:
                kept["neighbours"] = k.indices.reshape(k.shape[0], -1).copy()
            return k

        def _build_graph(self):
            if "graph" not in kept:
                start = clock()
                kept["graph"] = super()._build_graph()
                kept["seconds"] = since(start)
            return kept["graph"].copy()

    X = np.load(x_path)
    labels = np.load(labels_path)
    preds, wall, cpu = [], [], []
    warnings.simplefilter("ignore", ConvergenceWarning)
    for train in trials_of(trials_path):
        y = np.full(len(labels), -1)
        y[train] = labels[train]
        est = Reused(kernel="knn", n_neighbors=10)
        start = clock()
        est.fit(X, y)
        w, c = since(start)
        preds.append(est.transduction_)
        wall.append(w)
        cpu.append(c)
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, method + ".npy"), np.asarray(preds, dtype=np.int64))
    np.save(os.path.join(out, method + "_neighbours.npy"), kept["neighbours"])
    graph_wall, graph_cpu = kept["seconds"]
    print(json.dumps({"command": "sklearn", "method": method, "n": len(labels),
                      "graph_wall_seconds": graph_wall, "graph_cpu_seconds": graph_cpu,
                      "fit_wall_seconds": wall, "fit_cpu_seconds": cpu}))


if __name__ == "__main__":
    commands = {"annoy": annoy, "gl": graphlearning, "sklearn": sklearn}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: peer.py annoy|gl|sklearn ARGS (see the module's docstring)")
    commands[sys.argv[1]](*sys.argv[2:])
