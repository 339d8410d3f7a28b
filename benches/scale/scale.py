"""`make bench-scale`: time, CPU time and peak memory against N, one process per method and
size (so the peak resident memory the OS reports is that size's), 1 thread.

Parts (SCALE_PARTS, default "sparse graph"):
- sparse: multi-switch TSVM and DA on the documents of ../shared/bench/synth_sparse.py
  (N 100000 50: vocabulary 10^5, 50 words per document) for N = 10^3 ... 10^6, written once
  into $SCALE_DATA (default ~/.cache/sslab-scale-data) by synth_sparse_fast.py, which is
  checked byte for byte against the shared generator first;
- graph: Lap-RLS, TV-RLS, Cheeger-RLS (dense kernel, and low-rank: kernel_rank = RANK
  Nystrom landmarks, kernels lap_rls_nystrom ...), the exact kNN graph alone, and scikit-learn's
  LabelSpreading (kNN kernel, venv $SCALE_VENV, default ~/.cache/sslab-py-venv) on a
  two-class Gaussian mixture in 50 dimensions, N = 10^3 ... 10^5; an approximate (HNSW)
  kNN graph by faiss up to 10^6 (venv $SCALE_FAISS_VENV, default the one `make bench-peers`
  creates, ~/.cache/sslab-peers-venv; rows `skipped` without it); the graph-only family's
  sparse k = 10 graph alone (sparse_knn: exact search to 10^5, NN-descent above), Laplace and
  Poisson learning and TV-RLS on its nodes up to 10^6, and the same four on Fashion-MNIST's
  70,000 images (fashion_sparse_knn, fashion_laplace, ...; `make data DATASETS=fashion_mnist`).

Every run is capped by SCALE_CPU_LIMIT seconds of CPU time (default 1500), SCALE_TIMEOUT
seconds of wall time (default 7200: on a loaded machine wall time counts the other
processes' turns) and SCALE_MEMORY_GIB of address space (default 8); a run that hits one is
recorded as `timeout` or `oom`, and the method's larger sizes as `skipped`. SCALE_MAX_N drops larger sizes (to try the pipeline),
SCALE_THREADS="1 2" adds 2-thread rows; SCALE_METHODS="knn faiss" (kernels: tsvm da lap_rls
tv_rls cheeger_rls lap_rls_nystrom tv_rls_nystrom cheeger_rls_nystrom knn faiss sklearn sparse_knn
laplace poisson graph_tv_rls fashion_sparse_knn fashion_laplace fashion_poisson fashion_graph_tv_rls) and
SCALE_MIN_N rerun only those kernels and sizes,
replacing their rows and keeping the others. Writes $SCALE_OUT/{sparse,graph}.csv (default
results/scaling; columns in docs/scaling.md) after every run, then the figures into
$SCALE_FIGURES (default figures) with `scale plot`.

Usage: python3 benches/scale/scale.py SCALE_BINARY (or --tables: the CSVs as markdown, and
the dense and low-rank RLS methods side by side)
"""

import csv
import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

HOME = os.path.expanduser("~")
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
DATA = os.environ.get("SCALE_DATA", os.path.join(HOME, ".cache", "sslab-scale-data"))
VENV = os.environ.get("SCALE_VENV", os.path.join(HOME, ".cache", "sslab-py-venv"))
PY = os.path.join(VENV, "bin", "python")
FAISS_PY = os.path.join(os.environ.get("SCALE_FAISS_VENV", os.path.join(HOME, ".cache", "sslab-peers-venv")), "bin", "python")
OUT = os.environ.get("SCALE_OUT", os.path.join("results", "scaling"))
FIGURES = os.environ.get("SCALE_FIGURES", "figures")
TIMEOUT = float(os.environ.get("SCALE_TIMEOUT", "7200"))
CPU_LIMIT = int(os.environ.get("SCALE_CPU_LIMIT", "1500"))
MEMORY_GIB = float(os.environ.get("SCALE_MEMORY_GIB", "8"))
MAX_N = int(float(os.environ.get("SCALE_MAX_N", "1e6")))
MIN_N = int(float(os.environ.get("SCALE_MIN_N", "1")))
THREADS = [int(t) for t in os.environ.get("SCALE_THREADS", "1").split()]
PARTS = os.environ.get("SCALE_PARTS", "sparse graph").split()
# Kernels to rerun (e.g. "knn faiss"): the other methods' rows of the CSV are kept.
RERUN = os.environ.get("SCALE_METHODS", "").split()
SPARSE_SIZES = [1_000, 10_000, 100_000, 1_000_000]
GRAPH_SIZES = [1_000, 3_162, 10_000, 31_623, 100_000]
# The graph-only family (no kernel) goes on to 10^6 points.
SPARSE_GRAPH_SIZES = GRAPH_SIZES + [316_228, 1_000_000]
SPARSE_GRAPH = {"sparse_knn": "sparse kNN graph (GraphLearning weights)", "laplace": "Laplace learning (sparse graph)",
                "poisson": "Poisson learning (sparse graph)", "graph_tv_rls": "TV-RLS on the nodes (sparse graph)"}
