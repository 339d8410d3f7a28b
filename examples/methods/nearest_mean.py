"""Nearest class mean: the whole protocol of a `kind = "command"` method (docs/open-harness.md)."""
import json, sys
import numpy as np

d = sys.argv[1]                                   # the split's private folder
info = json.load(open(f"{d}/split.json"))         # classes, seed, split, n_test, params, ...
X_l, y_l = np.load(f"{d}/X_l.npy"), np.load(f"{d}/y_l.npy")   # y_l: class ids 0..C-1
shrink = info["params"].get("shrink", 0.0)        # any other key of the [[methods]] entry
means = np.array([X_l[y_l == c].mean(axis=0) for c in range(len(info["classes"]))])
means = means.mean(axis=0) + (1.0 - shrink) * (means - means.mean(axis=0))

def scores(X):                                    # one column per class; the largest wins
    return -((X[:, None, :] - means[None, :, :]) ** 2).sum(axis=2)

np.save(f"{d}/scores.npy", scores(np.load(f"{d}/X_u.npy")))
if info["n_test"]:                                # the split has held-out test rows
    np.save(f"{d}/test_scores.npy", scores(np.load(f"{d}/X_test.npy")))
