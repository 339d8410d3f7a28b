"""scikit-learn's side of `make bench-scale`: LabelSpreading (kNN kernel, k = 10) on the
points `scale export N FILE` wrote (header rows, columns, labeled rows; the rows; every
row's ±1 label; little-endian f64). Usage: label_spreading.py FILE THREADS. Prints one line
`RESULT key=value ...` like sslab's side: loading (set-up) and fit + predict (solve), wall
and CPU time, errors on the unlabeled rows."""

import sys
import time

import numpy as np
from sklearn.semi_supervised import LabelSpreading


def main():
    path, threads = sys.argv[1], int(sys.argv[2])
    t, c = time.perf_counter(), time.process_time()
    raw = np.fromfile(path, dtype="<f8")
    n, d, l = (int(v) for v in raw[:3])
    x = raw[3 : 3 + n * d].reshape(n, d)
    y = (raw[3 + n * d :] > 0).astype(int)  # classes 1 / 0: scikit-learn's -1 means unlabeled
    setup = (time.perf_counter() - t, time.process_time() - c)
    t, c = time.perf_counter(), time.process_time()
    target = y.copy()
    target[l:] = -1
    model = LabelSpreading(kernel="knn", n_neighbors=10, alpha=0.2, max_iter=30, n_jobs=threads)
    predicted = model.fit(x, target).transduction_[l:]
    solve = (time.perf_counter() - t, time.process_time() - c)
    errors = int((predicted != y[l:]).sum())
    print(
        f"RESULT setup_seconds={setup[0]:.4f} setup_cpu_seconds={setup[1]:.2f} solve_seconds={solve[0]:.4f} "
        f"solve_cpu_seconds={solve[1]:.2f} errors={errors} of={n - l} iterations={model.n_iter_}"
    )


if __name__ == "__main__":
    main()
