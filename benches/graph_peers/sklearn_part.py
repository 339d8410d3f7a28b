"""The `sklearn` part of graph_peers.py: scikit-learn's LabelSpreading and LabelPropagation
(kernel="knn", n_neighbors=10) against sslab's label_spreading and label_propagation on
its k = 9 binary, unsymmetrised graph, from X to labels, at each size of
GRAPH_PEERS_SKLEARN_N (the first N images). Both sides build their graph once and solve
every labeled set on it; one fit from scratch is graph + solve (`total_seconds`)."""

import os
import subprocess

import numpy as np

from common import Part, draw_trials, peer, per_rate, run_json

METHODS = ["label_spreading", "label_propagation"]


def differing_lists(sklearn_lists, sslab_lists):
    """Rows whose scikit-learn neighbour set (self included) is not sslab's self + 9."""
    return int(np.any(np.sort(sklearn_lists, axis=1) != np.sort(sslab_lists, axis=1),
                      axis=1).sum())


def sklearn_part(exe, X, y, work, seed, commit, rows):
    sizes = os.environ.get("GRAPH_PEERS_SKLEARN_N", "10000,70000").split(",")
    sizes = sorted({min(int(s), len(y)) for s in sizes})
    per = int(os.environ.get("GRAPH_PEERS_SKLEARN_TRIALS", 2))
    threads = int(os.environ.get("GRAPH_PEERS_SKLEARN_THREADS", 2))
    limit = float(os.environ.get("GRAPH_PEERS_SKLEARN_LIMIT", 600))
    measured = {}  # method -> (size, graph seconds, solve seconds) of scikit-learn
    for size in sizes:
        part = Part("sklearn", size, commit)
        d = work / f"sklearn_{size}"
        d.mkdir(parents=True, exist_ok=True)
        np.save(d / "X.npy", X[:size])
        np.save(d / "y.npy", y[:size])
        trials, rates = draw_trials(y[:size], per, seed)
        np.save(d / "trials.npy", trials)
        o = run_json([exe, "solve", d / "X.npy", ",".join(METHODS), d / "trials.npy",
                      d / "y.npy", d / "sslab", "--k", 9], threads=threads)
        if size == len(y):
            lists = np.load(work / "knn_sslab" / "knn_ind.npy")[:, :10]
        else:
            run_json([exe, "knn", d / "X.npy", 9, d / "knn9"], threads=threads)
            lists = np.load(d / "knn9" / "knn_ind.npy")
        ours_graph = o["lists"]["wall_seconds"] + o["graphs"][0]["wall_seconds"]
        for m in METHODS:
            ours = np.load(d / "sslab" / f"{m}.npy")
            ours_t = (o["solves"][m]["wall_seconds"], o["solves"][m]["cpu_seconds"])
            ours_total = ours_graph + float(np.median(ours_t[0]))
            skip = None
            if m in measured:
                s0, g0, f0 = measured[m]
                guess = g0 * (size / s0) ** 2 + f0 * size / s0
                if guess > limit:
                    skip = (f"one fit took {g0 + f0:.0f} s at N = {s0}, so about {guess:.0f} s "
                            f"at N = {size} (limit {limit:.0f} s)")
            if skip is None:
                try:
                    s = peer("sklearn", d / "X.npy", m, d / "trials.npy", d / "y.npy",
                             d / "sklearn", threads=threads, timeout=3 * limit + 60 * len(trials))
                except subprocess.TimeoutExpired:
                    skip = f"timed out after {3 * limit + 60 * len(trials):.0f} s"
            common = dict(method=m, graph="sklearn knn", k=9, threads=threads)
            if skip is not None:
                print(f"scikit-learn {m} at N = {size} skipped: {skip}", flush=True)
                part.add(tool="scikit-learn", note="skipped: " + skip, **common)
                per_rate(part, rates, trials, y[:size], ours, ours_t, tool="sslab",
                         graph_seconds=ours_graph, total_seconds=ours_total, **common)
                continue
            theirs = np.load(d / "sklearn" / f"{m}.npy")
            graph_w, graph_c = s["graph_wall_seconds"], s["graph_cpu_seconds"]
            # The first fit built the graph; the solve is the rest of it.
            wall = [s["fit_wall_seconds"][0] - graph_w] + s["fit_wall_seconds"][1:]
            cpu = [s["fit_cpu_seconds"][0] - graph_c] + s["fit_cpu_seconds"][1:]
            theirs_total = graph_w + float(np.median(wall))
            measured[m] = (size, graph_w, float(np.median(wall)))
            ties = differing_lists(np.load(d / "sklearn" / f"{m}_neighbours.npy"), lists)
            per_rate(part, rates, trials, y[:size], theirs, (wall, cpu), tool="scikit-learn",
                     graph_seconds=graph_w, total_seconds=theirs_total,
                     note="first fit's graph (NearestNeighbors + kneighbors_graph) reused by "
                          "the later fits", **common)
            per_rate(part, rates, trials, y[:size], ours, ours_t, theirs, unlabeled_only=False,
                     tool="sslab", versus="scikit-learn (all points)", graph_seconds=ours_graph,
                     total_seconds=ours_total, speedup=theirs_total / ours_total,
                     note=f"exact search + graph once; kNN sets differing from scikit-learn's: "
                          f"{ties} rows", **common)
            agree = np.mean(ours == theirs)
            print(f"N = {size} {m}: agreement {100 * agree:.3f} %, scikit-learn "
                  f"{theirs_total:.1f} s, sslab {ours_total:.2f} s per fit from scratch",
                  flush=True)
        part.close(rows)
