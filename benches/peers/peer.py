"""The peers' side of `make bench-peers`: one kernel per process, run by the venv's python.

Usage: peer.py KIND ARGS..., printing one line `RESULT key=value ...`:
- `qlds FILE`: QLDS(0.5, 1) fit + predict in numpy on the exported problem (median of 15
  wall and CPU times, the CPU time of the process's threads);
- `qlds-grid FILE`: QLDS(cv) in numpy on the exported problem, sslab's 10 stratified folds
  and 11 x 11 grid of [0, 1]^2, a d x d solve per fold and grid point, then the chosen
  point's fit + predict (one run: several seconds); QLDS(th) on the same grid, sslab's
  theory ported to Python, then the numpy fit;
- `blas`: numpy's version and its BLAS (threadpoolctl);
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

import math
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

    times, cpu = [], []
    for _ in range(15):
        t, c = time.perf_counter(), time.process_time()
        predicted = fit_predict()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    errors = int(np.sum(predicted != y_u))
    print(f"RESULT seconds={statistics.median(times):.5f} cpu_seconds={statistics.median(cpu):.5f} errors={errors} of={len(y_u)}")


def qlds_grid(path, folds=10, points=11):
    x, y, labeled = exported(path)
    rows, cols = x.shape
    y_l, y_u = y[:labeled], y[labeled:]
    grid = [i / (points - 1) for i in range(points)]
    # sslab's stratified folds: within each class, in sample order, the i-th point goes to
    # fold i mod K, K = min(folds, smallest class).
    positive = y_l > 0
    k = min(folds, int(positive.sum()), int((~positive).sum()))
    seen = {True: 0, False: 0}
    assign = []
    for v in positive:
        assign.append(seen[bool(v)] % k)
        seen[bool(v)] += 1
    assign = np.array(assign)

    def select():
        mean = x.mean(axis=0)
        cl, cu = x[:labeled] - mean, x[labeled:] - mean
        c_l, c_u = cl.T @ cl / rows, cu.T @ cu / rows
        shift = (1 + 1e-3) * np.linalg.eigvalsh(c_l + c_u)[-1] * np.eye(cols)
        mistakes = np.zeros((points, points))
        for f in range(k):
            train, test = assign != f, assign == f
            xt = cl[train]
            c_t, b = xt.T @ xt / rows, xt.T @ y_l[train] / np.sqrt(rows)
            for il, al in enumerate(grid):
                for iu, au in enumerate(grid):
                    if al > 0 or au > 0:
                        omega = np.linalg.solve(al * c_t - au * c_u + shift, b)
                        mistakes[il, iu] += np.sum((cl[test] @ omega >= 0) != (y_l[test] > 0))
        mistakes[0, 0] = np.inf
        il, iu = np.unravel_index(np.argmin(mistakes), mistakes.shape)  # the first minimum
        al, au = grid[il], grid[iu]
        omega = np.linalg.solve(al * c_l - au * c_u + shift, cl.T @ y_l / np.sqrt(rows))
        return al, au, np.where((x_u_raw @ omega - mean @ omega) / np.sqrt(rows) >= 0, 1.0, -1.0)

    def fit_predict(al, au):
        mean = x.mean(axis=0)
        cl, cu = x[:labeled] - mean, x[labeled:] - mean
        c_l, c_u = cl.T @ cl / rows, cu.T @ cu / rows
        shift = (1 + 1e-3) * np.linalg.eigvalsh(c_l + c_u)[-1] * np.eye(cols)
        omega = np.linalg.solve(al * c_l - au * c_u + shift, cl.T @ y_l / np.sqrt(rows))
        return np.where((x_u_raw @ omega - mean @ omega) / np.sqrt(rows) >= 0, 1.0, -1.0)

    def theory():
        mean = x.mean(axis=0)
        # sslab estimates the setting on its centred labeled rows plus the mean.
        al, au, _ = theory_select((x[:labeled] - mean) + mean, y_l, rows - labeled, cols, grid)
        return al, au, fit_predict(al, au)

    x_u_raw = x[labeled:]
    fields = []
    for name, run in (("cv", select), ("th", theory)):
        t = time.perf_counter()
        al, au, predicted = run()
        secs = time.perf_counter() - t
        fields.append(f"{name}_seconds={secs:.5f} {name}_alpha_l={al} {name}_alpha_u={au} {name}_errors={int(np.sum(predicted != y_u))}")
    print(f"RESULT {' '.join(fields)} of={len(y_u)}")


def normal_cdf(x):
    """sslab's Phi (Numerical Recipes' erfcc), so both tools rank the grid alike."""
    z = abs(x / math.sqrt(2))
    t = 1 / (1 + 0.5 * z)
    poly = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    r = t * math.exp(poly)
    return 0.5 * (r if -x >= 0 else 2 - r)


def top_eig_2x2(a):
    half = 0.5 * (a[0][0] + a[1][1])
    det = a[0][0] * a[1][1] - a[0][1] * a[1][0]
    return half + math.sqrt(max(half * half - det, 0.0))


def theory_error(cl, cu, c0, g, rho_u, al, au, lam):
    """Theorem 1 (isotropic) at one grid point, as sslab's `theory::predict`: None where invalid."""
    phi = lambda dl: [cu[k] * au / (1 - au * dl) - cl[k] * al / (1 + al * dl) for k in (0, 1)]
    delta = 0.0
    for _ in range(200_000):
        p = phi(delta)
        s = lam - p[0] - p[1]
        if not s > 0:
            return None
        nxt = c0 / s
        if not (au * nxt < 1 and 1 + al * nxt > 0):
            return None
        if abs(nxt - delta) <= 1e-13 * nxt:
            delta = nxt
            break
        delta = nxt
    else:
        return None
    p = phi(delta)
    s = lam - p[0] - p[1]
    pg = np.array([[p[0] * g[0][0], p[0] * g[0][1]], [p[1] * g[1][0], p[1] * g[1][1]]])
    if not s > top_eig_2x2(pg):
        return None
    rr = np.linalg.solve(s * np.eye(2) - pg, np.diag(p))
    b = np.eye(2) + rr @ g
    mqm = g @ b / s
    mq2m = b.T @ g @ b / (s * s)
    t2 = c0 / (s * s)
    psi_k = [cu[k] * au * au / (1 - au * delta) ** 2 + cl[k] * al * al / (1 + al * delta) ** 2 for k in (0, 1)]
    psi = psi_k[0] + psi_k[1]
    if not 1 - t2 * psi > 0:
        return None
    theta = t2 / (1 - t2 * psi)
    mid = mqm @ np.diag(psi_k) @ mqm
    a = 1 / (1 + al * delta)
    y = (1.0, -1.0)
    m = [sum(cl[k] * y[k] * a * mqm[k][j] for k in (0, 1)) for j in (0, 1)]
    var = theta * a * a * (cl[0] + cl[1])
    for k in (0, 1):
        for kk in (0, 1):
            h = (1 + theta * psi) * mq2m[k][kk] + theta * mid[k][kk]
            var += cl[k] * cl[kk] * y[k] * y[kk] * a * a * (h - 2 * al * theta * a * mqm[k][kk])
    sigma = math.sqrt(var) if var > 0 else float("nan")
    if not (math.isfinite(m[0]) and math.isfinite(m[1]) and sigma > 0):
        return None
    return sum(rho_u[j] * normal_cdf(-y[j] * m[j] / sigma) for j in (0, 1))


