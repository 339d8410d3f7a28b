"""scikit-learn's own estimator checks over every sslab estimator.

The checks fit fully labeled data; TSVM, DA and GradientSSL need unlabeled rows (y == -1),
so they also run under a test-only subclass that hides the label of every third row of
``fit``: the same estimator code, with unlabeled rows present.
"""

import numpy as np
from sklearn.utils.estimator_checks import parametrize_with_checks

import sslab

NEEDS_UNLABELED = (
    "the check's y has no unlabeled row (-1): TSVM and DA refuse such a fit (`needs "
    "unlabeled rows`), GradientSSL needs their spread (λ_max(C_u) > 0); run below with a "
    "third of the rows unlabeled"
)
# Every check that fits fully labeled data and then inspects the fit.
FULLY_LABELED_FITS = [
    "check_classifier_data_not_an_array", "check_classifiers_train",
    "check_decision_proba_consistency", "check_dict_unchanged",
    "check_dont_overwrite_parameters", "check_dtype_object", "check_estimators_dtypes",
    "check_estimators_fit_returns_self", "check_estimators_nan_inf",
    "check_estimators_overwrite_params", "check_estimators_pickle",
    "check_f_contiguous_array_estimator", "check_fit2d_1feature", "check_fit2d_predict1d",
    "check_fit_check_is_fitted", "check_fit_idempotent", "check_fit_score_takes_y",
    "check_methods_sample_order_invariance", "check_methods_subset_invariance",
    "check_n_features_in", "check_n_features_in_after_fitting", "check_pipeline_consistency",
    "check_positive_only_tag_during_fit", "check_readonly_memmap_input",
    "check_supervised_y_2d",
]
SPARSE_FITS = [
    "check_estimator_sparse_array", "check_estimator_sparse_matrix", "check_estimator_sparse_tag"
]
MINUS_ONE = (
    "the check's binary labels are -1 and 1; -1 marks unlabeled rows "
    "(sklearn.semi_supervised's convention), which leaves one class"
)
TEN_ROWS = "the check fits 10 rows; the kNN graph needs more rows than k = 10"

# Checks expected to fail, per estimator class name, with the reason (docs/python.md lists
# them too).
EXPECTED_FAILED = {
    name: {"check_classifiers_classes": MINUS_ONE}
    for name in [cls.__name__ for cls in sslab.ESTIMATORS]
}
for name in ["LapRLS", "LapSVM", "TVRLS", "TVSVM", "CheegerRLS", "CheegerSVM", "Laplace",
             "Poisson", "GraphLapRLS", "GraphTVRLS", "GraphCheegerRLS"]:
    EXPECTED_FAILED[name].update(
        {"check_fit2d_1feature": TEN_ROWS, "check_estimators_nan_inf": TEN_ROWS}
    )
for name, checks in [
    ("TSVM", FULLY_LABELED_FITS + SPARSE_FITS),
    ("DA", FULLY_LABELED_FITS + SPARSE_FITS),
    ("GradientSSL", FULLY_LABELED_FITS),
]:
    EXPECTED_FAILED[name].update({c: NEEDS_UNLABELED for c in checks})
EXPECTED_FAILED["QLDS"]["check_fit_check_is_fitted"] = (
    "on this check's data no grid point is valid for select='th' (the theory has no value "
    "anywhere on the grid), which QLDS(th) reports as a ValueError"
)
EXPECTED_FAILED["QLDS"]["check_positive_only_tag_during_fit"] = (
    "on this check's three classes, one-vs-rest class 1 against the rest has no valid grid "
    "point for select='th', which QLDS(th) reports as a ValueError"
)
SPECTRAL_TRAIN = (
    "on this check's three classes one-vs-rest Spectral ranks the classes by the top "
    "eigenvector of the data, which the labels only orient: training accuracy below 0.83"
)
for suffix in ["", "(readonly_memmap=True)", "(readonly_memmap=True,X_dtype=float32)"]:
    EXPECTED_FAILED["Spectral"][f"check_classifiers_train{suffix}"] = SPECTRAL_TRAIN


def _hiding_third(cls):
    class HidingThird(cls):
        def fit(self, X, y):
            y = np.array(y, copy=True)
            if y.dtype.kind in "iuf":
                y[::3] = -1
            return super().fit(X, y)

    HidingThird.__name__ = HidingThird.__qualname__ = f"{cls.__name__}HidingThird"
    return HidingThird


TSVMHidingThird = _hiding_third(sslab.TSVM)
DAHidingThird = _hiding_third(sslab.DA)
GradientSSLHidingThird = _hiding_third(sslab.GradientSSL)
HIDING = [TSVMHidingThird, DAHidingThird, GradientSSLHidingThird]
WRAPPER = (
    "an artefact of the test-only wrapper: hiding every third label of this check's tiny "
    "or 2-d y leaves one class or no labeled row"
)
for cls in HIDING:
    EXPECTED_FAILED[cls.__name__] = {
        "check_classifiers_classes": MINUS_ONE,
        "check_fit_score_takes_y": WRAPPER,
        "check_supervised_y_2d": WRAPPER,
        "check_fit2d_1sample": WRAPPER,
    }


def _expected(estimator):
    return EXPECTED_FAILED.get(type(estimator).__name__, {})


@parametrize_with_checks(
    [cls() for cls in sslab.ESTIMATORS + tuple(HIDING)], expected_failed_checks=_expected
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
