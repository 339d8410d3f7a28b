"""`make bench-graph-peers`: sslab's sparse-graph methods beside GraphLearning 1.7.5 and
scikit-learn on Fashion-MNIST (docs/benchmarks.md, "Graph methods against GraphLearning and
scikit-learn"). Usage: `graph_peers.py PATH/TO/examples/graph_peers`, run with a Python
that has graphlearning, annoy and scikit-learn (the Makefile's venv).

Parts (every row of the CSV names its part):
- knn: sslab's exact k = 10 lists against GraphLearning's own Annoy search
  (gl.weightmatrix.knnsearch(X, 11, method='annoy')): time and recall@10 of Annoy's lists;
- same_lists: Laplace and Poisson learning of GraphLearning (gl.ssl.laplace / poisson on
  gl.weightmatrix.knn(X, 10, knn_data=sslab's lists)) and of sslab on the same lists:
  per-trial accuracy on the unlabeled points, trials differing by more than 0.1 point,
  time per solve on 1 and 2 threads (RAYON_NUM_THREADS; OMP/MKL/OPENBLAS_NUM_THREADS);
- own_graph: GraphLearning's Laplace and Poisson on its own Annoy graph;
- sklearn: LabelSpreading / LabelPropagation (kernel="knn", n_neighbors=10) against
  sslab's label_spreading / label_propagation (k = 9, binary, not symmetrised) at each
  size of GRAPH_PEERS_SKLEARN_N: agreement of the transductions, time from X to labels.

Environment: GRAPH_PEERS_N (first N of the 70,000 images, default all), GRAPH_PEERS_TRIALS
(labeled sets per rate, default 10), GRAPH_PEERS_SKLEARN_N (default "10000,70000"),
GRAPH_PEERS_SKLEARN_TRIALS (default 2 per rate), GRAPH_PEERS_SKLEARN_THREADS (default 2),
GRAPH_PEERS_SKLEARN_LIMIT (seconds of one fit above which a size is skipped, default 600),
GRAPH_PEERS_SEED (default 0), GRAPH_PEERS_WORK (the arrays, and runs.jsonl: every
command's JSON line, with per-trial seconds and solver steps; default out/graph_peers),
GRAPH_PEERS_OUT (the CSV; default results/graph_peers/graph_peers.csv at N = 70,000, else
WORK/graph_peers.csv).
"""

import gzip
import os
import pathlib
import subprocess
import sys

import numpy as np

import common
from common import RATES, Part, draw_trials, peer, per_rate, run_json
from sklearn_part import sklearn_part
from table import COLUMNS, print_table, write_csv

REPO = pathlib.Path(__file__).resolve().parents[2]
K = 10


def setting(name, default):
    return type(default)(os.environ.get(name, default))


def data_dir():
    mirror = os.environ.get("SSLAB_DATA_MIRROR")
    places = [REPO / "data" / "fashion_mnist"]
    places += [pathlib.Path(mirror) / "fashion_mnist"] if mirror else []
    places += [REPO.parent / "shared" / "data" / "fashion_mnist"]
    for place in places:
        if (place / "train-images-idx3-ubyte.gz").exists():
            return place
    sys.exit("Fashion-MNIST not found in " + ", ".join(map(str, places)))


