"""scikit-learn called directly on the rows of sslab's persisted splits, for
tests/it/sklearn_scripts.rs: argv = data.svm splits.csv; prints one line per (split, method):
`split method error test_error` (errors as fractions; the graph methods' unlabeled predictions
are their transduction_, the others' their predict). Independent of examples/methods/ (which go through sslab's files)."""
import sys

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression
from sklearn.semi_supervised import LabelPropagation, LabelSpreading, SelfTrainingClassifier

X, y = load_svmlight_file(sys.argv[1])
lines = open(sys.argv[2]).read().splitlines()
header = lines[0].split(",")
for line in lines[1:]:
    f = dict(zip(header, line.split(",")))
    idx = {k: np.array([int(i) for i in f[k].split()], dtype=int) for k in ("labeled", "unlabeled", "test")}
    X_l, y_l, X_u, y_u = X[idx["labeled"]], y[idx["labeled"]], X[idx["unlabeled"]], y[idx["unlabeled"]]
    X_t, y_t = X[idx["test"]], y[idx["test"]]
    both, masked = sp.vstack([X_l, X_u]), np.r_[y_l, -np.ones(len(y_u))]
    models = {
        "ls_knn": LabelSpreading(kernel="knn", n_neighbors=5, alpha=0.3).fit(both, masked),
        "ls_rbf": LabelSpreading(kernel="rbf", gamma=0.5).fit(both, masked),
        "lp_knn": LabelPropagation(kernel="knn", n_neighbors=5).fit(both, masked),
        "st_lr": SelfTrainingClassifier(LogisticRegression(C=1.0, max_iter=1000), threshold=0.8).fit(both, masked),
        "lr": LogisticRegression(C=10.0, max_iter=1000).fit(X_l, y_l),
    }
    for name, m in models.items():
        graph = name.startswith(("ls_", "lp_"))  # transductive: the labels spread to the rows
        pred_u = m.transduction_[len(y_l):] if graph else m.predict(X_u)
        print(f["split"], name, np.mean(pred_u != y_u), np.mean(m.predict(X_t) != y_t))
