"""The CSV of graph_peers.py (columns documented in docs/benchmarks.md) and its printed
table."""

import csv

COLUMNS = [
    "part", "n", "k", "tool", "method", "graph", "threads", "labels_per_class", "trials",
    "seconds", "cpu_seconds", "graph_seconds", "total_seconds", "accuracy", "accuracy_min",
    "accuracy_max", "versus", "differing_trials", "max_difference", "agreement", "speedup",
    "recall_at_10", "note", "load_before", "load_after", "commit",
]

def cell(v):
    if v is None or v == "":
        return ""
    if isinstance(v, float):
        if v == 0 or 0.01 <= abs(v) < 1e5:
            return f"{v:.4g}" if abs(v) < 1 else f"{v:.2f}"
        return f"{v:.3g}"
    return str(v)


def write_csv(path, rows):
    """Numbers to 6 significant digits; empty cells where a column does not apply."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="raise")
        w.writeheader()
        for r in rows:
            w.writerow({c: f"{r[c]:.6g}" if isinstance(r.get(c), float) else r.get(c, "")
                        for c in COLUMNS})


def find(rows, **match):
    """The first row holding every `match` value (None when none does)."""
    return next((r for r in rows if all(r.get(k) == v for k, v in match.items())), None)


def show(title, header, lines):
    widths = [max(len(h), *(len(x[i]) for x in lines)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for x in lines:
        print("  ".join(v.rjust(w) for v, w in zip(x, widths)))


def load(rows):
    return f"load {rows[0]['load_before']:.2f} → {rows[-1]['load_after']:.2f}"


def print_table(rows):
    """One table per part; seconds are medians per solve (per search or graph in `knn`)."""
    part = [r for r in rows if r["part"] == "knn"]
    show(f"kNN lists, k = 10 ({load(part)})", ["tool", "graph", "threads", "wall s", "CPU s",
                                                "recall@10"],
         [[r["tool"], r["graph"], str(r["threads"]), cell(r["seconds"]), cell(r["cpu_seconds"]),
           cell(r.get("recall_at_10"))] for r in part])
    part = [r for r in rows if r["part"] == "same_lists"]
    lines = []
    for m in dict.fromkeys(r["method"] for r in part):
        for rate in dict.fromkeys(r["labels_per_class"] for r in part):
            got = {(tool, t): find(part, method=m, labels_per_class=rate, tool=tool, threads=t)
                   for tool in ("sslab", "graphlearning") for t in (1, 2)}
            s1, g1 = got["sslab", 1], got["graphlearning", 1]
            lines.append([m, str(rate), str(s1["trials"]), cell(s1["accuracy"]),
                          cell(g1["accuracy"]), str(s1["differing_trials"]),
                          cell(s1["max_difference"]), f"{100 * s1['agreement']:.3f}"]
                         + [cell(got[k]["seconds"]) for k in (("sslab", 1), ("sslab", 2),
                                                               ("graphlearning", 1),
                                                               ("graphlearning", 2))])
    show(f"Laplace and Poisson on sslab's exact lists ({load(part)})",
         ["method", "labels/class", "trials", "acc sslab", "acc GL", "diff>0.1", "max diff",
          "agree %", "sslab s 1t", "sslab s 2t", "GL s 1t", "GL s 2t"], lines)
    part = [r for r in rows if r["part"] == "own_graph"]
    show(f"GraphLearning on its Annoy graph ({load(part)})",
         ["method", "labels/class", "accuracy", "|Δ| max vs sslab exact", "s per solve"],
         [[r["method"], str(r["labels_per_class"]), cell(r["accuracy"]),
           cell(r["max_difference"]), cell(r["seconds"])] for r in part])
    part = [r for r in rows if r["part"] == "sklearn"]
    lines = []
    for r in part:
        if r["tool"] != "sslab":
            continue
        theirs = find(part, n=r["n"], method=r["method"], tool="scikit-learn",
                      labels_per_class=r["labels_per_class"]) or {}
        lines.append([str(r["n"]), r["method"], str(r["labels_per_class"]), str(r["trials"]),
                      cell(theirs.get("accuracy")), cell(r["accuracy"]),
                      f"{100 * r['agreement']:.3f}" if r.get("agreement") is not None else "",
                      cell(theirs.get("graph_seconds")), cell(theirs.get("seconds")),
                      cell(r["graph_seconds"]), cell(r["seconds"]), cell(r.get("speedup"))])
    if part:
        show(f"scikit-learn's LabelSpreading/LabelPropagation against sslab ({load(part)})",
             ["n", "method", "labels/class", "trials", "acc skl", "acc sslab", "agree %",
              "skl graph s", "skl solve s", "sslab graph s", "sslab solve s", "speedup"], lines)
    notes = dict.fromkeys(f"{r['part']}: {r['note']}" for r in rows if r.get("note"))
    print("\nnotes:\n  " + "\n  ".join(notes))