def idx(path):
    """An IDX array (MNIST's format: magic with the rank in its last byte, big-endian sizes)."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    rank = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(rank)]
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * rank).reshape(dims)


def fashion_mnist(n):
    """The first n of the 70,000 images (train, then test) as pixels/255, and their labels."""
    d = data_dir()
    parts = [(idx(d / f"{p}-images-idx3-ubyte.gz"), idx(d / f"{p}-labels-idx1-ubyte.gz"))
             for p in ("train", "t10k")]
    X = np.concatenate([im.reshape(len(im), -1) for im, _ in parts])[:n] / 255.0
    y = np.concatenate([lab for _, lab in parts])[:n].astype(np.int64)
    return X, y


def recall_at_k(exact, approx, k):
    """Mean over rows of |approx ∩ exact| / k, each list without the row itself."""
    def others(lists):
        rows = np.arange(len(lists))[:, None]
        keep = lists != rows
        return np.array([r[m][:k] for r, m in zip(lists, keep)])

    e, a = others(exact), others(approx)
    hits = (a[:, :, None] == e[:, None, :]).any(axis=2).sum(axis=1)
    return float(np.mean(hits) / k)


def git_commit():
    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True).stdout
    dirty = "-dirty" if git("status", "--porcelain", "--untracked-files=no").strip() else ""
    return git("rev-parse", "--short", "HEAD").strip() + dirty


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: graph_peers.py PATH/TO/examples/graph_peers")
    exe = sys.argv[1]
    n = setting("GRAPH_PEERS_N", 70000)
    per = setting("GRAPH_PEERS_TRIALS", 10)
    seed = setting("GRAPH_PEERS_SEED", 0)
    work = pathlib.Path(os.environ.get("GRAPH_PEERS_WORK", REPO / "out" / "graph_peers"))
    default_out = (REPO / "results" / "graph_peers" if n == 70000 else work) / "graph_peers.csv"
    out_csv = pathlib.Path(os.environ.get("GRAPH_PEERS_OUT", default_out))
    work.mkdir(parents=True, exist_ok=True)
    common.LOG = work / "runs.jsonl"
    common.LOG.unlink(missing_ok=True)
    commit = git_commit()
    X, y = fashion_mnist(n)
    n = len(y)
    np.save(work / "X.npy", X)
    np.save(work / "y.npy", y)
    trials, rates = draw_trials(y, per, seed)
    np.save(work / "trials.npy", trials)
    print(f"Fashion-MNIST: {n} points, {X.shape[1]} pixels; {len(trials)} labeled sets "
          f"({per} per rate, rates {RATES}); commit {commit}", flush=True)
    rows = []

    part = Part("knn", n, commit)
    ours = run_json([exe, "knn", work / "X.npy", K, work / "knn_sslab"], threads=2)
    theirs = peer("annoy", work / "X.npy", work / "knn_annoy", threads=2)
    exact = np.load(work / "knn_sslab" / "knn_ind.npy")
    recall = recall_at_k(exact, np.load(work / "knn_annoy" / "knn_ind.npy"), K)
    part.add(tool="sslab", method="knn", graph="exact", k=K, threads=2,
             seconds=ours["wall_seconds"], cpu_seconds=ours["cpu_seconds"],
             note="exact search (f32 candidates, f64 ranking)")
    part.add(tool="graphlearning", method="knn", graph="annoy", k=K, threads=2,
             seconds=theirs["wall_seconds"], cpu_seconds=theirs["cpu_seconds"],
             recall_at_10=recall, versus="sslab exact lists, all points",
             note="annoy: 10 trees (build on all threads), queries in a Python loop")
    part.close(rows)
    print(f"kNN: sslab exact {ours['wall_seconds']:.1f} s, Annoy {theirs['wall_seconds']:.1f} s, "
          f"recall@10 {recall:.4f}", flush=True)

    part = Part("same_lists", n, commit)
    methods = ["laplace", "poisson"]
    preds, times, info = {}, {}, {}
    for t in (1, 2):
        o = run_json([exe, "solve", work / "knn_sslab", ",".join(methods), work / "trials.npy",
                      work / "y.npy", work / f"sslab_t{t}"], threads=t)
        g = peer("gl", work / "knn_sslab", ",".join(methods), work / "trials.npy",
                 work / "y.npy", work / f"gl_t{t}", threads=t)
        info[t] = (o, g)
        for m in methods:
            for tool, res, d in (("sslab", o, "sslab"), ("graphlearning", g, "gl")):
                preds[tool, m, t] = np.load(work / f"{d}_t{t}" / f"{m}.npy")
                times[tool, m, t] = (res["solves"][m]["wall_seconds"],
                                     res["solves"][m]["cpu_seconds"])
        print(f"same lists, {t} thread(s): done", flush=True)
    for m in methods:
        for t in (1, 2):
            o, g = info[t]
            for tool in ("sslab", "graphlearning"):
                same = np.array_equal(preds[tool, m, 1], preds[tool, m, 2])
                note = f"predictions on 1 and 2 threads {'identical' if same else 'DIFFER'}"
                if tool == "sslab":
                    graph_s, comps = o["graphs"][0]["wall_seconds"], o["graphs"][0]["components"]
                    steps = o["solves"][m]["steps"]
                    note += f"; CG steps {min(steps)}-{max(steps)}; components {comps}"
                else:
                    graph_s = g["graph_wall_seconds"]
                    note += f"; components {g['components']}"
                versus = preds["graphlearning", m, t] if tool == "sslab" else None
                per_rate(part, rates, trials, y, preds[tool, m, t], times[tool, m, t], versus,
                         tool=tool, method=m, graph="sslab exact", k=K, threads=t,
                         graph_seconds=graph_s, note=note,
                         **({"versus": "graphlearning"} if versus is not None else {}))
    part.close(rows)

    part = Part("own_graph", n, commit)
    g = peer("gl", work / "knn_annoy", ",".join(methods), work / "trials.npy", work / "y.npy",
             work / "gl_annoy", threads=2)
    for m in methods:
        p = np.load(work / "gl_annoy" / f"{m}.npy")
        t = (g["solves"][m]["wall_seconds"], g["solves"][m]["cpu_seconds"])
        per_rate(part, rates, trials, y, p, t, preds["sslab", m, 2], tool="graphlearning",
                 method=m, graph="annoy", k=K, threads=2, graph_seconds=g["graph_wall_seconds"],
                 versus="sslab on its exact lists", note=f"components {g['components']}")
    part.close(rows)
    print("GraphLearning on its Annoy graph: done", flush=True)

    sklearn_part(exe, X, y, work, seed, commit, rows)

    write_csv(out_csv, rows)
    print_table(rows)
    print(f"\nwrote {out_csv} ({len(rows)} rows; columns: {', '.join(COLUMNS)})")


if __name__ == "__main__":
    main()
