"""The peers' side of `make bench-peers`: one kernel per process, run by the venv's python.

Usage: peer.py KIND ARGS..., printing one line `RESULT key=value ...`:
- `qlds FILE THREADS`: QLDS(0.5, 1) fit + predict in numpy on the exported problem (median of 15);
- `knn-sklearn FILE THREADS EDGES`, `knn-faiss FILE THREADS EDGES`: the k = 10 nearest
  neighbours of every USPS digit (scikit-learn brute force, faiss IndexFlatL2); the time
  covers the neighbour search only; `edges_differing` counts the edges of the union-
  symmetrised graph that differ from sslab's (EDGES: u32 pairs i < j);
- `liblinear DATA S EPS`: LIBLINEAR `-s S -e EPS` on the supervised sparse problem (C =
  1/(2λ), bias as a regularised constant feature); the times (wall, CPU) cover `train` only;
- `objective DATA FILE`: the primal objective of the weights in FILE (raw f64 or SVMlin's
  text weights file; the bias last).
The supervised problem is the sparse set's rows but the last, λ = 0.001, objective
λ/2 (‖w‖² + b²) + 1/2 Σ max(0, 1 − y (wᵀx + b))², computed here the same way for every tool.
"""

import os
import statistics
import sys
import time

import numpy as np

LAMBDA = 1e-3
DOCS, WORDS = 100_000, 50_000


def sparse_set(data):
    """The sparse set (SVMlin format) as a scipy CSR and ±1 labels; cached as .npz."""
    import scipy.sparse as sp

    cache = os.path.join(data, f"ex_{DOCS}.npz")
    if not os.path.exists(cache):
        indptr, indices, values = [0], [], []
        with open(os.path.join(data, f"ex_{DOCS}")) as f:
            for line in f:
                for item in line.split():
                    j, v = item.split(":")
                    indices.append(int(j) - 1)
                    values.append(float(v))
                indptr.append(len(indices))
        x = sp.csr_matrix((np.array(values), np.array(indices, dtype=np.int32), np.array(indptr)), shape=(len(indptr) - 1, WORDS))
        sp.save_npz(cache, x)
    x = sp.load_npz(cache).tocsr()
    y = np.loadtxt(os.path.join(data, f"lab_{DOCS}"))
    return x, y


def supervised(data):
    x, y = sparse_set(data)
    return x[:-1], y[:-1]


def objective(x, y, w, b):
    """The primal L2-SVM objective and the training errors of f(x) = wᵀx + b."""
    f = x @ w + b
    hinge = np.maximum(0.0, 1.0 - y * f)
    return LAMBDA / 2 * (w @ w + b * b) + 0.5 * hinge @ hinge, int(np.sum((f >= 0) != (y > 0)))


def read_weights(path):
    if path.endswith(".weights"):
        v = np.loadtxt(path)
    else:
        v = np.fromfile(path, dtype="<f8")
    w = np.zeros(WORDS)
    w[: len(v) - 1] = v[:-1]
    return w, v[-1]


def liblinear(data, solver, eps):
    from liblinear.liblinearutil import parameter, problem, train

    x, y = supervised(data)
    prob = problem(y, x)
    param = parameter(f"-s {solver} -c {1 / (2 * LAMBDA)} -B 1 -e {eps} -q")
    t, cpu = time.perf_counter(), time.process_time()
    model = train(prob, param)
    secs, cpu = time.perf_counter() - t, time.process_time() - cpu
    w, b = model.get_decfun()
    w, b = np.array(w), float(b)
    if model.get_labels()[0] != 1:  # decision values are for the first label seen
        w, b = -w, -b
    obj, errors = objective(x, y, w, b)
    print(f"RESULT seconds={secs:.4f} cpu_seconds={cpu:.4f} objective={float(obj)!r} errors={errors} of={len(y)}")


def exported(path):
    raw = np.fromfile(path, dtype="<f8")
    rows, cols, labeled = (int(v) for v in raw[:3])
    x = raw[3 : 3 + rows * cols].reshape(rows, cols)
    return x, raw[3 + rows * cols :], labeled


def union_edges(neighbours):
    """The edges i < j of the union-symmetrised kNN graph."""
    n, k = neighbours.shape
    i = np.repeat(np.arange(n), k)
    j = neighbours.ravel()
    a, b = np.minimum(i, j), np.maximum(i, j)
    return set(zip(a.tolist(), b.tolist()))


def knn(kind, path, threads, edges_file):
    x, _, _ = exported(path)
    k = 10
    if kind == "knn-sklearn":
        from sklearn.neighbors import NearestNeighbors

        t = time.perf_counter()
        nn = NearestNeighbors(n_neighbors=k, algorithm="brute", n_jobs=threads).fit(x)
        _, neighbours = nn.kneighbors()
        secs = time.perf_counter() - t
    else:
        import faiss

        faiss.omp_set_num_threads(threads)
        t = time.perf_counter()
        xf = np.ascontiguousarray(x, dtype=np.float32)
        index = faiss.IndexFlatL2(x.shape[1])
        index.add(xf)
        _, found = index.search(xf, k + 1)
        secs = time.perf_counter() - t
        # Drop each point itself (not always first when points repeat).
        neighbours = np.array([[j for j in row if j != i][:k] for i, row in enumerate(found)])
    ours = np.fromfile(edges_file, dtype="<u4").reshape(-1, 2)
    ours = set(zip(ours[:, 0].tolist(), ours[:, 1].tolist()))
    theirs = union_edges(neighbours)
    print(f"RESULT seconds={secs:.4f} edges={len(theirs)} edges_differing={len(ours ^ theirs)}")


def qlds(path):
    x, y, labeled = exported(path)
    rows, cols = x.shape
    y_l, y_u = y[:labeled], y[labeled:]
    x_l, x_u = x[:labeled], x[labeled:]

    def fit_predict(alpha_l=0.5, alpha_u=1.0, eps=1e-3):
        mean = x.mean(axis=0)
        cl, cu = x_l - mean, x_u - mean
        c_l, c_u = cl.T @ cl / rows, cu.T @ cu / rows
        lam = (1 + eps) * np.linalg.eigvalsh(c_l + c_u)[-1]
        a = alpha_l * c_l - alpha_u * c_u + lam * np.eye(cols)
        omega = np.linalg.solve(a, cl.T @ y_l / np.sqrt(rows))
        return np.where((x_u @ omega - mean @ omega) / np.sqrt(rows) >= 0, 1.0, -1.0)

    times = []
    for _ in range(15):
        t = time.perf_counter()
        predicted = fit_predict()
        times.append(time.perf_counter() - t)
    errors = int(np.sum(predicted != y_u))
    print(f"RESULT seconds={statistics.median(times):.5f} errors={errors} of={len(y_u)}")


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "qlds":
        qlds(args[0])
    elif kind.startswith("knn"):
        knn(kind, args[0], int(args[1]), args[2])
    elif kind == "liblinear":
        liblinear(args[0], int(args[1]), float(args[2]))
    elif kind == "objective":
        x, y = supervised(args[0])
        w, b = read_weights(args[1])
        obj, errors = objective(x, y, w, b)
        print(f"RESULT objective={float(obj)!r} errors={errors} of={len(y)}")
    else:
        sys.exit(f"unknown peer kernel {kind}")


if __name__ == "__main__":
    main()