# The same kernels on Fashion-MNIST's 70,000 images (`scale fashion KIND`; needs
# `make data DATASETS=fashion_mnist`), 5 labeled images per class.
FASHION = {kind: f"{name} on Fashion-MNIST" for kind, name in SPARSE_GRAPH.items()}
FASHION_SETTINGS = "Fashion-MNIST 70,000 x 784 pixels in [0, 1], the first 5 images of each class labeled; k=10 knn_gaussian mean graph, search auto; method defaults"
# Landmarks of the low-rank (Nystrom) kernel rows: 8 N m bytes per N x m factor (0.8 GB at
# N = 10^5), N m^2 flops for its r x r systems.
RANK = 1000
LOW_RANK = {f"{k}_nystrom": (k, f"{name} (Nystrom m={RANK})") for k, name in
            (("lap_rls", "Lap-RLS"), ("tv_rls", "TV-RLS"), ("cheeger_rls", "Cheeger-RLS"))}
SPARSE_SETTINGS = "synth_sparse.py N 100000 50 (seed 0); first 500 rows labeled; lambda=0.001 lambda_u=1 r=0.5"
GRAPH_SETTINGS = "GaussianMixture::symmetric(50, 2.0), seed 31, 100 labeled; k=10 self-tuning graph"
COLUMNS = [
    "part", "method", "n", "labeled", "unlabeled", "threads", "status", "wall_seconds", "cpu_seconds",
    "peak_mib", "setup_seconds", "setup_cpu_seconds", "solve_seconds", "solve_cpu_seconds", "errors",
    "of", "error", "notes", "load_before", "load_after", "config_hash", "commit", "date",
]


def sparse_data(n):
    """DATA/ex_n and lab_n, generated when missing (after the byte-for-byte check)."""
    if os.path.exists(os.path.join(DATA, f"lab_{n}")):
        return
    os.makedirs(DATA, exist_ok=True)
    checked = os.path.join(DATA, "fast_generator_checked")
    if not os.path.exists(checked):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            shared = os.path.abspath(os.path.join(SHARED, "bench", "synth_sparse.py"))
            subprocess.run([PY, shared, "2000", "100000", "50"], cwd=a, check=True)
            subprocess.run([PY, os.path.join(HERE, "synth_sparse_fast.py"), "2000", "100000", "50"], cwd=b, check=True)
            for f in ("ex_2000", "lab_2000"):
                if open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read():
                    sys.exit(f"synth_sparse_fast.py differs from the shared generator ({f})")
        open(checked, "w").write("synth_sparse_fast.py == synth_sparse.py at n = 2000\n")
    print(f"generating {n} documents into {DATA}", flush=True)
    subprocess.run([PY, os.path.join(HERE, "synth_sparse_fast.py"), str(n), "100000", "50"], cwd=DATA, check=True)


def limit():
    """The caps of a run: address space, and CPU seconds (SIGXCPU, then SIGKILL 10 s later)."""
    cap = int(MEMORY_GIB * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 10))


def run(cmd, threads):
    """Runs `cmd` under the caps; returns (status, fields of its RESULT line, wall, CPU, MiB)."""
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
        env[var] = str(threads)
    with tempfile.TemporaryFile("w+") as out:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, preexec_fn=limit)
        status = None
        while True:
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t > TIMEOUT:
                proc.kill()
                _, code, usage = os.wait4(proc.pid, 0)
                status = "timeout"
                break
            time.sleep(0.2)
        proc.returncode = os.waitstatus_to_exitcode(code)
        wall = time.perf_counter() - t
        out.seek(0)
        text = out.read()
    line = next((l for l in text.splitlines() if l.startswith("RESULT ")), "RESULT")
    fields = dict(kv.split("=", 1) for kv in line.split()[1:])
    if status is None:
        if proc.returncode == 0:
            status = "ok"
        elif proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            status = "timeout"
        elif "memory allocation" in text or "MemoryError" in text or "Unable to allocate" in text:
            status = "oom"
        else:
            status = "failed"
            print(text[-2000:], flush=True)
    return status, fields, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def commit():
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "src", "benches", "Cargo.toml"]).returncode
    return head + ("+dirty" if dirty else "") if head else "unknown"


