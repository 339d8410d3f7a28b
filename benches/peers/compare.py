"""Compares regenerated results.csv files with their committed versions, column by column.

Usage: python3 benches/peers/compare.py [--rev REV] results/X/results.csv ...
Prints, per file, the largest absolute difference of each numeric column and the number of
differing cells of every other column; timing columns (fit_seconds and any *_seconds) and
provenance columns (commit) are skipped. Exit status 1 when a compared column differs.
"""

import csv
import io
import subprocess
import sys

SKIP = {"commit"}


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def main():
    args = sys.argv[1:]
    rev = "HEAD"
    if args[:1] == ["--rev"]:
        rev, args = args[1], args[2:]
    differs = False
    for path in args:
        old = rows(subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout)
        new = rows(open(path).read())
        if len(old) != len(new):
            print(f"{path}: {len(old)} committed rows, {len(new)} now")
            differs = True
            continue
        key = lambda r: tuple((k, v) for k, v in r.items() if k not in SKIP and not k.endswith("seconds") and k not in ("error", "prbep"))
        old.sort(key=lambda r: str(key(r)))
        new.sort(key=lambda r: str(key(r)))
        report = []
        for col in old[0].keys():
            if col in SKIP or col.endswith("seconds"):
                continue
            a, b = [r[col] for r in old], [r.get(col) for r in new]
            try:
                diff = max((abs(float(x) - float(y)) for x, y in zip(a, b)), default=0.0)
                report.append(f"{col} {diff:.3g}")
                differs |= diff != 0.0
            except (TypeError, ValueError):
                n = sum(x != y for x, y in zip(a, b))
                report.append(f"{col} {n} cells")
                differs |= n != 0
        print(f"{path} ({len(new)} rows, max |new - committed|): " + ", ".join(report))
    sys.exit(1 if differs else 0)


if __name__ == "__main__":
    main()
