#!/usr/bin/env python3
"""Wall and CPU time of each make target given (default: those of `make reproduce-tables
svmlin-tables`), run one after the other, with the machine's load: a Markdown table on stdout.

Usage: python3 benches/harness.py [TARGET...]  (`make bench-harness`; the build is done first,
so no target pays for it). The targets rerun into results/ with --force: only the timing
columns (fit_seconds, times.md) change; `git checkout -- results` puts them back.
"""

import os
import resource
import subprocess
import sys
import time

TARGETS = ["qlds-tables", "qlds-table1", "qlds-table4", "tv-tables", "svmlin-tables"]


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    targets = sys.argv[1:] or TARGETS
    print(f"cores: {os.cpu_count()}, load at start: {os.getloadavg()[0]:.2f}\n")
    print("| target | wall | CPU (user+sys) | CPU / wall | load (1 min) before, after |")
    print("|---|---|---|---|---|")
    total_wall = total_cpu = 0.0
    for t in targets:
        before, cpu0, t0 = os.getloadavg()[0], cpu_of_children(), time.monotonic()
        done = subprocess.run(["make", "--no-print-directory", t], stdout=subprocess.DEVNULL)
        wall, cpu = time.monotonic() - t0, cpu_of_children() - cpu0
        if done.returncode != 0:
            sys.exit(f"make {t} failed (exit {done.returncode})")
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        after = os.getloadavg()[0]
        print(f"| {t} | {wall:.0f} s | {cpu:.0f} s | {cpu / wall:.2f} | {before:.2f}, {after:.2f} |")
    print(f"| all | {total_wall:.0f} s ({total_wall / 60:.1f} min) | {total_cpu:.0f} s | "
          f"{total_cpu / total_wall:.2f} | |")


if __name__ == "__main__":
    main()
