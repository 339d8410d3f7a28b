"""Fits the time model of `sslab validate --estimate` (src/protocol/estimate.rs, KINDS).

For every committed config (configs/*.toml and its subfolders whose experiment has a
results.csv under results/ or results/ablations/), `sslab validate CONFIG --estimate` gives
each method entry's kind, fits and summed cost (`Method::fit_cost`, one-vs-rest classes
included); the committed rows give its summed fit_seconds. Per kind, seconds per fit `a`
and per unit of cost `b` minimise the squared log ratio of a·fits + b·cost to the measured
seconds over the configs that hold the kind (Nelder-Mead from a grid of starts). Prints
the KINDS table to paste and the per-config ratios (docs/estimates.md).

Usage: SSLAB_DATA_DIR=DATA python benches/calibrate_estimates.py SSLAB_BINARY
"""

import csv
import glob
import math
import os
import re
import subprocess
import sys
from collections import defaultdict

import numpy as np
from scipy.optimize import minimize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"  method  (.*) \((\S+)\): (\d+) fits, cost (\S+), (\S+) s of one thread")


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


def main(binary):
    per_kind = defaultdict(list)  # kind -> [config, fits, cost, seconds]
    configs = []
    for config, path in committed():
        out = subprocess.run([binary, "validate", config, "--estimate", "--threads", "1"],
                             capture_output=True, text=True, check=True).stdout
        seconds = measured(path)
        parts = defaultdict(lambda: [0, 0.0, 0.0])
        for name, kind, fits, cost, _ in LINE.findall(out):
            p = parts[kind]
            p[0] += int(fits)
            p[1] += float(cost)
            p[2] += seconds[name]
        for kind, (fits, cost, secs) in parts.items():
            per_kind[kind].append((config, fits, cost, secs))
        configs.append((config, dict(parts)))
    rates = {}
    for kind, rows in sorted(per_kind.items()):
        rows = [r for r in rows if r[3] > 0]
        fits, cost, secs = (np.array([r[i] for r in rows], float) for i in (1, 2, 3))

        def loss(p, fits=fits, cost=cost, secs=secs):
            a, b = np.exp(p)
            return float(np.sum(np.log((a * fits + b * cost) / secs) ** 2))

        starts = [(s, t) for s in (-12, -6, -2, 1) for t in (-30, -24, -20, -16)]
        best = min((minimize(loss, s, method="Nelder-Mead",
                             options={"xatol": 1e-8, "fatol": 1e-12, "maxiter": 20000})
                    for s in starts), key=lambda r: r.fun)
        # A rate the fit drives to nothing (below 1 µs per fit, 1e-20 s per unit) is none.
        a, b = np.exp(best.x)
        rates[kind] = (float(a) if a > 1e-6 else 0.0, float(b) if b > 1e-20 else 0.0)
    print("pub const KINDS: &[(&str, f64, f64)] = &[")
    for kind, (a, b) in rates.items():
        print(f'    ("{kind}", {a:.3e}, {b:.3e}),')
    print("];")
    for config, parts in configs:
        est = sum(rates[k][0] * f + rates[k][1] * c for k, (f, c, _) in parts.items() if k in rates)
        act = sum(s for _, _, s in parts.values())
        ratio = est / act if act else math.nan
        print(f"{os.path.relpath(config, ROOT)}: estimate {est:.1f} s, measured {act:.1f} s, ratio {ratio:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
