"""Benchmark, not a test: the Python package's fit against the CLI's on the same rows, and a
no-copy check by peak memory. `make bench-python` runs all of it and prints one table
(numbers go to docs/python.md).

Usage (the venv of `make python`; SSLAB_BIN: the CLI; PEERS_DATA: the 10^5-document corpus
of `make bench-peers`, generated here by ../shared/bench/synth_sparse.py when missing):
    python python/benches/overhead.py [qlds] [tsvm] [memory] [predict]     (default: all)
Repetitions: BENCH_REPS (QLDS rounds of 15 splits, default 5), BENCH_TSVM_REPS (default 3).
Each round runs the CLI, then Python (alternated), one thread each; the table gives the
medians over all fits (seconds) and the load average before and after. "CLI fit_seconds" is
the column of results.csv (the library's fit and scoring; the split's rows were copied into
labeled and unlabeled blocks before, when the split was drawn); "Python fit" the wall time
of `est.fit` (input checks, that copy, the library's fit); "Python fit_seconds_" the
library's fit inside it, the CLI's span.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

import sslab

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("PEERS_DATA", os.path.expanduser("~/.cache/sslab-peers-data"))
SYNTH = os.path.join(HERE, "..", "..", "..", "shared", "bench", "synth_sparse.py")
ROWS, MEMORY = [], []


def cli_run(tmp, config):
    """`sslab run` of the TOML text `config` in `tmp`, one thread: its results and splits."""
    with open(os.path.join(tmp, "b.toml"), "w") as f:
        f.write(config)
    subprocess.run([os.environ["SSLAB_BIN"], "run", "b.toml", "--out", "out", "--quiet",
                    "--threads", "1", "--force"], cwd=tmp, check=True, capture_output=True)
    results = pd.read_csv(os.path.join(tmp, "out", "b", "results.csv"))
    splits = pd.read_csv(os.path.join(tmp, "out", "b", "splits", "g.csv"), dtype=str)
    rows = [([int(i) for i in r.labeled.split()], [int(i) for i in r.unlabeled.split()])
            for r in splits.itertuples()]
    return results, rows


def python_fits(make, X, y, splits):
    """Fit seconds of `make()` on each split's rows (labeled first, as the CLI orders them),
    the library's share of them (`fit_seconds_`) and the errors on the unlabeled rows."""
    seconds, inner, errors = [], [], []
    for lab, unl in splits:
        Xs = X[lab + unl]
        Xs = Xs if sp.issparse(Xs) else np.ascontiguousarray(Xs)
        ys = np.r_[y[lab], -np.ones(len(unl), int)]
        est = make()
        t = time.perf_counter()
        est.fit(Xs, ys)
        seconds.append(time.perf_counter() - t)
        inner.append(est.fit_seconds_)
        errors.append(np.mean(est.transduction_[len(lab):] != y[unl]))
    return seconds, inner, errors


def compare(what, config, make, X, y, reps):
    """Alternates `reps` CLI runs of `config` and Python fits on the same splits."""
    cli, py, lib = [], [], []
    for _ in range(reps):
        results, splits = cli_run(CONFIG_DIR, config)
        cli += results.fit_seconds.tolist()
        seconds, inner, errors = python_fits(make, X, y, splits)
        py += seconds
        lib += inner
        # The same fits: the errors of results.csv.
        assert errors == results.error.tolist(), (what, errors, results.error.tolist())
    c, p, f = (statistics.median(v) for v in (cli, py, lib))
    ROWS.append((what, f"{len(cli)}", f"{c:.4f}", f"{p:.4f}", f"{100 * (p - c) / c:+.1f} %",
                 f"{f:.4f}", f"{100 * (f - c) / c:+.1f} %"))


