"""Benchmark, not a test: the Python package's overhead over the CLI's fit, and a no-copy
check by peak memory. Numbers go to docs/python.md.

Usage (the venv of `make python`; SSLAB_BIN: the CLI, PEERS: the `peers` example binary
of `make bench-peers`, PEERS_DATA: its 10^5-document corpus):
    python python/benches/overhead.py qlds | tsvm | memory
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sslab

REPS = 15


def qlds():
    """QLDS(0.5, 1) at d = 400, n = 2,000 (100 labeled): the CLI's fit_seconds over 15
    splits against the Python fit on the same splits' rows."""
    import pandas as pd
    from sklearn.datasets import dump_svmlight_file

    tmp = tempfile.mkdtemp(prefix="sslab-bench-py-")
    rng = np.random.default_rng(400)
    d, n = 400, 2000
    mu = np.full(d, 1.5 / np.sqrt(d))
    y = np.where(np.arange(n) < n // 2, 1, -1)
    X = rng.normal(size=(n, d)) + y[:, None] * mu
    dump_svmlight_file(X, y, os.path.join(tmp, "g.svm"), zero_based=False)
    X = None
    with open(os.path.join(tmp, "b.toml"), "w") as f:
        f.write(f"""[experiment]
name = "b"
seed = 1
splits = {REPS}

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
""")
    subprocess.run([os.environ["SSLAB_BIN"], "run", "b.toml", "--out", "out", "--quiet",
                    "--threads", "1"], cwd=tmp, check=True, capture_output=True)
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(os.path.join(tmp, "g.svm"), n_features=d)
    X, y = X.toarray(), (y > 0).astype(int)
    cli = pd.read_csv(os.path.join(tmp, "out", "b", "results.csv")).fit_seconds.tolist()
    splits = pd.read_csv(os.path.join(tmp, "out", "b", "splits", "g.csv"), dtype=str)
    py = []
    for row in splits.itertuples():
        lab = [int(i) for i in row.labeled.split()]
        unl = [int(i) for i in row.unlabeled.split()]
        Xs = np.ascontiguousarray(X[lab + unl])
        ys = np.r_[y[lab], -np.ones(len(unl), int)]
        t = time.perf_counter()
        sslab.QLDS(alpha_l=0.5, alpha_u=1.0, n_jobs=1).fit(Xs, ys)
        py.append(time.perf_counter() - t)
    report("QLDS(0.5,1) d=400 n=2000", statistics.median(cli), statistics.median(py))


def tsvm():
    """Multi-switch TSVM on the 10^5-document corpus of `make bench-peers` (first 1,000
    rows labeled, λ = 0.001, λ_u = 1, r = 0.5), one thread: the `peers tsvm` fit time
    (the library's fit, as the CLI runs it) against the Python fit."""
    import io

    import scipy.sparse as sp
    from sklearn.datasets import load_svmlight_file

    data = os.environ["PEERS_DATA"]
    out = subprocess.run([os.environ["PEERS"], "tsvm", data, "--threads", "1"], check=True,
                         capture_output=True, text=True).stdout
    cli = float(out.split("seconds=")[1].split()[0])
    with open(os.path.join(data, "ex_100000")) as f:
        text = "".join("0 " + line for line in f)
    X, _ = load_svmlight_file(io.BytesIO(text.encode()), n_features=50000, zero_based=False)
    X = sp.csr_matrix(X)
    y = (np.loadtxt(os.path.join(data, "lab_100000")) > 0).astype(int)
    y[1000:] = -1
    est = sslab.TSVM(lambda_=1e-3, lambda_u=1.0, r=0.5, switches=10000, n_jobs=1)
    t = time.perf_counter()
    est.fit(X, y)
    py = time.perf_counter() - t
    report("TSVM 10^5 docs", cli, py)


def report(what, cli, py):
    print(f"{what}: CLI fit {cli:.4f} s, Python fit {py:.4f} s, overhead "
          f"{100 * (py - cli) / cli:+.1f} %")


def memory():
    """Peak memory of one LS-SVM fit on a 20,000 × 400 float64 X (61 MiB) over the resident
    memory before it, C order (not copied) against F order (copied to C once); each in a
    fresh process. The library itself copies the rows once into its labeled and unlabeled
    blocks (as the CLI does), and the QLDS solver centres them."""
    for order in ("C", "F"):
        code = f"""
import numpy as np, resource, sslab
rng = np.random.default_rng(0)
X = np.asarray(rng.normal(size=(20000, 400)), order="{order}")
y = np.full(20000, -1); y[:50] = 1; y[50:100] = 0
page = resource.getpagesize()
before = int(open("/proc/self/statm").read().split()[1]) * page / 1024
sslab.LSSVM(n_jobs=1).fit(X, y)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before / 1024, after / 1024)
"""
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout.split()
        before, after = float(out[0]), float(out[1])
        print(f"X order {order}: resident {before:.0f} MiB before fit, peak {after:.0f} MiB "
              f"during it (+{after - before:.0f} MiB; X is 61 MiB)")


if __name__ == "__main__":
    {"qlds": qlds, "tsvm": tsvm, "memory": memory}[sys.argv[1]]()
