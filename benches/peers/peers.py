"""`make bench-peers`: sslab next to the tools a user would pick instead, all run live here.

Each kernel runs as its own process (so its peak memory is the kernel's), sslab and the
peer alternated (sslab first on even repetitions), PEERS_REPS times (default 3); tables give
medians, ratios sslab / peer and the 1-minute load average while the row was measured.

Peers: SVMlin v1.0 built from ../shared/bench/peers/svmlin-1.0 (build.sh, g++ -O3) into
~/.cache/svmlin-1.0 (rows SKIPPED without g++); numpy, scikit-learn, liblinear-official and
faiss-cpu installed by pip into $PEERS_VENV (default ~/.cache/sslab-peers-venv). The sparse
set comes from ../shared/bench/synth_sparse.py (100,000 documents x 50,000 words, or $PEERS_DOCS, generated
once into $PEERS_DATA, default ~/.cache/sslab-peers-data); USPS from data/ when fetched,
else from the mirror ../shared/data. Nothing is written into the repository.

Usage: python3 benches/peers/peers.py SSLAB_PEERS_BINARY [KERNEL ...]
(kernels: svm tsvm da cli-svm cli-tsvm cli-da liblinear qlds knn; all by default). The peer processes are
benches/peers/peer.py run by the venv's python.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HOME = os.path.expanduser("~")
VENV = os.environ.get("PEERS_VENV", os.path.join(HOME, ".cache", "sslab-peers-venv"))
DATA = os.environ.get("PEERS_DATA", os.path.join(HOME, ".cache", "sslab-peers-data"))
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
PY = os.path.join(VENV, "bin", "python")
PEER = os.path.join(HERE, "peer.py")
PACKAGES = ["numpy", "scipy", "scikit-learn", "liblinear-official", "faiss-cpu", "threadpoolctl"]
DOCS = int(os.environ.get("PEERS_DOCS", 100_000))  # documents of the sparse set
GAP = 1e-6  # relative objective gap of the supervised L2-SVM rows


def setup():
    """The venv, SVMlin (None without g++), the sparse set with its label files, USPS's folder."""
    if not os.path.exists(PY):
        print(f"creating {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = "import numpy, scipy, sklearn, liblinear.liblinearutil, faiss, threadpoolctl"
    if subprocess.run([PY, "-c", probe], capture_output=True).returncode != 0:
        print(f"pip install {' '.join(PACKAGES)} into {VENV}", flush=True)
        subprocess.run([PY, "-m", "pip", "install", "-q", *PACKAGES], check=True)
    svmlin = None
    if shutil.which("g++"):
        build = os.path.join(SHARED, "bench", "peers", "svmlin-1.0", "build.sh")
        out = subprocess.run(["bash", build], capture_output=True, text=True, check=True).stdout
        svmlin = out.strip().splitlines()[-1]
    os.makedirs(DATA, exist_ok=True)
    lab = os.path.join(DATA, f"lab_{DOCS}")
    if not os.path.exists(lab):
        print(f"generating the sparse set into {DATA} (about a minute)", flush=True)
        synth = os.path.abspath(os.path.join(SHARED, "bench", "synth_sparse.py"))
        subprocess.run([PY, synth, str(DOCS), "50000", "50"], cwd=DATA, check=True)
    labels = open(lab).read().split()
    for name, labeled in (("lab_svm", DOCS - 1), ("lab_ssl", 1_000)):
        with open(os.path.join(DATA, name), "w") as f:
            f.write("".join(f"{v}\n" for v in labels[:labeled]) + "0\n" * (DOCS - labeled))
    usps = "data" if os.path.exists(os.path.join("data", "usps", "usps.h5")) else os.path.join(SHARED, "data")
    return svmlin, labels, usps


def run(cmd, threads=1, cwd=None, env_extra=None):
    """Runs `cmd`; returns its first RESULT line's fields with the process's wall and CPU
    time, peak memory (MiB) and full output."""
    env = dict(os.environ, **(env_extra or {}))
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
        env[var] = str(threads)
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed ({os.waitstatus_to_exitcode(status)}): {' '.join(cmd)}\n{out[-3000:]}")
    line = next((l for l in out.splitlines() if l.startswith("RESULT ")), "RESULT")
    fields = dict(kv.split("=", 1) for kv in line.split()[1:])
    cpu = usage.ru_utime + usage.ru_stime
    fields.update(process=wall, process_cpu=cpu, peak_mib=usage.ru_maxrss / 1024.0, output=out)
    return fields


def svmlin_run(svmlin, kind, labels):
    """SVMlin on the sparse set: its own solver time (CPU time, from clock()), and errors
    from its outputs file."""
    algo, lab = {"svm": ("1", "lab_svm"), "tsvm": ("2", "lab_ssl"), "da": ("3", "lab_ssl")}[kind]
    work = os.path.join(DATA, "svmlin-run")
    os.makedirs(work, exist_ok=True)
    cmd = [svmlin, "-A", algo, "-W", "0.001", "-U", "1", "-R", "0.5", os.path.join(DATA, f"ex_{DOCS}"), os.path.join(DATA, lab)]
    r = run(cmd, cwd=work)
    # -A 1 reports its Newton solve; -A 2 and 3 report "... took T seconds." for the whole solve.
    took = re.findall(r"took ([0-9.e+-]+) seconds", r["output"]) or re.findall(r"converged.* and ([0-9.e+-]+) seconds", r["output"])
    r["cpu_seconds"] = took[-1]
    scores = [float(v) for v in open(os.path.join(work, f"ex_{DOCS}.outputs")).read().split()]
    rows = range(DOCS - 1) if kind == "svm" else range(1_000, DOCS)
    r["errors"] = sum((scores[i] >= 0) != (float(labels[i]) > 0) for i in rows)
    r["of"] = len(rows)
    r["weights"] = os.path.join(work, f"ex_{DOCS}.weights")
    return r


def alternate(reps, *runs):
    """Runs the callables alternated (in turn, the order reversed every other repetition);
    returns each one's results, then the median load."""
    outs, loads = [[] for _ in runs], []
    for rep in range(reps):
        order = list(zip(outs, runs))
        for out, f in order if rep % 2 == 0 else order[::-1]:
            loads.append(os.getloadavg()[0])
            out.append(f())
    return (*outs, statistics.median(loads))


def med(results, key):
    return statistics.median(float(r[key]) for r in results)


def sparse_rows(binary, kernels, reps, svmlin, labels):
    """Solver CPU time (SVMlin's timer counts CPU time: on a busy machine wall times are not
    comparable), whole process CPU and wall time, peak memory, errors."""
    if not {"svm", "tsvm", "da"} & set(kernels):
        return
    print("\n### MFN, TSVM, DA against SVMlin (1 thread)\n")
    print("| task | solver CPU sslab / SVMlin | ratio | process CPU sslab / SVMlin | ratio | process wall sslab / SVMlin | peak MiB sslab / SVMlin | errors sslab / SVMlin | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    targets = []
    for kind in ("svm", "tsvm", "da"):
        if kind not in kernels:
            continue
        ours = lambda: run([binary, kind, DATA, "--threads", "1"])
        if svmlin is None:
            o, _, load = alternate(reps, ours, lambda: None)
            print(f"| {kind} | {med(o, 'cpu_seconds'):.2f} s / SKIPPED (no g++) | | {med(o, 'process_cpu'):.2f} s / – | | {med(o, 'process'):.2f} s / – | {med(o, 'peak_mib'):.0f} / – | {o[0]['errors']} / – | {load:.2f} |", flush=True)
            continue
        # The same problem with the diagonal preconditioner (`precondition = true`) and by dual
        # CD (`solver = "dual_cd"`, epsilon = 0.001: TSVM's and DA's default; for the SVM
        # within the gap of the LIBLINEAR table), each in turn with SVMlin.
        variants = [("precondition", ["--precondition"]), ("dual CD", ["--dual-cd", "0.001"])]
        extra = [lambda a=a: run([binary, kind, DATA, "--threads", "1", *a]) for _, a in variants]
        o, t, *others, load = alternate(reps, ours, lambda: svmlin_run(svmlin, kind, labels), *extra)
        fastest = []
        for name, mine in ((kind, o), *((f"{kind}, {v}", r) for (v, _), r in zip(variants, others))):
            pairs = [(med(mine, k), med(t, k)) for k in ("cpu_seconds", "process_cpu", "process", "peak_mib")]
            (s_o, s_t), (c_o, c_t), (w_o, w_t), (m_o, m_t) = pairs
            print(f"| {name} ({mine[0]['of']} scored) | {s_o:.2f} / {s_t:.2f} s | {s_o / s_t:.2f} | {c_o:.2f} / {c_t:.2f} s | {c_o / c_t:.2f} | {w_o:.2f} / {w_t:.2f} s | {m_o:.0f} / {m_t:.0f} ({m_o / m_t:.2f}) | {mine[0]['errors']} / {t[0]['errors']} | {load:.2f} |", flush=True)
            if int(mine[0]["errors"]) == int(t[0]["errors"]):
                fastest.append((s_o / s_t, name))
        targets.append(f"{kind}: " + (f"{min(fastest)[1]} {min(fastest)[0]:.2f}" if fastest else "no variant with SVMlin's errors"))
    if targets:
        print(f"\nFastest solver with SVMlin's errors, ÷ SVMlin's solver time (target ≤ 0.5): {'; '.join(targets)}", flush=True)


CLI_CONFIG = """[experiment]
name = "peers_cli_{kind}"
seed = 1
splits = 1

[[datasets]]
name = "sparse"
kind = "svmlight"
path = "{path}"
features = 50000
labeled = {labeled}
unlabeled = "rest"

[[methods]]
kind = "{method}"
lambda = 0.001
{extra}
"""


def cli_rows(binary, kernels, reps, svmlin, labels):
    """The command line's peak memory on the same set (as SVMlin-format text turned into one
    SVMlight file): `sslab run -j 1` of a one-split config, 1,000 labeled rows for TSVM and
    DA and all but 1,000 for the SVM (a split needs both classes among its unlabeled rows), drawn
    by the config's seed, so its errors differ from the rows above. Kernels cli-svm,
    cli-tsvm, cli-da."""
    sslab = os.path.join(os.path.dirname(os.path.dirname(binary)), "sslab")
    svm_file = os.path.join(DATA, f"sparse_{DOCS}.svm")
    if not os.path.exists(svm_file):
        with open(os.path.join(DATA, f"ex_{DOCS}")) as ex, open(svm_file, "w") as out:
            out.writelines(f"{y} {line}" for y, line in zip(labels, ex))
    print("\n### The command line's peak memory (`sslab run -j 1`, one split of the same set)\n")
    print("| task | sslab run peak MiB | SVMlin peak MiB | ratio | sslab run wall | unlabeled error | load |")
    print("|---|---|---|---|---|---|---|")
    for kind in ("svm", "tsvm", "da"):
        if f"cli-{kind}" not in kernels:
            continue
        method, labeled, extra = {"svm": ("linear_svm", DOCS - 1_000, ""), "tsvm": ("tsvm", 1_000, "lambda_u = 1.0\nr = 0.5"), "da": ("da", 1_000, "lambda_u = 1.0\nr = 0.5")}[kind]
        # The default solver (dual CD) and SVMlin's own (MFN, `solver = "mfn"`), a config each.
        for name, solver in [(f"{kind}, default (dual CD)", ""), (f"{kind}, MFN", '\nsolver = "mfn"')]:
            tag = kind + ("_mfn" if solver else "")
            config = os.path.join(DATA, f"peers_cli_{tag}.toml")
            with open(config, "w") as f:
                f.write(CLI_CONFIG.format(kind=tag, path=svm_file, labeled=labeled, method=method, extra=extra + solver))
            out = os.path.join(DATA, "cli-out")
            ours = lambda: run([sslab, "run", "--force", "-q", "-j", "1", config, "-o", out])
            theirs = (lambda: svmlin_run(svmlin, kind, labels)) if svmlin else (lambda: None)
            o, t, load = alternate(reps, ours, theirs)
            rows = open(os.path.join(out, f"peers_cli_{tag}", "results.csv")).read().splitlines()
            error = float(dict(zip(rows[0].split(","), rows[1].split(",")))["error"]) * 100
            m_o = med(o, "peak_mib")
            m_t = med(t, "peak_mib") if svmlin else float("nan")
            print(f"| {name} | {m_o:.0f} | {m_t:.0f} | {m_o / m_t:.2f} | {med(o, 'process'):.2f} s | {error:.2f} % | {load:.2f} |", flush=True)


def liblinear_rows(binary, reps, svmlin, labels):
    """The supervised L2-SVM at an equal relative objective gap: each LIBLINEAR solver at the
    loosest -e (10^-1, 10^-2, ...) whose objective is within GAP of the best one found."""
    objective = lambda w: run([PY, PEER, "objective", DATA, w])
    lib = lambda s, e: run([PY, PEER, "liblinear", DATA, str(s), str(e)])
    out = os.path.join(DATA, "sslab_svm.f64")
    ours = lambda: run([binary, "svm", DATA, "--threads", "1", "--out", out])
    first = ours()
    found = {"sslab": float(objective(out)["objective"]), "reference": float(lib(2, 1e-10)["objective"])}
    if svmlin is not None:
        theirs = svmlin_run(svmlin, "svm", labels)
        found["SVMlin"] = float(objective(theirs["weights"])["objective"])
    best = min(found.values())
    gap = lambda v: (v - best) / abs(best)
    print(f"\n### Supervised L2-SVM against LIBLINEAR (1 thread; relative objective gap ≤ {GAP:g}, best objective {best!r})\n")
    print("| solver | setting | gap | solver CPU | ratio sslab / this | process wall | peak MiB | errors | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    pre_out = os.path.join(DATA, "sslab_svm_pre.f64")
    pre = lambda: run([binary, "svm", DATA, "--threads", "1", "--precondition", "--out", pre_out])
    rows, o, o_pre = [], [], []
    for s in (1, 2):
        eps = next(e for e in (10.0 ** -p for p in range(1, 11)) if gap(float(lib(s, e)["objective"])) <= GAP)
        mine, t, mine_pre, load = alternate(reps, ours, lambda: lib(s, eps), pre)
        o += mine
        o_pre += mine_pre
        rows.append((f"LIBLINEAR -s {s}", f"-e {eps:g}", t, load))
    pre_gap = gap(float(objective(pre_out)["objective"]))
    # sslab's dual coordinate descent, at its loosest ε within the gap like LIBLINEAR's.
    cd_out = os.path.join(DATA, "sslab_svm_cd.f64")
    cd = lambda e: run([binary, "svm", DATA, "--threads", "1", "--dual-cd", str(e), "--out", cd_out])
    cd_eps = next(e for e in (10.0 ** -p for p in range(1, 11)) if cd(e) and gap(float(objective(cd_out)["objective"])) <= GAP)
    cd_gap = gap(float(objective(cd_out)["objective"]))
    cd_runs, cd_load = [cd(cd_eps) for _ in range(reps)], os.getloadavg()[0]
    t_ours = med(o, "cpu_seconds")
    print(f"| sslab l2-SVM-MFN | default | {gap(found['sslab']):.1e} | {t_ours:.2f} s | 1 | {med(o, 'process'):.2f} s | {med(o, 'peak_mib'):.0f} | {first['errors']} | {load:.2f} |")
    t_pre = med(o_pre, "cpu_seconds")
    print(f"| sslab l2-SVM-MFN | precondition = true | {pre_gap:.1e} | {t_pre:.2f} s | {t_ours / t_pre:.2f} | {med(o_pre, 'process'):.2f} s | {med(o_pre, 'peak_mib'):.0f} | {o_pre[0]['errors']} | {load:.2f} |")
    print(f"| sslab dual CD | epsilon = {cd_eps:g} | {cd_gap:.1e} | {med(cd_runs, 'cpu_seconds'):.2f} s | {t_ours / med(cd_runs, 'cpu_seconds'):.2f} | {med(cd_runs, 'process'):.2f} s | {med(cd_runs, 'peak_mib'):.0f} | {cd_runs[0]['errors']} | {cd_load:.2f} |")
    if svmlin is not None:
        t = float(theirs["cpu_seconds"])
        print(f"| SVMlin L2-SVM-MFN (one run) | default | {gap(found['SVMlin']):.1e} | {t:.2f} s | {t_ours / t:.2f} | {theirs['process']:.2f} s | {theirs['peak_mib']:.0f} | {theirs['errors']} | {os.getloadavg()[0]:.2f} |")
    for name, setting, t, load in rows:
        g = gap(statistics.median(float(r["objective"]) for r in t))
        print(f"| {name} | {setting} | {g:.1e} | {med(t, 'cpu_seconds'):.2f} s | {t_ours / med(t, 'cpu_seconds'):.2f} | {med(t, 'process'):.2f} s | {med(t, 'peak_mib'):.0f} | {t[0]['errors']} | {load:.2f} |", flush=True)
    # The target's ratio: sslab's fastest solver against LIBLINEAR's faster one, each within the gap.
    mine = {"MFN": t_ours, "MFN, precondition = true": t_pre, "dual CD": med(cd_runs, "cpu_seconds")}
    mine = {k: v for k, v in mine.items() if k != "MFN, precondition = true" or pre_gap <= GAP}
    theirs_best = min((med(t, "cpu_seconds"), name) for name, _, t, _ in rows)
    ours_best = min((v, k) for k, v in mine.items())
    print(f"\nFastest within the gap: sslab {ours_best[1]} {ours_best[0]:.2f} s / {theirs_best[1]} {theirs_best[0]:.2f} s = **{ours_best[0] / theirs_best[0]:.2f}**", flush=True)


def dense_rows(binary, kernels, reps, usps):
    knn_file, edges = (os.path.join(DATA, f) for f in ("usps.f64", "usps_edges.u32"))
    env = {"SSLAB_DATA_DIR": usps}
    if "qlds" in kernels:
        info = run([PY, PEER, "blas"])
        versus = f"numpy {info['numpy']} on {info['blas'].replace('_', ' ')}, one BLAS thread per sslab thread"
        qlds_file = lambda d: os.path.join(DATA, f"qlds_d{d}.f64")
        print(f"\n### QLDS(0.5, 1) fit + predict, n = 2,000 (100 labeled), median of 15 in-process, against {versus}\n")
        print("| d | threads | sslab | numpy | ratio | CPU sslab / numpy | CPU ratio | errors sslab / numpy | load | sslab notes |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for d in (100, 400, 1000):
            run([binary, "qlds-export", qlds_file(d), "--dim", str(d)])
            for th in (1, 2):
                o, t, load = alternate(reps, lambda: run([binary, "qlds", "--dim", str(d), "--threads", str(th)], th), lambda: run([PY, PEER, "qlds", qlds_file(d)], th))
                notes = " ".join(f"{k}={v}" for k, v in o[0].items() if k.startswith("cov") or k.startswith("peak_g"))
                cpu = med(o, 'cpu_seconds'), med(t, 'cpu_seconds')
                print(f"| {d} | {th} | {med(o, 'seconds') * 1e3:.1f} ms | {med(t, 'seconds') * 1e3:.1f} ms | {med(o, 'seconds') / med(t, 'seconds'):.2f} | {cpu[0] * 1e3:.1f} / {cpu[1] * 1e3:.1f} ms | {cpu[0] / cpu[1]:.2f} | {o[0]['errors']} / {t[0]['errors']} of {o[0]['of']} | {load:.2f} | {notes} |", flush=True)
        print(f"\n### QLDS(cv) (10 folds) and QLDS(th) over the 11 x 11 grid of [0, 1]², one split, d = 400, n = 2,000 (100 labeled), selection and final fit + predict, against {versus} (cv: a d x d solve per fold and grid point; th: sslab's theory ported to Python, then the numpy fit)\n")
        print("| threads | policy | sslab | numpy | ratio | chosen (α_l, α_u) sslab / numpy | errors sslab / numpy | load |")
        print("|---|---|---|---|---|---|---|---|")
        for th in (1, 2):
            o, t, load = alternate(reps, lambda: run([binary, "qlds-grid", "--dim", "400", "--threads", str(th)], th), lambda: run([PY, PEER, "qlds-grid", qlds_file(400)], th))
            print(f"| {th} | cv | {med(o, 'cv_seconds') * 1e3:.1f} ms | {med(t, 'cv_seconds') * 1e3:.1f} ms | {med(o, 'cv_seconds') / med(t, 'cv_seconds'):.3f} | ({o[0]['cv_alpha_l']}, {o[0]['cv_alpha_u']}) / ({t[0]['cv_alpha_l']}, {t[0]['cv_alpha_u']}) | {o[0]['cv_errors']} / {t[0]['cv_errors']} of {o[0]['of']} | {load:.2f} |", flush=True)
            print(f"| {th} | th | {med(o, 'th_seconds') * 1e3:.1f} ms | {med(t, 'th_seconds') * 1e3:.1f} ms | {med(o, 'th_seconds') / med(t, 'th_seconds'):.3f} | ({o[0]['th_alpha_l']}, {o[0]['th_alpha_u']}) / ({t[0]['th_alpha_l']}, {t[0]['th_alpha_u']}) | {o[0]['th_errors']} / {t[0]['th_errors']} of {o[0]['of']} | {load:.2f} |", flush=True)
    if "knn" in kernels:
        run([binary, "knn-export", knn_file], env_extra=env)
        run([binary, "knn", "--out", edges], env_extra=env)
        print("\n### Exact k = 10 kNN graph of all 9,298 USPS digits (sslab: with weights and symmetrisation; peers: neighbours only)\n")
        print("| threads | sslab | scikit-learn brute | faiss IndexFlatL2 | sslab / sklearn | sslab / faiss | edges differing from sslab's (sklearn, faiss) | load |")
        print("|---|---|---|---|---|---|---|---|")
        for th in (1, 2):
            ours = lambda: run([binary, "knn", "--threads", str(th)], th, env_extra=env)
            o, sk, load1 = alternate(reps, ours, lambda: run([PY, PEER, "knn-sklearn", knn_file, str(th), edges], th))
            o2, fa, load2 = alternate(reps, ours, lambda: run([PY, PEER, "knn-faiss", knn_file, str(th), edges], th))
            t = med(o + o2, "seconds")
            print(f"| {th} | {t:.3f} s | {med(sk, 'seconds'):.3f} s | {med(fa, 'seconds'):.3f} s | {t / med(sk, 'seconds'):.2f} | {t / med(fa, 'seconds'):.2f} | {sk[0]['edges_differing']}, {fa[0]['edges_differing']} of {sk[0]['edges']} | {max(load1, load2):.2f} |", flush=True)


def main():
    binary = sys.argv[1]
    kernels = sys.argv[2:] or ["svm", "tsvm", "da", "cli-svm", "cli-tsvm", "cli-da", "liblinear", "qlds", "knn"]
    reps = int(os.environ.get("PEERS_REPS", "3"))
    svmlin, labels, usps = setup()
    print(f"bench-peers {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, PEERS_REPS={reps}, SVMlin: {svmlin or 'SKIPPED (g++ missing)'}")
    sparse_rows(binary, kernels, reps, svmlin, labels)
    if any(k.startswith("cli-") for k in kernels):
        cli_rows(binary, kernels, reps, svmlin, labels)
    if "liblinear" in kernels:
        liblinear_rows(binary, reps, svmlin, labels)
    dense_rows(binary, kernels, reps, usps)


if __name__ == "__main__":
    main()
