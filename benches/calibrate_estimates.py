"""Fits the time model of `sslab validate --estimate` (src/protocol/estimate.rs, KINDS).

For every committed config (configs/*.toml and its subfolders whose experiment has a
results.csv under results/ or results/ablations/), `sslab validate CONFIG --estimate` gives
each method entry's kind, fits and summed cost terms (the split's points; `Method::fit_cost`,
one-vs-rest classes included; that cost times the classes beyond two; n²·dim); the
committed rows give its summed fit_seconds. Per kind, seconds per fit and per unit of each
term minimise the squared log ratio of their sum to the measured seconds over the configs
that hold the kind (Nelder-Mead from a grid of starts), then move jointly so that whole
configs come within 2x (`refine`).
Prints the KINDS table to paste and the per-config ratios (docs/estimates.md).

Usage: SSLAB_DATA_DIR=DATA python benches/calibrate_estimates.py SSLAB_BINARY
"""

import csv
import glob
import itertools
import math
import os
import re
import subprocess
import sys
from collections import defaultdict

import numpy as np
from scipy.optimize import minimize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"  method  (.*) \((\S+)\): (\d+) fits, cost (\S+) \(rows (\S+), classes (\S+), pairs (\S+)\), (\S+) s of one thread")
TERMS = 5  # per fit, per point, per flop, per flop × (classes − 2), per n²·dim


def committed():
    """(config, results.csv) of every config with committed results."""
    for config in sorted(glob.glob(f"{ROOT}/configs/*.toml") + glob.glob(f"{ROOT}/configs/*/*.toml")):
        name = re.search(r'^name\s*=\s*"(.*)"', open(config).read(), re.M)
        if not name:
            continue
        for folder in ("results", "results/ablations"):
            path = f"{ROOT}/{folder}/{name.group(1)}/results.csv"
            if os.path.exists(path):
                yield config, path


def measured(path):
    """Summed fit_seconds per method name."""
    total = defaultdict(float)
    with open(path) as f:
        for row in csv.DictReader(f):
            total[row["method"]] += float(row["fit_seconds"] or 0)
    return total


def refine(rates, per_kind, configs):
    """The per-kind rates moved jointly so that whole configs (several kinds each) come
    within 2x of their measured time: minimises the squared excess of each config's |log
    ratio| over log 1.8, plus a tenth of the per-kind loss above (which keeps each kind's
    own entries close), over the nonzero rates (L-BFGS on their logs)."""
    keys = [(k, i) for k in sorted(rates) for i in range(TERMS) if rates[k][i] > 0]
    x0 = np.log([rates[k][i] for k, i in keys])

    def unpack(x):
        r = {k: np.zeros(TERMS) for k in rates}
        for (k, i), v in zip(keys, x):
            r[k][i] = math.exp(v)
        return r

    def loss(x):
        r = unpack(x)
        total = 0.0
        for _, parts in configs:
            est = sum(float(np.dot(r[k], p[:TERMS])) for k, p in parts.items())
            act = sum(p[TERMS] for p in parts.values())
            if act > 0 and est > 0:
                total += max(0.0, abs(math.log(est / act)) - math.log(1.8)) ** 2
        for kind, rows in per_kind.items():
            for row in rows:
                if row[-1] > 0:
                    total += 0.1 * math.log(float(np.dot(r[kind], row[1:-1])) / row[-1]) ** 2
        return total

    best = minimize(loss, x0, method="L-BFGS-B")
    r = unpack(best.x)
    return {k: [float(v) for v in r[k]] for k in rates}


def main(binary):
    per_kind = defaultdict(list)  # kind -> [config, fits, cost, classes, pairs, seconds]
    configs = []
    for config, path in committed():
        out = subprocess.run([binary, "validate", config, "--estimate", "--threads", "1"],
                             capture_output=True, text=True, check=True).stdout
        seconds = measured(path)
        parts = defaultdict(lambda: [0.0] * (TERMS + 1))
        for name, kind, fits, cost, rows, classes, pairs, _ in LINE.findall(out):
            p = parts[kind]
            for i, v in enumerate((fits, rows, cost, classes, pairs)):
                p[i] += float(v)
            p[TERMS] += seconds[name]
        for kind, p in parts.items():
            per_kind[kind].append((config, *p))
        configs.append((config, dict(parts)))
    rates = {}
    for kind, rows in sorted(per_kind.items()):
        rows = [r for r in rows if r[-1] > 0]
        terms = np.array([r[1:-1] for r in rows], float)  # fits, rows, cost, classes, pairs
        secs = np.array([r[-1] for r in rows], float)
        used = terms.max(axis=0) > 0  # a term no config of the kind has stays at 0

        def loss(p, terms=terms, secs=secs, used=used):
            x = np.zeros(TERMS)
            x[used] = np.exp(np.minimum(p, 20))
            return float(np.sum(np.log(terms @ x / secs) ** 2))

        scales = [(-6, -2), (-16,), (-24, -20), (-30,), (-30,)]
        starts = [s for s in itertools.product(*(sc for sc, u in zip(scales, used) if u))]
        best = min((minimize(loss, s, method="Nelder-Mead",
                             options={"xatol": 1e-8, "fatol": 1e-12, "maxiter": 20000})
                    for s in starts), key=lambda r: r.fun)
        # A rate the fit drives to nothing (below 1 µs per fit, 1e-20 s per unit) is none.
        x = np.zeros(TERMS)
        x[used] = np.exp(best.x)
        floor = [1e-6, 1e-12, 1e-20, 1e-20, 1e-24]
        rates[kind] = [float(v) if v > f else 0.0 for v, f in zip(x, floor)]
    rates = refine(rates, per_kind, configs)
    print(f"pub const KINDS: &[(&str, [f64; {TERMS}])] = &[")
    for kind, r in rates.items():
        print(f'    ("{kind}", [{", ".join(f"{v:.3e}" for v in r)}]),')
    print("];")
    for config, parts in configs:
        est = sum(np.dot(rates[k], p[:TERMS]) for k, p in parts.items() if k in rates)
        act = sum(p[TERMS] for p in parts.values())
        ratio = est / act if act else math.nan
        print(f"{os.path.relpath(config, ROOT)}: estimate {est:.1f} s, measured {act:.1f} s, ratio {ratio:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