def measure(rows, part, method, n, labeled, threads, cmd, settings):
    """One row: runs `cmd` unless the method already stopped at a smaller size."""
    row = dict(part=part, method=method, n=n, labeled=labeled, unlabeled=n - labeled, threads=threads)
    key = json.dumps(dict(part=part, method=method, n=n, threads=threads, settings=settings), sort_keys=True)
    row.update(config_hash=hashlib.sha256(key.encode()).hexdigest()[:16], commit=COMMIT)
    stopped = [r for r in rows if r["method"] == method and r["threads"] == threads and r["status"] != "ok"]
    row.update(load_before=f"{os.getloadavg()[0]:.2f}", date=time.strftime("%Y-%m-%d %H:%M:%S"))
    if stopped:
        row.update(status="skipped", notes=f"after {stopped[0]['status']} at N = {stopped[0]['n']}")
    else:
        status, f, wall, cpu, peak = run(cmd, threads)
        row.update(status=status, wall_seconds=f"{wall:.3f}", cpu_seconds=f"{cpu:.2f}", peak_mib=f"{peak:.1f}")
        for k in ("setup_seconds", "setup_cpu_seconds", "solve_seconds", "solve_cpu_seconds", "errors", "of"):
            row[k] = f.get(k, "")
        if status == "ok" and int(f.get("of") or 0) > 0:
            row["error"] = f"{int(f['errors']) / int(f['of']):.6f}"
        known = {*COLUMNS, "bytes"}
        row["notes"] = " ".join(f"{k}={v}" for k, v in f.items() if k not in known)
    row["load_after"] = f"{os.getloadavg()[0]:.2f}"
    rows.append(row)
    print(" ".join(f"{k}={row.get(k, '')}" for k in ("method", "n", "threads", "status", "wall_seconds", "cpu_seconds", "peak_mib", "error", "load_before")), flush=True)


def write(rows, name):
    """Writes the rows; with SCALE_METHODS or SCALE_MIN_N, in place of the file's rows of the
    same method, size and threads (the others kept)."""
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    if (RERUN or MIN_N > 1) and os.path.exists(path):
        key = lambda r: (r["method"], str(r["n"]), str(r.get("threads", "")))
        new = {key(r): r for r in rows}
        merged = [new.pop(key(old), old) for old in csv.DictReader(open(path))]
        rows = merged + list(new.values())
        # A method's rows together, in order of size: the method's first row places it.
        first = {}
        for i, r in enumerate(rows):
            first.setdefault(r["method"], i)
        rows.sort(key=lambda r: (first[r["method"]], int(r["n"]), str(r.get("threads", ""))))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, restval="", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def sparse(binary):
    rows = []
    for n in (n for n in SPARSE_SIZES if MIN_N <= n <= MAX_N):
        sparse_data(n)
        for kind, method in (("tsvm", "TSVM(S=10000)"), ("da", "DA")):
            if RERUN and kind not in RERUN:
                continue
            for th in THREADS:
                cmd = [binary, kind, DATA, str(n), "--threads", str(th)]
                measure(rows, "sparse", method, n, 500, th, cmd, SPARSE_SETTINGS)
                write(rows, "sparse.csv")