def theory_select(x_l, y_l, n_u, dim, grid, eps=1e-3):
    """QLDS(th) as sslab selects it: the setting from split halves of each labeled class
    rescaled to unit within-class variance, lambda_th = (1 + eps) * the edge of X X^T/n's
    spectrum, Theorem 1 over the grid; returns the first point of least predicted error."""
    classes = [x_l[y_l == c] for c in (1.0, -1.0)]
    halves = [x[: len(x) // 2].mean(axis=0) @ x[len(x) // 2 :].mean(axis=0) for x in classes]
    means = [x.mean(axis=0) for x in classes]
    g12 = means[0] @ means[1]
    var = sum(((x - m) ** 2).sum() for x, m in zip(classes, means)) / (max(len(y_l) - 2, 1) * dim)
    labeled = [len(x) for x in classes]
    u1 = round(n_u * labeled[0] / len(y_l))
    unlabeled = [u1, n_u - u1]
    n = len(y_l) + n_u
    rho = [(labeled[k] + unlabeled[k]) / n for k in (0, 1)]
    g0 = np.array([[halves[0], g12], [g12, halves[1]]])
    gr = g0 @ rho
    g = (g0 - gr[:, None] - gr[None, :] + rho @ gr) / var
    g = np.array([[max(g[0][0], 0.0), g[0][1]], [g[0][1], max(g[1][1], 0.0)]])
    cl, cu, c0 = [v / n for v in labeled], [v / n for v in unlabeled], dim / n
    rho_u = [v / n_u for v in unlabeled]
    # The edge of X X^T/n: (alpha_l, alpha_u) = (-1, 1) along the fixed point.
    lam_of = lambda dl: c0 / dl + sum(cu[k] / (1 - dl) + cl[k] / (1 - dl) for k in (0, 1))
    spike_ok = lambda dl: c0 / dl > top_eig_2x2([[(cu[k] + cl[k]) / (1 - dl) * g[k][j] for j in (0, 1)] for k in (0, 1)])
    lo, hi, inv = 0.0, 1.0, 0.5 * (math.sqrt(5) - 1)
    while hi - lo > 1e-14:
        a, b = hi - inv * (hi - lo), lo + inv * (hi - lo)
        if lam_of(a) < lam_of(b):
            hi = b
        else:
            lo = a
    dmin = 0.5 * (lo + hi)
    if spike_ok(dmin):
        edge = lam_of(dmin)
    else:
        lo, hi = 0.0, dmin
        while hi - lo > 1e-15:
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if spike_ok(mid) else (lo, mid)
        edge = lam_of(lo)
    lam = (1 + eps) * edge
    best = None
    for al in grid:
        for au in grid:
            e = theory_error(cl, cu, c0, g, rho_u, al, au, lam)
            if e is not None and (best is None or e < best[2]):
                best = (al, au, e)
    return best


def blas():
    from threadpoolctl import threadpool_info

    libs = [f"{i['internal_api']} {i['version']} ({i.get('architecture')}, {i.get('threading_layer')})" for i in threadpool_info() if i["user_api"] == "blas"]
    print(f"RESULT numpy={np.__version__} blas={'; '.join(libs).replace(' ', '_') or 'none'}")


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "qlds":
        qlds(args[0])
    elif kind == "qlds-grid":
        qlds_grid(args[0])
    elif kind == "blas":
        blas()
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