def qlds():
    """QLDS(0.5, 1) at d = 400, n = 2,000 (100 labeled), 15 splits per round."""
    rng = np.random.default_rng(400)
    d, n = 400, 2000
    y = np.where(np.arange(n) < n // 2, 1, -1)
    X = rng.normal(size=(n, d)) + y[:, None] * np.full(d, 1.5 / np.sqrt(d))
    dump_svmlight_file(X, y, os.path.join(CONFIG_DIR, "g.svm"), zero_based=False)
    # The CLI reads the file's decimal text: Python reads the same numbers.
    X, y = load_svmlight_file(os.path.join(CONFIG_DIR, "g.svm"), n_features=d)
    X, y = np.ascontiguousarray(X.toarray()), (y > 0).astype(int)
    config = f"""[experiment]
name = "b"
seed = 1
splits = 15

[[datasets]]
name = "g"
kind = "svmlight"
path = "g.svm"
features = {d}
labels = [1, -1]
labeled_per_class = 50
unlabeled_per_class = 950

[[methods]]
kind = "qlds"
alpha_l = 0.5
alpha_u = 1.0
"""
    compare("QLDS(0.5, 1), d = 400, n = 2,000", config,
            lambda: sslab.QLDS(alpha_l=0.5, alpha_u=1.0, n_jobs=1), X, y,
            int(os.environ.get("BENCH_REPS", 5)))


def tsvm():
    """Multi-switch TSVM (λ = 0.001, λ_u = 1, r = 0.5) on the 10^5 documents × 50,000 words
    of `make bench-peers`, 500 labeled per class, the rest unlabeled: one split per round."""
    if not os.path.exists(os.path.join(DATA, "lab_100000")):
        os.makedirs(DATA, exist_ok=True)
        subprocess.run([sys.executable, os.path.abspath(SYNTH), "100000", "50000", "50"],
                       cwd=DATA, check=True)
    labels = np.loadtxt(os.path.join(DATA, "lab_100000"))
    # The corpus as one SVMlight file (label, then the examples line), for both sides.
    path = os.path.join(CONFIG_DIR, "g.svm")
    with open(os.path.join(DATA, "ex_100000")) as src, open(path, "w") as dst:
        lines = 0
        for label, line in zip(labels, src):
            dst.write(f"{int(label)} {line}")
            lines += 1
    assert lines == len(labels) == 100000, lines
    X, y = load_svmlight_file(path, n_features=50000)
    X, y = sp.csr_matrix(X), (y > 0).astype(int)
    config = """[experiment]
name = "b"
seed = 1
splits = 1

[[datasets]]
name = "g"
kind = "svmlight"
path = "g.svm"
features = 50000
labels = [1, -1]
labeled_per_class = 500
unlabeled = "rest"

[[methods]]
kind = "tsvm"
lambda = 0.001
lambda_u = 1.0
r = 0.5
switches = 10000
"""
    compare("TSVM, 10^5 docs × 50,000 words", config,
            lambda: sslab.TSVM(lambda_=1e-3, lambda_u=1.0, r=0.5, switches=10000, n_jobs=1),
            X, y, int(os.environ.get("BENCH_TSVM_REPS", 3)))


def memory():
    """Peak memory of one LS-SVM fit on a 20,000 × 400 float64 X (61 MiB) over the resident
    memory before it, C order (not copied) against F order (copied to C once); each in a
    fresh process. The library itself copies the rows once into its labeled and unlabeled
    blocks (as the CLI does), and the solver centres them."""
    peaks = {}
    for order in ("C", "F"):
        code = f"""
import numpy as np, resource, sslab
rng = np.random.default_rng(0)
X = np.asarray(rng.normal(size=(20000, 400)), order="{order}")
y = np.full(20000, -1); y[:50] = 1; y[50:100] = 0
before = int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize() / 2**20
sslab.LSSVM(n_jobs=1).fit(X, y)
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout.split()
        peaks[order] = float(out[1]) - float(out[0])
    extra = peaks["F"] - peaks["C"]
    MEMORY.append(f"peak over resident before the fit, LS-SVM on a 20,000 × 400 float64 X "
                  f"(61 MiB): C order +{peaks['C']:.0f} MiB, F order +{peaks['F']:.0f} MiB; "
                  f"F − C = {extra:.0f} MiB = {extra / 61:.2f} copies of X, so the C-contiguous "
                  f"input is not copied")


def predict():
    """Scores of 10^5 new rows × 400 by a fitted QLDS without a refit (`decision_function`,
    the crate's dot products), against numpy's `X @ coef_.T + intercept_` (BLAS) on the
    same rows, medians of BENCH_PREDICT_REPS (default 7) alternated calls; and the pickle
    size of the fitted estimator (20,000 × 400 training rows, 1 % labeled) against X's."""
    import pickle
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20000, 400))
    y = np.full(20000, -1)
    y[:100], y[100:200] = 1, 0
    est = sslab.QLDS(alpha_l=1.0, alpha_u=0.5, n_jobs=1).fit(X, y)
    new = rng.normal(size=(100_000, 400))
    ours, blas = [], []
    for _ in range(int(os.environ.get("BENCH_PREDICT_REPS", 7))):
        t = time.perf_counter()
        est.decision_function(new)
        ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        new @ est.coef_.T + est.intercept_
        blas.append(time.perf_counter() - t)
    a, b = statistics.median(ours), statistics.median(blas)
    size = len(pickle.dumps(est))
    MEMORY.append(f"QLDS decision_function on 10^5 × 400 new rows (no refit): {a * 1e3:.0f} ms, "
                  f"numpy X @ coef_.T + intercept_: {b * 1e3:.0f} ms ({a / b:.2f}×); pickle of "
                  f"the fitted estimator {size / 1e3:.0f} kB (X: {X.nbytes / 1e6:.0f} MB)")


def load():
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    parts = sys.argv[1:] or ["qlds", "tsvm", "memory", "predict"]
    before = load()
    with tempfile.TemporaryDirectory(prefix="sslab-bench-py-") as CONFIG_DIR:
        for part in parts:
            {"qlds": qlds, "tsvm": tsvm, "memory": memory, "predict": predict}[part]()
    print(f"load average (1, 5, 15 min) before: {before}; after: {load()}; "
          f"{os.cpu_count()} cores; one thread per fit")
    if ROWS:
        header = ("fit", "fits", "CLI fit_seconds", "Python fit", "overhead",
                  "Python fit_seconds_", "vs CLI")
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for r in ROWS:
            print("| " + " | ".join(r) + " |")
    for m in MEMORY:
        print(m)
