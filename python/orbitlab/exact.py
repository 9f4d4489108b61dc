"""Exact invariant kernel machines (the core's ExactKernelMachines, `orbitlab-cli train --features
exact:r=R --learner krr|gp`): kernel ridge regression and Gaussian-process regression on the
invariant kernel k_G(x, y) = E_{g ~ q(.|x), g' ~ q(.|y)} k(g x, g' y) itself, estimated from R group
samples per row (the V-statistic over all R x R pairs) or summed exactly over a finite group with
Haar weights (cyclic, orthogonal).

A row's group samples come from the sub-stream of its index in the array it arrives in (common
random numbers): a row gets other samples at another place, so the same row predicted inside two
batches may differ by the Monte Carlo error of R samples. With a finite group and haar (the
defaults: a fixed set of 16 orthogonal matrices) there are no samples and no such effect.
"""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.preprocessing import LabelEncoder
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _orbitlab
from ._common import FLOAT_DTYPES, input_geometry, printer, seed_of, threads_of
from ._sklearn_compat import TagsMixin, validate_data


class _ExactKernelMachine(TagsMixin, BaseEstimator):
    """The shared part: specs, geometry, the cross kernel and the decoding of scores."""

    _orbit_tags = {"requires_y": True}
    _one_hot = False  # classes: one-hot codes (the GP, as blr) or +-1 columns (kernel ridge)

    def _check_common(self):
        if not isinstance(self.n_group_samples, numbers.Integral) or self.n_group_samples < 1:
            raise ValueError(f"n_group_samples: must be a positive integer (value '{self.n_group_samples}')")
        if (self.group is None) != (self.distribution is None):
            raise ValueError("group, distribution: give both or neither")

    def _kind_shape(self, n_features):
        kind, shape = input_geometry(self.input_kind, self.image_shape, n_features)
        return kind, list(shape)

    def _encode(self, y):
        """Coded targets (n x m): standardised regression targets, or one column per class."""
        if isinstance(self, ClassifierMixin):
            check_classification_targets(y)
            self._labels = LabelEncoder().fit(y)
            self.classes_ = self._labels.classes_
            if len(self.classes_) < 2:
                raise ValueError(f"y: a classifier needs at least 2 classes, 1 class present (value '{self.classes_[0]}')")
            codes = self._labels.transform(y)
            Y = np.full((len(y), max(2, len(self.classes_))), 0.0 if self._one_hot else -1.0)
            Y[np.arange(len(y)), codes] = 1.0
            return Y
        y = np.asarray(y, dtype=np.float64)
        self.y_mean_ = float(y.mean())
        scale = float(y.std())
        self.y_scale_ = scale if scale > 0 else 1.0
        return ((y - self.y_mean_) / self.y_scale_)[:, None]

    def _decode(self, F):
        if isinstance(self, ClassifierMixin):
            return self.classes_[np.argmax(F[:, :len(self.classes_)], axis=1)]
        return self.y_mean_ + self.y_scale_ * F[:, 0]

    def _kernel(self, A, B):
        return _orbitlab.exact_kernel(A, B, self.group or "", self.distribution or "", self.kernel_,
                                      *self._kind_shape(A.shape[1]), int(self.n_group_samples), self._seed,
                                      threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))

    def _validated(self, X, y):
        self._check_common()
        X, y = validate_data(self, X, y, dtype=FLOAT_DTYPES, y_numeric=not isinstance(self, ClassifierMixin))
        if X.shape[0] < 2:
            raise ValueError(f"data: the exact kernel machines need at least 2 samples (n_samples = {X.shape[0]})")
        self._seed = seed_of(self.random_state)
        self.X_fit_ = np.ascontiguousarray(X)
        return self.X_fit_, self._encode(y)

    def _scores(self, X):
        check_is_fitted(self, "dual_coef_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return self._kernel(np.ascontiguousarray(X), self.X_fit_) @ self.dual_coef_

    def predict(self, X):
        return self._decode(self._scores(X))


_PARAMETERS = """
    Parameters
    ----------
    group, distribution : str or None (both or neither), orbitlab-cli specs: "permutation",
        "noisysort:sigma=1"; "rotation", "vonmises:kappa=1". Default: a fixed set of 16 orthogonal
        matrices with Haar weights (the exact sum, no sampling), which acts on any row.
    kernel : str, the base kernel: "gaussian:median=1" (default), "laplacian:median=1",
        "matern:nu=1.5,median=1", or with an absolute "sigma=X". The median rule reads the training
        rows (the core's rows and seed).
    n_group_samples : int, R group samples per row (ignored for an exact Haar sum).
    input_kind, image_shape, random_state, n_jobs, verbose : as InvariantRBFSampler's.
"""


class InvariantKernelRidge(RegressorMixin, _ExactKernelMachine):
    __doc__ = """Kernel ridge regression on the exact invariant kernel: dual_coef_ = (K + alpha I)^-1 y on
    standardised targets, K = [k_G(x_i, x_j)] on the training rows (`--learner krr` on
    `--features exact:r=R`).
""" + _PARAMETERS + """    alpha : float, the ridge strength on the kernel's scale.

    Fitted: X_fit_, dual_coef_, kernel_ (its bandwidth resolved), y_mean_, y_scale_.
    """

    def __init__(self, group="orthogonal:k=16", distribution="haar", kernel="gaussian:median=1", n_group_samples=4,
                 alpha=1e-3, input_kind="auto", image_shape=None, random_state=None, n_jobs=None, verbose=0):
        self.group = group
        self.distribution = distribution
        self.kernel = kernel
        self.n_group_samples = n_group_samples
        self.alpha = alpha
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X, y):
        if not isinstance(self.alpha, numbers.Real) or not self.alpha > 0:
            raise ValueError(f"alpha: must be a positive number (value '{self.alpha}')")
        X, Y = self._validated(X, y)
        self.kernel_ = _orbitlab.resolve_kernel(self.kernel, X, self._seed)
        K = self._kernel(X, X)
        K = 0.5 * (K + K.T)
        self.dual_coef_ = np.linalg.solve(K + float(self.alpha) * np.eye(len(K)), Y)
        return self