def graph(binary):
    rows = []
    # The graphs and scikit-learn first: sslab's methods at 10^4 cost the most (dense N x N).
    methods = [("knn", "exact kNN graph"), ("faiss", "HNSW kNN graph (faiss)"), ("sklearn", "LabelSpreading (scikit-learn)"),
               ("lap_rls", "Lap-RLS"), ("tv_rls", "TV-RLS"), ("cheeger_rls", "Cheeger-RLS")]
    methods += [(kind, name) for kind, (_, name) in LOW_RANK.items()]
    methods += list(SPARSE_GRAPH.items())
    methods += [(f"fashion_{kind}", name) for kind, name in FASHION.items()]
    has_faiss = subprocess.run([FAISS_PY, "-c", "import faiss"], capture_output=True).returncode == 0 if os.path.exists(FAISS_PY) else False
    for kind, method in methods:
        if RERUN and kind not in RERUN:
            continue
        # The approximate graph also at 10^6 points: what a graph method there would start from.
        sizes = GRAPH_SIZES + [1_000_000] if kind == "faiss" else GRAPH_SIZES
        if kind in SPARSE_GRAPH:
            sizes = SPARSE_GRAPH_SIZES
        if kind.startswith("fashion_"):
            sizes = [70_000]
        for n in (n for n in sizes if MIN_N <= n <= MAX_N):
            if kind == "faiss" and not has_faiss:
                rows.append(dict(part="graph", method=method, n=n, status="skipped", notes=f"no faiss in {FAISS_PY}"))
                continue
            points = os.path.join(DATA, f"mixture_{n}.f64")
            if kind in ("sklearn", "faiss") and not os.path.exists(points):
                subprocess.run([binary, "export", str(n), points], check=True, capture_output=True)
            for th in THREADS:
                if kind == "sklearn":
                    cmd = [PY, os.path.join(HERE, "label_spreading.py"), points, str(th)]
                elif kind == "faiss":
                    cmd = [FAISS_PY, os.path.join(HERE, "knn_faiss.py"), points]
                elif kind.startswith("fashion_"):
                    cmd = [binary, "fashion", kind.removeprefix("fashion_"), "--threads", str(th)]
                elif kind in LOW_RANK:
                    cmd = [binary, LOW_RANK[kind][0], str(n), "--rank", str(RANK), "--threads", str(th)]
                else:
                    cmd = [binary, kind, str(n), "--threads", str(th)]
                settings = GRAPH_SETTINGS + {"sklearn": "; alpha=0.2 max_iter=30", "faiss": "; HNSW32 efC=40 efS=64"}.get(
                    kind, f"; method defaults; kernel_rank={RANK}" if kind in LOW_RANK else "; method defaults")
                if kind in SPARSE_GRAPH:
                    settings = GRAPH_SETTINGS.replace("self-tuning", "knn_gaussian mean") + ", search auto; method defaults"
                if kind.startswith("fashion_"):
                    settings = FASHION_SETTINGS
                measure(rows, "graph", method, n, 50 if kind.startswith("fashion_") else 100, th, cmd, settings)
                write(rows, "graph.csv")


def tables():
    """One markdown table per CSV of OUT (also `scale.py --tables` alone)."""
    for name in ("sparse.csv", "graph.csv"):
        path = os.path.join(OUT, name)
        if not os.path.exists(path):
            continue
        print(f"\n{name} (1 thread; CPU and wall of the whole process; solve = the fit alone, CPU)\n")
        print("| method | N | status | CPU s | wall s | peak MiB | solve CPU s | error | notes | load |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in csv.DictReader(open(path)):
            error = f"{100 * float(r['error']):.2f} %" if r["error"] else ""
            print(f"| {r['method']} | {int(r['n']):,} | {r['status']} | {r['cpu_seconds']} | {r['wall_seconds']} | "
                  f"{r['peak_mib']} | {r['solve_cpu_seconds']} | {error} | {r['notes']} | {r['load_before']} |")
    compare()


def compare():
    """The dense and low-rank rows of each RLS method side by side (1 thread): what the
    approximation costs in error and saves in CPU time and memory."""
    path = os.path.join(OUT, "graph.csv")
    if not os.path.exists(path):
        return
    rows = {(r["method"], int(r["n"])): r for r in csv.DictReader(open(path)) if r.get("threads") == "1"}
    cell = lambda r, k: (f"{100 * float(r['error']):.2f} %" if k == "error" and r and r["error"] else
                         (r[k] if r and r["status"] == "ok" else (r["status"] if r else "")))
    print(f"\ndense kernel against Nystrom m={RANK} (1 thread; whole-process CPU s, peak MiB)\n")
    print("| method | N | error dense | error low-rank | CPU s dense | CPU s low-rank | MiB dense | MiB low-rank |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, (_, low_name) in LOW_RANK.items():
        dense_name = low_name.split(" (")[0]
        for n in GRAPH_SIZES:
            d, l = rows.get((dense_name, n)), rows.get((low_name, n))
            if d or l:
                print(f"| {dense_name} | {n:,} | {cell(d, 'error')} | {cell(l, 'error')} | {cell(d, 'cpu_seconds')} | "
                      f"{cell(l, 'cpu_seconds')} | {cell(d, 'peak_mib')} | {cell(l, 'peak_mib')} |")


COMMIT = commit()


def main():
    if sys.argv[1:] == ["--tables"]:
        return tables()
    binary = os.path.abspath(sys.argv[1])
    print(f"bench-scale {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, commit {COMMIT}, "
          f"load {os.getloadavg()[0]:.2f}, timeout {TIMEOUT:g} s, memory cap {MEMORY_GIB:g} GiB", flush=True)
    if "sparse" in PARTS:
        sparse(binary)
    if "graph" in PARTS:
        graph(binary)
    subprocess.run([binary, "plot", OUT, FIGURES], check=True)
    tables()


if __name__ == "__main__":
    main()
