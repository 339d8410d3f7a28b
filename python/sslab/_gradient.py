"""The Adam-trained linear losses of the QLDS paper's Table 4."""

import numpy as np

from ._base import BinaryDecisionMixin, SemiSupervisedClassifier


class GradientSSL(BinaryDecisionMixin, SemiSupervisedClassifier):
    """A labeled loss plus an unlabeled margin loss, linear, trained by Adam (Table 4).

    The CLI tunes (α_l, α_u, lambda_scale) by the oracle over a grid, which needs the
    unlabeled truth; ``fit(X, y)`` does not have it, so each of the three takes one value
    (a number, or a list of one). The defaults are a valid point, not a tuned one. With no
    unlabeled row the unlabeled loss is empty and λ is ``lambda_scale`` times the top
    eigenvalue of the labeled rows' second moments: the supervised problem.

    Parameters
    ----------
    loss : {"square", "smooth_hinge", "logistic"}, default="square"
        Loss of the labeled rows.
    unlabeled : {"quadratic_margin", "smooth_abs_margin"}, default="quadratic_margin"
        Loss of the unlabeled rows.
    alpha_l : float, default=1.0
        Weight of the labeled loss (> 0).
    alpha_u : float, default=0.5
        Weight of the unlabeled loss (≥ 0; below ``lambda_scale`` for the quadratic margin).
    lambda_scale : float, default=1.0
        λ as a multiple of the top eigenvalue of the unlabeled second moments (> 0).
    learning_rate, weight_decay, tolerance : float, default=None
        Adam's settings (crate defaults when None).
    iterations, batch : int, default=None
        Adam's iteration cap and batch size.
    n_jobs : int, default=None
        Threads of the fit.

    Attributes
    ----------
    classes_, n_features_in_, transduction_, unlabeled_scores_, fit_seconds_ : see :class:`sslab.QLDS`.

    Examples
    --------
    >>> import numpy as np
    >>> from sslab import GradientSSL
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(1, 1, (30, 4)), rng.normal(-1, 1, (30, 4))]
    >>> y = np.r_[[1] * 2 + [-1] * 28, [0] * 2 + [-1] * 28]
    >>> GradientSSL(loss="logistic").fit(X, y).predict(X[:2]).shape
    (2,)
    """

    _kind = "gradient"

    def __init__(self, loss="square", unlabeled="quadratic_margin", alpha_l=1.0, alpha_u=0.5,
                 lambda_scale=1.0, learning_rate=None, weight_decay=None, iterations=None,
                 tolerance=None, batch=None, n_jobs=None):
        self.loss = loss
        self.unlabeled = unlabeled
        self.alpha_l = alpha_l
        self.alpha_u = alpha_u
        self.lambda_scale = lambda_scale
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.iterations = iterations
        self.tolerance = tolerance
        self.batch = batch
        self.n_jobs = n_jobs

    def _params(self):
        table = super()._params()
        for key in ("alpha_l", "alpha_u", "lambda_scale"):
            value = table.get(key)
            if value is None:
                continue
            values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
            if len(values) != 1:
                raise ValueError(
                    f"{key}: one value (the oracle over a grid needs the unlabeled truth), "
                    f"got {len(values)}"
                )
            table[key] = [v.item() if isinstance(v, np.generic) else v for v in values]
        return table
