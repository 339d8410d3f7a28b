"""An approximate kNN graph for `make bench-scale`: faiss's HNSW index (IndexHNSWFlat, 32
links per node, efConstruction 40, efSearch 64, f32) on the points `scale export N FILE`
wrote, k = 10 neighbours of every point, 1 thread. Usage: knn_faiss.py FILE. Prints
`RESULT key=value ...`: loading (set-up), build + search of all N (solve), and recall, the
fraction of the exact 10 nearest neighbours found, on the first 1,000 points (exact by
numpy in f64)."""

import sys
import time

import faiss
import numpy as np

K = 10


def main():
    faiss.omp_set_num_threads(1)
    t, c = time.perf_counter(), time.process_time()
    raw = np.fromfile(sys.argv[1], dtype="<f8")
    n, d = int(raw[0]), int(raw[1])
    x = raw[3 : 3 + n * d].reshape(n, d)
    x32 = np.ascontiguousarray(x, dtype=np.float32)
    setup = (time.perf_counter() - t, time.process_time() - c)
    t, c = time.perf_counter(), time.process_time()
    index = faiss.IndexHNSWFlat(d, 32)
    index.hnsw.efConstruction = 40
    index.add(x32)
    index.hnsw.efSearch = 64
    _, found = index.search(x32, K + 1)
    solve = (time.perf_counter() - t, time.process_time() - c)
    q, hits, norms = min(n, 1_000), 0, (x**2).sum(1)
    for a in range(0, q, 50):  # 50 queries at a time: 400 MB of distances at N = 10^6
        b = min(a + 50, q)
        dist = norms[a:b, None] - 2 * x[a:b] @ x.T + norms[None, :]
        dist[np.arange(b - a), np.arange(a, b)] = np.inf
        exact = np.argpartition(dist, K, axis=1)[:, :K]
        hits += sum(len(set(exact[i - a]) & set(found[i][found[i] != i][:K])) for i in range(a, b))
    print(
        f"RESULT setup_seconds={setup[0]:.4f} setup_cpu_seconds={setup[1]:.2f} solve_seconds={solve[0]:.4f} "
        f"solve_cpu_seconds={solve[1]:.2f} recall_at_10={hits / (q * K):.4f}"
    )


if __name__ == "__main__":
    main()
