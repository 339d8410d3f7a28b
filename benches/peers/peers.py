"""`make bench-peers`: sslab next to the tools a user would pick instead, on the same data.

Each kernel runs as its own process (so its peak memory is the kernel's), sslab and the
peer alternated (sslab first on even repetitions), REPS times; the table gives medians,
the ratio sslab / peer and the load average when the row was measured.

Peers: numpy (QLDS) and scikit-learn brute force (kNN), installed by pip into
$PEERS_VENV (default ~/.cache/sslab-peers-venv) on first use. SVMlin v1.0 (C++) cannot be
fetched offline here: its rows compare against the times recorded in issue 20 on this
machine, labelled "recorded". The sparse set comes from ../shared/bench/synth_sparse.py
(100,000 documents x 50,000 words), generated once into $PEERS_DATA.

Usage: python3 benches/peers/peers.py SSLAB_PEERS_BINARY [KERNEL ...]
(kernels: svm tsvm da qlds knn; all by default). Environment: PEERS_REPS (default 3).
A peer process is this script run by the venv's python as `peers.py --peer KIND ...`.
"""

import os
import statistics
import subprocess
import sys
import time

HOME = os.path.expanduser("~")
VENV = os.environ.get("PEERS_VENV", os.path.join(HOME, ".cache", "sslab-peers-venv"))
DATA = os.environ.get("PEERS_DATA", os.path.join(HOME, ".cache", "sslab-peers-data"))
HERE = os.path.dirname(os.path.abspath(__file__))
SYNTH = os.path.join(HERE, "..", "..", "..", "shared", "bench", "synth_sparse.py")
PY = os.path.join(VENV, "bin", "python")

# SVMlin v1.0 (C++, -O3) on this machine, issue 20: seconds and peak MiB (not rerun here).
RECORDED = {"svm": (2.91, 63.0), "tsvm": (25.3, 63.0), "da": (38.8, 63.0)}


def peer(kind, path, threads):
    """Runs one peer kernel in this (venv) process and prints its RESULT line."""
    import numpy as np

    raw = np.fromfile(path, dtype="<f8")
    rows, cols, labeled = (int(v) for v in raw[:3])
    x = raw[3 : 3 + rows * cols].reshape(rows, cols)
    if kind == "knn":
        from sklearn.neighbors import NearestNeighbors

        t = time.perf_counter()
        nn = NearestNeighbors(n_neighbors=10, algorithm="brute", n_jobs=threads).fit(x)
        nn.kneighbors()
        print(f"RESULT seconds={time.perf_counter() - t:.4f}")
        return
    y_l = raw[3 + rows * cols :]
    x_l, x_u = x[:labeled], x[labeled:]

    def qlds(alpha_l=0.5, alpha_u=1.0, eps=1e-3):
        n = rows
        mean = x.mean(axis=0)
        cl, cu = x_l - mean, x_u - mean
        c_l, c_u = cl.T @ cl / n, cu.T @ cu / n
        lam = (1 + eps) * np.linalg.eigvalsh(c_l + c_u)[-1]
        a = alpha_l * c_l - alpha_u * c_u + lam * np.eye(cols)
        omega = np.linalg.solve(a, cl.T @ y_l / np.sqrt(n))
        return np.where((x_u @ omega - mean @ omega) / np.sqrt(n) >= 0, 1.0, -1.0)

    times = []
    for _ in range(15):
        t = time.perf_counter()
        qlds()
        times.append(time.perf_counter() - t)
    print(f"RESULT seconds={statistics.median(times):.5f}")


