"""EvidenceLocality: learn how local the invariance should be, by the evidence, exactly as
`orbitlab-cli learn` does (the core's learnLocality: common random numbers, a scan, then L-BFGS or a
bracketing search), then transform with the map at the learned parameters."""

import numpy as np
from sklearn.base import BaseEstimator, MetaEstimatorMixin, TransformerMixin, clone
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from . import _orbitlab
from ._common import FLOAT_DTYPES, input_geometry, printer, seed_of, threads_of
from ._sklearn_compat import TagsMixin, validate_data
from .maps import InvariantRBFSampler, _MapEstimator


class EvidenceLocality(TagsMixin, MetaEstimatorMixin, TransformerMixin, BaseEstimator):
    """Learns the distribution's parameters of a map by maximising the Bayesian linear regression
    log evidence of its features over (X, y), with the templates and group samples fixed by the
    seed (common random numbers), then fits a clone of the map at the learned parameters.

    Parameters
    ----------
    estimator : a map of this package with a group and a distribution. Its features, group,
        distribution (the start values) and kernel are `learn`'s --features, --group, --dist, --kernel.
        Default: InvariantRBFSampler(group="translation", distribution="gaussian:sigma=1",
        image_shape=(1, -1)), each row a one-pixel-high signal shifted along its length, which
        learns sigma on rows of any length. For images give a map with their image_shape, e.g.
        InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=1", image_shape=(28, 28)).
    learn : str, list of str or None. The parameters to learn, named as `learn --learn` names them
        ("kappa", "a", "sigma", "rotation.kappa"); None: every learnable one of the distribution.
    bounds : dict name -> (lo, hi) or None, replacing the default search ranges (--bounds).
    max_evals : int, evidence evaluations in all (--max-evals).
    random_state : int, RandomState or None. An int is `learn --seed`: the same params_, evidence and
        trajectory as the CLI on the same rows.
    n_jobs, verbose : the core's threads; progress on stderr.

    Attributes
    ----------
    params_ : dict, the learned values. dist_ : the learned distribution spec. log_evidence_ : at the
    learned values. trajectory_ : every evaluation, in order ({params, log_evidence, stage}).
    method_ : "lbfgs" or "bracket". estimator_ : the fitted map at params_.
    """

    _orbit_tags = {"requires_y": True, "preserves_dtype": ["float32"]}

    def __init__(self, estimator=None, learn=None, bounds=None, max_evals=30, random_state=None, n_jobs=None,
                 verbose=0):
        self.estimator = estimator
        self.learn = learn
        self.bounds = bounds
        self.max_evals = max_evals
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _map(self):
        est = self.estimator
        if est is None:
            est = InvariantRBFSampler(group="translation", distribution="gaussian:sigma=1", image_shape=(1, -1))
        if not isinstance(est, _MapEstimator):
            raise ValueError(f"estimator: must be a map of orbitlab (InvariantRBFSampler, ...) (value '{type(est).__name__}')")
        return clone(est)

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=FLOAT_DTYPES, y_numeric=False)
        y = column_or_1d(y, warn=True)
        est = self._map()
        features, group, dist, kernel = est._specs(X.shape[0])
        if not group or not dist:
            raise ValueError("estimator: learning a locality needs a map with a group and a distribution")
        kind, shape = input_geometry(est.input_kind, est.image_shape, X.shape[1])
        if X.shape[0] < 2:
            raise ValueError("data: learning a locality needs at least 2 samples; got 1 sample")
        target = type_of_target(y)
        if target in ("binary", "multiclass"):
            classes, codes = np.unique(y, return_inverse=True)
            data = _orbitlab.dataset(X, codes.tolist(), len(classes), None, kind, list(shape))
        elif target == "continuous":
            data = _orbitlab.dataset(X, None, 0, np.asarray(y, dtype=np.float64).tolist(), kind, list(shape))
        else:
            raise ValueError(f"y: Unknown label type: expected class labels or continuous targets, got {target} targets")
        learn = self.learn
        if learn is None:
            # Every parameter with a gradient; else the one a bracketing search takes (noisy sort's sigma).
            described = _orbitlab.distribution_parameters(group, dist, kind, list(shape))
            learn = [name for name, _, learnable, _ in described if learnable] or \
                [name for name, _, _, sweepable in described if sweepable]
        elif isinstance(learn, str):
            learn = [p.strip() for p in learn.split(",")]
        if not learn:
            raise ValueError(f"learn: the distribution has no parameter to learn (value '{dist}')")
        bounds = {str(k): (float(v[0]), float(v[1])) for k, v in (self.bounds or {}).items()}
        seed = seed_of(self.random_state)
        r = _orbitlab.learn_locality(data, {"features": features, "group": group, "dist": dist, "kernel": kernel,
                                            "learn": list(learn), "bounds": bounds, "max_evals": int(self.max_evals),
                                            "seed": seed},
                                     threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))
        self.params_ = dict(r["params"])
        self.dist_ = r["dist"]
        self.log_evidence_ = r["log_evidence"]
        self.trajectory_ = list(r["trajectory"])
        self.method_ = r["method"]
        self.seed_ = seed
        params = {"distribution": self.dist_}
        if "random_state" in est.get_params():
            params["random_state"] = seed
        self.estimator_ = est.set_params(**params).fit(X)
        return self

    def transform(self, X):
        check_is_fitted(self, "estimator_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return self.estimator_.transform(X)

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "estimator_")
        return self.estimator_.get_feature_names_out(input_features)
