"""Bayesian linear regression on features with the evidence-chosen precisions (the core's
BayesianLinearRegression, PRML 3.5): a classifier (one-hot targets, van der Wilk et al. 2018) and a
regressor (standardised targets), and the learners of saved ridge, svm and krr models."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from . import _orbitlab
from ._common import FLOAT_DTYPES, printer, threads_of
from ._sklearn_compat import validate_data


class _EvidenceLinear(BaseEstimator):
    """t = F w + noise with w ~ N(0, alpha^-1 I), noise ~ N(0, beta^-1): the posterior mean weights
    at the alpha, beta that maximise the log evidence (MacKay's fixed point from alpha_init,
    beta_init). fit_intercept appends a constant feature 1 (its weight shares the prior).

    Fitted: coef_, intercept_, alpha_, beta_, log_evidence_ (of the coded targets),
    effective_parameters_ (gamma), n_iter_, converged_; weights_ (D x C) and bias_ (C) in the
    coded units, the parts a saved model keeps."""

    def __init__(self, alpha_init=1.0, beta_init=1.0, fit_intercept=True, max_iter=1000, tol=1e-9, n_jobs=None,
                 verbose=0):
        self.alpha_init = alpha_init
        self.beta_init = beta_init
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _fit_coded(self, X, y, num_classes):
        for name in ("alpha_init", "beta_init", "tol"):
            v = getattr(self, name)
            if not isinstance(v, numbers.Real) or not v > 0:
                raise ValueError(f"{name}: must be a positive number (value '{v}')")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"max_iter: must be a positive integer (value '{self.max_iter}')")
        F = X
        if self.fit_intercept:
            F = np.hstack([X, np.ones((X.shape[0], 1), dtype=X.dtype)])
        r = _orbitlab.blr_fit(F, y.tolist(), num_classes, float(self.alpha_init), float(self.beta_init), True,
                              int(self.max_iter), float(self.tol), threads_of(self.n_jobs),
                              printer(self.verbose, type(self).__name__))
        W = r["weights"]
        d = X.shape[1]
        self.weights_ = np.ascontiguousarray(W[:d])
        self.bias_ = W[d].copy() if self.fit_intercept else np.zeros(W.shape[1])
        self.coding_ = r["coding"]
        self.alpha_ = r["alpha"]
        self.beta_ = r["beta"]
        self.log_evidence_ = r["log_evidence"]
        self.effective_parameters_ = r["effective_parameters"]
        self.n_iter_ = r["iterations"]
        self.converged_ = r["converged"]

    def _scores(self, X):
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return _orbitlab.linear_scores(X, self.weights_, self.bias_)


class BayesianLinearClassifier(ClassifierMixin, _EvidenceLinear):
    """Classes as one-hot target columns sharing alpha and beta (the evidence summed over the
    columns); predicts the class of the largest posterior-mean output. Any labels scikit-learn
    takes (numbers or strings); classes_ holds them in sorted order."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=FLOAT_DTYPES, y_numeric=False)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"y: a classifier needs at least 2 classes; only one class is present (value '{self.classes_[0]}')")
        self._fit_coded(X, codes, len(self.classes_))
        self.coef_ = self.weights_.T
        self.intercept_ = self.bias_
        return self

    def decision_function(self, X):
        """The posterior-mean outputs, n_samples x n_classes (one-hot units); for two classes the
        difference of the second's and the first's (positive: classes_[1]), as scikit-learn has it."""
        s = self._scores(X)
        return s[:, 1] - s[:, 0] if s.shape[1] == 2 else s

    def predict(self, X):
        # argmax with the lowest index winning ties, as the core and orbitlab-cli predict decide.
        s = self._scores(X)
        return self.classes_[np.argmax(s, axis=1)]


class BayesianLinearRegressor(RegressorMixin, _EvidenceLinear):
    """One target, standardised ((t - mean) / std) for the evidence; predictions mean + std * f.
    coef_ and intercept_ are in the targets' units."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=FLOAT_DTYPES, y_numeric=True)
        y = column_or_1d(y, warn=True).astype(np.float64)
        self._fit_coded(X, y, 0)
        scale, mean = self.coding_["scale"], self.coding_["mean"]
        self.coef_ = scale * self.weights_[:, 0]
        self.intercept_ = mean + scale * self.bias_[0]
        return self

    def predict(self, X):
        s = self._scores(X)[:, 0]
        return self.coding_["mean"] + self.coding_["scale"] * s


class SavedLinearModel(ClassifierMixin, BaseEstimator):
    """The learner of a model saved by `orbitlab-cli train --learner ridge|svm ... --save-model`:
    decision values F W + b, classes by their argmax, regression targets mean + scale * f. It
    predicts with the saved weights; refit a learner of this package (or the CLI) to train anew."""

    def __init__(self, learner="ridge"):
        self.learner = learner

    def fit(self, X, y=None):
        raise NotImplementedError(f"learner: a saved {self.learner} model predicts, it is not refitted here "
                                  "(fit BayesianLinearClassifier / BayesianLinearRegressor, or train with orbitlab-cli)")

    def decision_function(self, X):
        """F W + b: n_samples x outputs (orbitlab-cli predict's score columns)."""
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return _orbitlab.linear_scores(X, self.weights_, self.bias_)

    def predict(self, X):
        s = self.decision_function(X)
        if self.coding_["kind"] == "regression":
            return self.coding_["mean"] + self.coding_["scale"] * s[:, 0]
        return self.classes_[np.argmax(s, axis=1)]

    def score(self, X, y, sample_weight=None):
        if self.coding_["kind"] == "regression":
            return RegressorMixin.score(self, X, y, sample_weight)
        return ClassifierMixin.score(self, X, y, sample_weight)


class SavedKernelRidge(SavedLinearModel):
    """The learner of a model saved by `orbitlab-cli train --learner krr ... --save-model` (or
    orbitlab.train(..., learner="krr")): kernel ridge with a Gaussian kernel on the map's features,
    decision values K(F, support_) dual_ with kernel_ "gaussian:sigma=S" (support_: the features of
    the training rows, N x D float32; dual_: N x outputs). Predicts with the saved arrays, the bits
    of `orbitlab-cli predict`; this package has no krr estimator to refit (orbitlab.train fits one)."""

    def __init__(self, learner="krr"):
        super().__init__(learner=learner)

    def decision_function(self, X):
        """K(X, support_) dual_: n_samples x outputs (orbitlab-cli predict's score columns)."""
        check_is_fitted(self, "dual_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return _orbitlab.kernel_ridge_scores(X, self.support_, self.dual_, self.kernel_)