class _GaussianProcess(_ExactKernelMachine):
    _one_hot = True

    def __init__(self, group="orthogonal:k=16", distribution="haar", kernel="gaussian:median=1", n_group_samples=4,
                 max_evaluations=40, input_kind="auto", image_shape=None, random_state=None, n_jobs=None, verbose=0):
        self.group = group
        self.distribution = distribution
        self.kernel = kernel
        self.n_group_samples = n_group_samples
        self.max_evaluations = max_evaluations
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X, y):
        if not isinstance(self.max_evaluations, numbers.Integral) or self.max_evaluations < 1:
            raise ValueError(f"max_evaluations: must be a positive integer (value '{self.max_evaluations}')")
        X, Y = self._validated(X, y)
        r = _orbitlab.exact_gp_fit(X, Y, self.group or "", self.distribution or "", self.kernel, *self._kind_shape(X.shape[1]),
                                   int(self.n_group_samples), self._seed, int(self.max_evaluations),
                                   threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))
        self.kernel_ = r["kernel"]
        self.signal_variance_ = r["signal"]
        self.noise_variance_ = r["noise"]
        self.log_marginal_likelihood_ = r["log_marginal_likelihood"]
        self.n_evaluations_ = r["evaluations"]
        self.dual_coef_ = self.signal_variance_ * r["alpha"]
        return self


class InvariantGaussianProcess(RegressorMixin, _GaussianProcess):
    __doc__ = """Gaussian-process regression on the exact invariant kernel, y = f + e, f ~ GP(0, s2f k_G),
    e ~ N(0, s2n), with the kernel's bandwidth, s2f and s2n maximising the log marginal likelihood
    (L-BFGS with its analytic gradient, in the core; `--learner gp` on `--features exact:r=R`).
    predict(X, return_std=True) also gives the predictive standard deviation of y.
""" + _PARAMETERS + """    max_evaluations : int, marginal-likelihood evaluations of the fit at most. A kernel with an
        absolute sigma keeps it (only s2f and s2n are fitted).

    Fitted: X_fit_, dual_coef_ (s2f C^-1 y), kernel_ (the fitted bandwidth), signal_variance_,
    noise_variance_, log_marginal_likelihood_ (of the standardised targets), n_evaluations_.
    """

    def predict(self, X, return_std=False):
        F = self._scores(X)
        mean = self._decode(F)
        if not return_std:
            return mean
        X = np.ascontiguousarray(validate_data(self, X, dtype=FLOAT_DTYPES, reset=False))
        # var f* = s2f k** - s2f^2 k*^T C^-1 k*, C = s2f K + s2n I on the training rows (refactorised).
        K = self._kernel(self.X_fit_, self.X_fit_)
        K = 0.5 * (K + K.T)
        C = self.signal_variance_ * K + self.noise_variance_ * np.eye(len(K))
        L = _cholesky_with_jitter(C)
        V = np.linalg.solve(L, self._kernel(X, self.X_fit_).T)
        kss = np.array([self._kernel(X[i:i + 1], X[i:i + 1])[0, 0] for i in range(len(X))])
        var = np.maximum(self.signal_variance_ * kss - self.signal_variance_ ** 2 * (V * V).sum(axis=0), 0.0)
        return mean, self.y_scale_ * np.sqrt(var + self.noise_variance_)


def _cholesky_with_jitter(C):
    """The Cholesky factor of C, with jitter from 1e-10 to 1e-4 of its mean diagonal as the core adds it."""
    jitter, mean_diag = 0.0, float(np.mean(np.diag(C)))
    while True:
        try:
            return np.linalg.cholesky(C + jitter * np.eye(len(C)))
        except np.linalg.LinAlgError:
            jitter = 1e-10 * mean_diag if jitter == 0.0 else 10.0 * jitter
            if jitter > 1.0001e-4 * mean_diag:
                raise ValueError("kernel: the Gram matrix is not positive definite even with jitter 1e-4 x its mean diagonal") from None


class InvariantGaussianProcessClassifier(ClassifierMixin, _GaussianProcess):
    __doc__ = """InvariantGaussianProcess for class labels: GP regression on one-hot codes (as the core's
    gp and blr learners), the argmax predicts; log_marginal_likelihood_ sums the classes' columns.
""" + _PARAMETERS
