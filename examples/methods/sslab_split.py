"""Reading a split written by sslab's `command` methods and saving the scores back
(docs/open-harness.md); shared by the scikit-learn scripts of this folder."""
import json
import os
import sys

import numpy as np


def load():
    """The split folder's info (split.json) and X_l, y_l, X_u, X_test (None without test rows)."""
    d = sys.argv[1]
    info = json.load(open(os.path.join(d, "split.json")))

    def features(name):
        if info["features"] == "npy":
            path = os.path.join(d, name + ".npy")
            return np.load(path) if os.path.exists(path) else None
        path = os.path.join(d, name + ".svm")
        if not os.path.exists(path):
            return None
        from sklearn.datasets import load_svmlight_file
        return load_svmlight_file(path, n_features=info["dim"])[0]

    y_l = np.load(os.path.join(d, "y_l.npy"))
    return info, features("X_l"), y_l, features("X_u"), features("X_test")


def per_class(proba, classes, n_classes):
    """Class probabilities with sklearn's `classes_` order mapped to sslab's class ids; a row
    without any probability (a point no label reaches) gets equal ones, so that its first
    class is predicted, as sklearn's argmax of a NaN row does."""
    out = np.zeros((proba.shape[0], n_classes))
    out[:, np.asarray(classes, dtype=int)] = proba
    out[~np.isfinite(out).all(axis=1)] = 1.0 / n_classes
    return out


def save(info, scores_u, scores_test=None):
    """Writes scores.npy and, when the split has test rows, test_scores.npy."""
    d = sys.argv[1]
    np.save(os.path.join(d, "scores.npy"), scores_u)
    if info["n_test"]:
        np.save(os.path.join(d, "test_scores.npy"), scores_test)
