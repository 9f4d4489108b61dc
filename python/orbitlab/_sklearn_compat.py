"""The scikit-learn API the estimators use, from Debian 12's 1.2 to today's, in one place.

Input validation: sklearn.utils.validation.validate_data(estimator, X, y, ...) where scikit-learn
has it (1.6 and later; 1.7 removed the method), else the estimator's own _validate_data (1.2-1.5).
The function is looked up at each call, so a test can put a newer scikit-learn's in its place.

Tags: an estimator states its tags once, as the class attribute _orbit_tags in the old names
({"preserves_dtype": ["float32"], "requires_y": True}); TagsMixin hands them to both tag APIs:
_more_tags (before 1.6) and __sklearn_tags__ (1.6 and later, which reads only that one when a class
defines both). Put TagsMixin left of scikit-learn's mixins and BaseEstimator.
"""

import sklearn.utils.validation as _validation


def validate_data(estimator, X="no_validation", y="no_validation", **check_params):
    """check_array / check_X_y on X (and y), with n_features_in_ and feature_names_in_ set
    (reset=True, the default) or checked against the fit (reset=False)."""
    new = getattr(_validation, "validate_data", None)
    if new is not None:
        return new(estimator, X, y, **check_params)
    return estimator._validate_data(X, y, **check_params)


class TagsMixin:
    """_orbit_tags for scikit-learn's old and new tag APIs (see the module's doc)."""

    _orbit_tags = {}

    def _more_tags(self):
        return {key: list(value) if isinstance(value, list) else value for key, value in self._orbit_tags.items()}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        own = self._orbit_tags
        if "preserves_dtype" in own and tags.transformer_tags is not None:
            tags.transformer_tags.preserves_dtype = list(own["preserves_dtype"])
        if "requires_y" in own:
            tags.target_tags.required = bool(own["requires_y"])
        return tags
