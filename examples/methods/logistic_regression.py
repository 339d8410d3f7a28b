"""LogisticRegression from scikit-learn on the labeled rows only (the supervised baseline)
as an sslab `command` method. The entry's other keys are LogisticRegression's arguments
(C, penalty, ...; max_iter defaults to 1000)."""
from sklearn.linear_model import LogisticRegression

import sslab_split

info, X_l, y_l, X_u, X_test = sslab_split.load()
model = LogisticRegression(**{"max_iter": 1000, **info["params"]}).fit(X_l, y_l)
C = len(info["classes"])
scores = sslab_split.per_class(model.predict_proba(X_u), model.classes_, C)
test = None if X_test is None else sslab_split.per_class(model.predict_proba(X_test), model.classes_, C)
sslab_split.save(info, scores, test)
