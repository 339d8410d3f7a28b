"""SelfTrainingClassifier around LogisticRegression from scikit-learn as an sslab `command`
method. The key `C` goes to LogisticRegression, the entry's other keys to
SelfTrainingClassifier (threshold, criterion, k_best, max_iter)."""
import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.semi_supervised import SelfTrainingClassifier

import sslab_split

info, X_l, y_l, X_u, X_test = sslab_split.load()
params = dict(info["params"])
base = LogisticRegression(C=params.pop("C", 1.0), max_iter=1000)
stack = sp.vstack if sp.issparse(X_l) else np.vstack
model = SelfTrainingClassifier(base, **params).fit(stack([X_l, X_u]), np.r_[y_l, -np.ones(X_u.shape[0], int)])
C = len(info["classes"])
scores = sslab_split.per_class(model.predict_proba(X_u), model.classes_, C)
test = None if X_test is None else sslab_split.per_class(model.predict_proba(X_test), model.classes_, C)
sslab_split.save(info, scores, test)
