"""LabelPropagation (Zhu & Ghahramani 2002) from scikit-learn as an sslab `command` method. The
entry's other keys are LabelPropagation's arguments (kernel = "knn" or "rbf", n_neighbors,
gamma, max_iter, ...); scores are the label distributions of the unlabeled rows."""
import numpy as np
import scipy.sparse as sp
from sklearn.semi_supervised import LabelPropagation

import sslab_split

info, X_l, y_l, X_u, X_test = sslab_split.load()
stack = sp.vstack if sp.issparse(X_l) else np.vstack
model = LabelPropagation(**info["params"]).fit(stack([X_l, X_u]), np.r_[y_l, -np.ones(X_u.shape[0], int)])
C = len(info["classes"])
scores = sslab_split.per_class(model.label_distributions_[len(y_l):], model.classes_, C)
test = None if X_test is None else sslab_split.per_class(model.predict_proba(X_test), model.classes_, C)
sslab_split.save(info, scores, test)
