"""Feature maps as scikit-learn transformers: the core's invariant random Fourier, Nystroem, GICDF
and sorted-Coulomb maps, and FeatureMap for any `--features` spec of orbitlab-cli.

Every map computes in float32, as the core does; transform returns float32 (float64 input is read
block by block, never copied whole). With the same spec and an int random_state, transform gives
the bits `orbitlab-cli features --seed random_state` writes for the same rows.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from . import _orbitlab
from ._common import FLOAT_DTYPES, input_geometry, printer, seed_of, threads_of
from ._sklearn_compat import TagsMixin, validate_data


def kernel_spec(gamma, kernel):
    """The base kernel spec: gamma (k = exp(-gamma ||x - y||^2)) as gaussian:sigma, else the kernel
    spec as written, else the median rule gaussian:median=1."""
    if gamma is not None:
        if kernel is not None:
            raise ValueError(f"gamma: give gamma or kernel, not both (value '{gamma}')")
        try:
            g = float(gamma)
        except (TypeError, ValueError):
            raise ValueError(f"gamma: must be a positive number (value '{gamma}')") from None
        if not (g > 0 and np.isfinite(g)):
            raise ValueError(f"gamma: must be a positive number (value '{gamma}')")
        return f"gaussian:sigma={repr(float(np.sqrt(0.5 / g)))}"
    return "gaussian:median=1" if kernel is None else str(kernel)


def _spec(name, **keys):
    """`name:k=v,...` of the keys that are not None, in the order given."""
    parts = [f"{k}={v}" for k, v in keys.items() if v is not None]
    return name + (":" + ",".join(parts) if parts else "")


class _MapEstimator(TagsMixin, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """The fit / transform of every map; subclasses say which spec strings their parameters make
    (_specs: features, group, distribution, kernel; n_samples, when given, is the number of training
    rows the spec is fitted on)."""

    # The core computes in float32: float32 input gives float32 features, and so does float64.
    _orbit_tags = {"preserves_dtype": ["float32"]}

    def _specs(self, n_samples=None):  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def fit(self, X, y=None):
        """Draws the templates and group samples from random_state (and fits landmarks on X for
        Nystroem). Returns self."""
        X = validate_data(self, X, dtype=FLOAT_DTYPES)
        features, group, dist, kernel = self._specs(X.shape[0])
        kind, shape = input_geometry(self.input_kind, self.image_shape, X.shape[1])
        if X.shape[0] < 2 and "median" in kernel:
            raise ValueError(f"kernel: the median rule needs at least 2 samples; got 1 sample (value '{kernel}')")
        seed = seed_of(self.random_state)
        self.map_ = _orbitlab.fit_map(features, group, dist, kernel, kind, list(shape), seed, X,
                                      threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))
        self.input_kind_ = kind
        self.image_shape_ = shape
        self.seed_ = seed
        self.n_components_ = self.map_.dim
        return self

    def transform(self, X):
        """The features of every row of X: float32, n_samples x n_components_."""
        check_is_fitted(self, "map_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return self.map_.transform(X, threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))

    @property
    def _n_features_out(self):
        return self.map_.dim

    @property
    def spec_(self):
        """The fitted map's spec and the kernel it approximates, in the core's words."""
        check_is_fitted(self, "map_")
        return f"{self.map_.spec}: {self.map_.kernel}"


class FeatureMap(_MapEstimator):
    """Any feature map of orbitlab-cli's --features, with --group, --dist and --kernel as spec
    strings (docs/cli.md): "irf:s=1000,r=16", "inystrom:s=500,r=8", "gicdf:m=20,bins=25,r=16",
    "kif:k=100,eta=mean", "sorted", "rf:s=500+rf2:s=1000", ...

    Parameters: features, group and distribution (both or neither), kernel (default the median rule
    gaussian:median=1), input_kind and image_shape (what a row is), random_state (an int is
    orbitlab-cli's --seed), n_jobs (the core's threads), verbose (progress on stderr)."""

    def __init__(self, features="rf:s=100", group=None, distribution=None, kernel=None, input_kind="auto",
                 image_shape=None, random_state=None, n_jobs=None, verbose=0):
        self.features = features
        self.group = group
        self.distribution = distribution
        self.kernel = kernel
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _specs(self, n_samples=None):
        return str(self.features), self.group or "", self.distribution or "", kernel_spec(None, self.kernel)


class InvariantRBFSampler(_MapEstimator):
    """Locally invariant random Fourier features (LGIKA eq. 7): psi(x)_j = sqrt(2/s) (1/r)
    sum_k cos(<w_j, g_k x> + b_j), w_j ~ N(0, I / sigma^2), g_k ~ q, approximating the local
    invariant kernel k_qG(x, y) = E_{g, g' ~ q} k(gx, g'y) of the Gaussian k. Without a group, the
    plain random Fourier features of the Gaussian kernel (scikit-learn's RBFSampler).

    Parameters
    ----------
    group, distribution : str or None
        The group and the distribution over it as orbitlab-cli spec strings: "rotation",
        "vonmises:kappa=2"; "translation", "gaussian:sigma=1"; "permutation", "noisysort:sigma=1".
    n_components : int, the number of features s.
    n_group_samples : int, the group samples r per template (or per input with mode="data").
    gamma : float or None
        k(x, y) = exp(-gamma ||x - y||^2); None: kernel, or the median rule.
    kernel : str or None, a base kernel spec: "gaussian:median=0.5" (sigma = 0.5 x the median
        pairwise distance of a seeded sample of the rows), "gaussian:sigma=3". Not with gamma.
    mode : "auto", "templates" (move the templates once) or "data" (own group samples per input).
    form : "cos" or "complex" ([cos, sin] pairs, 2 s features).
    input_kind, image_shape : what a row is (see orbitlab._common.input_geometry): images need
        image_shape (height, width[, channels]), Coulomb matrices input_kind="coulomb".
    random_state : int, RandomState or None. An int is orbitlab-cli's --seed: the same bits.
    n_jobs : int or None, the core's threads. verbose : int, progress on stderr.
    """

    def __init__(self, group=None, distribution=None, n_components=100, n_group_samples=16, gamma=None,
                 kernel=None, mode="auto", form="cos", input_kind="auto", image_shape=None,
                 random_state=None, n_jobs=None, verbose=0):
        self.group = group
        self.distribution = distribution
        self.n_components = n_components
        self.n_group_samples = n_group_samples
        self.gamma = gamma
        self.kernel = kernel
        self.mode = mode
        self.form = form
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _specs(self, n_samples=None):
        form = None if self.form == "cos" else self.form
        if self.group is None and self.distribution is None:
            features = _spec("rf", s=self.n_components, form=form)
        else:
            mode = None if self.mode == "auto" else self.mode
            features = _spec("irf", s=self.n_components, r=self.n_group_samples, form=form, mode=mode)
        return features, self.group or "", self.distribution or "", kernel_spec(self.gamma, self.kernel)


class InvariantNystroem(_MapEstimator):
    """Locally invariant Nystroem features (LGIKA eq. 8): psi(x) = (1/r) L sum_k k_Z(g_k x) with s
    landmarks Z drawn from the training rows and L^T L = (K_ZZ + jitter I)^-1. Without a group, plain
    Nystroem features. Parameters as InvariantRBFSampler's; landmarks: "random", "kmeans" or "orbit"
    (None: the core's default, orbit for a distribution that depends on the input, else random);
    jitter: the landmark kernel's relative jitter (None: 1e-6).

    Landmarks taken from the training rows cannot outnumber them: with fewer rows than n_components,
    fit warns and uses every row (n_components_ = n_samples), as scikit-learn's Nystroem does.
    Orbit landmarks are drawn from the orbits and may outnumber the rows."""

    def __init__(self, group=None, distribution=None, n_components=100, n_group_samples=16, gamma=None,
                 kernel=None, landmarks=None, jitter=None, mode="auto", input_kind="auto", image_shape=None,
                 random_state=None, n_jobs=None, verbose=0):
        self.group = group
        self.distribution = distribution
        self.n_components = n_components
        self.n_group_samples = n_group_samples
        self.gamma = gamma
        self.kernel = kernel
        self.landmarks = landmarks
        self.jitter = jitter
        self.mode = mode
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _landmarks_from_orbits(self):
        if self.landmarks is not None:
            return self.landmarks == "orbit"
        return bool(self.distribution) and _orbitlab.distribution_info(self.distribution)["depends_on_input"]

    def _specs(self, n_samples=None):
        s = self.n_components
        if n_samples is not None and isinstance(s, (int, np.integer)) and s > n_samples \
                and not self._landmarks_from_orbits():
            warnings.warn(f"n_components: {s} landmarks but {n_samples} training rows; every row is a landmark "
                          f"(n_components_ = {n_samples})", UserWarning, stacklevel=3)
            s = n_samples
        if self.group is None and self.distribution is None:
            features = _spec("nystrom", s=s, landmarks=self.landmarks, jitter=self.jitter)
        else:
            mode = None if self.mode == "auto" else self.mode
            features = _spec("inystrom", s=s, r=self.n_group_samples, landmarks=self.landmarks,
                             jitter=self.jitter, mode=mode)
        return features, self.group or "", self.distribution or "", kernel_spec(self.gamma, self.kernel)


class GICDF(_MapEstimator):
    """Group-invariant CDF features (Mroueh, Voinea & Poggio 2015): for m Gaussian templates t_j and
    r group samples, the empirical CDF of <g_i t_j, x> at 2 n_bins + 1 thresholds in [-span, span]:
    n_templates (2 n_bins + 1) features. span: None (the paper's 1 + eps), a number, or "auto"
    (measured on the training rows); norm: "each" (unit-norm inputs) or "max".

    group, distribution: as InvariantRBFSampler's, but a GICDF needs both. The default is a set of 16
    Haar-random orthogonal matrices with the Haar (uniform) distribution over it: it acts on rows of
    any kind (vectors, images, Coulomb matrices; up to 2048 values), drawn from random_state. For
    images give the group that fits them, e.g. group="rotation", distribution="haar"."""

    def __init__(self, group="orthogonal:k=16", distribution="haar", n_templates=10, n_bins=25, n_group_samples=16,
                 eps=0.1, span=None, norm="each", mode="auto", input_kind="auto", image_shape=None, random_state=None,
                 n_jobs=None, verbose=0):
        self.group = group
        self.distribution = distribution
        self.n_templates = n_templates
        self.n_bins = n_bins
        self.n_group_samples = n_group_samples
        self.eps = eps
        self.span = span
        self.norm = norm
        self.mode = mode
        self.input_kind = input_kind
        self.image_shape = image_shape
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _specs(self, n_samples=None):
        mode = None if self.mode == "auto" else self.mode
        norm = None if self.norm == "each" else self.norm
        eps = None if self.eps == 0.1 else self.eps  # the core's default, left out of the spec
        features = _spec("gicdf", m=self.n_templates, bins=self.n_bins, r=self.n_group_samples, eps=eps,
                         mode=mode, norm=norm, span=self.span)
        return features, self.group or "", self.distribution or "", ""


class SortedCoulomb(_MapEstimator):
    """The sorted Coulomb matrix (Montavon et al. 2012): each flattened n x n Coulomb matrix with its
    rows and columns ordered by decreasing row norm, a permutation-invariant input for any learner.
    Its randomised form, noisy sort (sort by ||C_i|| + N(0, sigma^2) noise), is a distribution over
    permutations: InvariantRBFSampler(group="permutation", distribution="noisysort:sigma=1",
    input_kind="coulomb") averages the features of such noisy sorts. Rows must hold n x n values."""

    def __init__(self, n_jobs=None, verbose=0):
        self.n_jobs = n_jobs
        self.verbose = verbose

    input_kind = "coulomb"
    image_shape = None
    random_state = 0

    def _specs(self, n_samples=None):
        return "sorted", "", "", ""
