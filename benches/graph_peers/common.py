"""Helpers shared by graph_peers.py and sklearn_part.py: labeled sets, subprocesses with
thread variables, accuracies and agreement, and the rows of each part."""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
RATES = [1, 2, 3, 4, 5]
# Every command's JSON line is appended here when set (graph_peers.py: WORK/runs.jsonl).
LOG = None


def draw_trials(y, per_rate, seed):
    """per_rate labeled sets for each rate (that many labels per class), one generator for
    all; one row per set, padded with -1."""
    rng = np.random.default_rng(seed)
    classes = np.unique(y)
    sets, rates = [], []
    for rate in RATES:
        for _ in range(per_rate):
            sets.append(np.concatenate([rng.choice(np.flatnonzero(y == c), rate, replace=False)
                                        for c in classes]))
            rates.append(rate)
    table = np.full((len(sets), max(map(len, sets))), -1, dtype=np.int64)
    for r, s in enumerate(sets):
        table[r, :len(s)] = s
    return table, np.array(rates)


def run_json(cmd, threads=None, timeout=None):
    """Runs a command (thread variables set when `threads` is given) and returns its last
    line as JSON."""
    env = dict(os.environ)
    if threads is not None:
        for var in ("RAYON_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                    "OPENBLAS_NUM_THREADS"):
            env[var] = str(threads)
    done = subprocess.run([str(c) for c in cmd], env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if LOG is not None:
        with open(LOG, "a") as f:
            f.write(json.dumps({"cmd": [str(c) for c in cmd], "threads": threads,
                                "result": result}) + "\n")
    return result


def peer(*args, threads=None, timeout=None):
    return run_json([sys.executable, HERE / "peer.py", *args], threads, timeout)


def accuracies(preds, y, trials):
    """Accuracy (%) on each trial's unlabeled points."""
    out = []
    for p, row in zip(preds, trials):
        mask = np.ones(len(y), dtype=bool)
        mask[row[row >= 0]] = False
        out.append(100.0 * np.mean(p[mask] == y[mask]))
    return np.array(out)


def agreement(a, b, trials, unlabeled_only):
    """Mean over trials of the fraction of points (or unlabeled points) predicted alike."""
    fractions = []
    for p, q, row in zip(a, b, trials):
        mask = np.ones(a.shape[1], dtype=bool)
        if unlabeled_only:
            mask[row[row >= 0]] = False
        fractions.append(np.mean(p[mask] == q[mask]))
    return float(np.mean(fractions))


class Part:
    """Rows of one part, stamped with the load average before and after it."""

    def __init__(self, name, n, commit):
        self.name, self.n, self.commit = name, n, commit
        self.load_before = os.getloadavg()[0]
        self.rows = []

    def add(self, **row):
        self.rows.append({"part": self.name, "n": self.n, "commit": self.commit, **row})

    def close(self, rows):
        after = os.getloadavg()[0]
        for r in self.rows:
            r["load_before"], r["load_after"] = self.load_before, after
        rows.extend(self.rows)


def per_rate(part, rates, trials, y, preds, times, other=None, unlabeled_only=True, **fixed):
    """One row per rate and one for all rates: median time per solve, accuracies, and
    against `other` (predictions of another tool, named by `versus`) the trials whose accuracy differs by > 0.1 point,
    the largest difference and the agreement on the unlabeled points (on all points when
    not `unlabeled_only`)."""
    acc = accuracies(preds, y, trials)
    other_acc = accuracies(other, y, trials) if other is not None else None
    for rate in RATES + ["all"]:
        sel = np.ones(len(rates), bool) if rate == "all" else rates == rate
        row = dict(fixed, labels_per_class=rate, trials=int(sel.sum()),
                   seconds=float(np.median(np.asarray(times[0])[sel])),
                   cpu_seconds=float(np.median(np.asarray(times[1])[sel])),
                   accuracy=float(acc[sel].mean()), accuracy_min=float(acc[sel].min()),
                   accuracy_max=float(acc[sel].max()))
        if other is not None:
            diff = np.abs(acc[sel] - other_acc[sel])
            row.update(differing_trials=int((diff > 0.1).sum()), max_difference=float(diff.max()),
                       agreement=agreement(preds[sel], other[sel], trials[sel], unlabeled_only))
        part.add(**row)