def setup():
    """The venv with numpy and scikit-learn, and the sparse set."""
    if not os.path.exists(PY):
        print(f"creating {VENV} (pip install numpy scikit-learn)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([PY, "-m", "pip", "install", "-q", "numpy", "scikit-learn"], check=True)
    os.makedirs(DATA, exist_ok=True)
    if not os.path.exists(os.path.join(DATA, "lab_100000")):
        print(f"generating the sparse set into {DATA} (about a minute)", flush=True)
        subprocess.run([PY, os.path.abspath(SYNTH), "100000", "50000", "50"], cwd=DATA, check=True)


def run(cmd, env_threads):
    """Runs `cmd`; returns its RESULT fields with the peak memory (MiB) of the process."""
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
        env[var] = str(env_threads)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{out}")
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    fields = dict(kv.split("=", 1) for kv in line.split()[1:])
    fields["peak_mib"] = usage.ru_maxrss / 1024.0
    fields["process_cpu_s"] = f"{usage.ru_utime + usage.ru_stime:.2f}"
    return fields


def fmt(v, unit):
    return f"{v * 1e3:.1f} ms" if unit == "ms" else f"{v:.2f} s"


def main():
    binary, kernels = sys.argv[1], sys.argv[2:] or ["svm", "tsvm", "da", "qlds", "knn"]
    reps = int(os.environ.get("PEERS_REPS", "3"))
    setup()
    qlds_file, knn_file = os.path.join(DATA, "qlds_d400.f64"), os.path.join(DATA, "usps.f64")
    if "qlds" in kernels:
        run([binary, "qlds-export", qlds_file], 1)
    if "knn" in kernels:
        run([binary, "knn-export", knn_file], 1)
    plan = []  # (row name, sslab command, peer command or None, threads, unit, recorded key)
    for k in ("svm", "tsvm", "da"):
        if k in kernels:
            for t in (1, 2):
                plan.append((f"{k} sparse, {t} thread(s)", [binary, k, DATA, "--threads", str(t)], None, t, "s", k))
    if "qlds" in kernels:
        for t in (1, 2):
            peer_cmd = [PY, __file__, "--peer", "qlds", qlds_file, str(t)]
            plan.append((f"QLDS fit+predict d=400 n=2000, {t} thread(s)", [binary, "qlds", "--threads", str(t)], peer_cmd, t, "ms", None))
    if "knn" in kernels:
        for t in (1, 2):
            peer_cmd = [PY, __file__, "--peer", "knn", knn_file, str(t)]
            plan.append((f"kNN k=10 USPS 9298x256, {t} thread(s)", [binary, "knn", "--threads", str(t)], peer_cmd, t, "s", None))
    print(f"| kernel | sslab (median of {reps}) | sslab peak MiB | peer | peer peak MiB | sslab / peer | load (1 min) | notes |")
    print("|---|---|---|---|---|---|---|---|")
    for name, ours_cmd, peer_cmd, threads, unit, recorded in plan:
        ours, theirs, loads = [], [], []
        for rep in range(reps):
            order = [("ours", ours_cmd), ("peer", peer_cmd)]
            if rep % 2:
                order.reverse()
            for who, cmd in order:
                if cmd is None:
                    continue
                loads.append(os.getloadavg()[0])
                (ours if who == "ours" else theirs).append(run(cmd, threads))
        t_ours = statistics.median(float(r["seconds"]) for r in ours)
        m_ours = statistics.median(r["peak_mib"] for r in ours)
        extra = {k: v for k, v in ours[0].items() if k not in ("seconds", "peak_mib", "process_cpu_s")}
        extra["process_cpu_s"] = statistics.median(float(r["process_cpu_s"]) for r in ours)
        notes = " ".join(f"{k}={v}" for k, v in extra.items())
        if recorded:
            t_peer, m_peer = RECORDED[recorded]
            peer_txt, mem_txt = f"SVMlin {t_peer:.2f} s (recorded, 1 thread)", f"58–68 (recorded)"
            ratio = f"{t_ours / t_peer:.2f} (mem {m_ours / m_peer:.2f})"
        else:
            t_peer = statistics.median(float(r["seconds"]) for r in theirs)
            m_peer = statistics.median(r["peak_mib"] for r in theirs)
            lib = "numpy" if "qlds" in peer_cmd else "scikit-learn brute"
            peer_txt, mem_txt, ratio = f"{lib} {fmt(t_peer, unit)}", f"{m_peer:.0f}", f"{t_ours / t_peer:.2f}"
        spread = f"{fmt(min(float(r['seconds']) for r in ours), unit)}–{fmt(max(float(r['seconds']) for r in ours), unit)}"
        print(f"| {name} | {fmt(t_ours, unit)} ({spread}) | {m_ours:.0f} | {peer_txt} | {mem_txt} | {ratio} | {statistics.median(loads):.2f} | {notes} |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        peer(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
