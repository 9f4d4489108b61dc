"""Saved models: a fitted map and a linear learner (or krr) in the .npz that `orbitlab-cli train
--save-model` writes and `orbitlab-cli predict --model` reads (docs/cli.md, "Saved models" lists its arrays;
numpy.load reads it without Orbit Lab). The file is read and written by the core, so Python and the CLI read
the same fields, refuse the same damage and predict the same bits."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from . import _orbitlab
from ._common import FLOAT_DTYPES, printer, threads_of
from ._sklearn_compat import validate_data
from .learners import (BayesianLinearClassifier, BayesianLinearRegressor, SavedKernelRidge, SavedLinearModel,
                       _EvidenceLinear)
from .locality import EvidenceLocality
from .maps import FeatureMap, _MapEstimator


def _parts(model):
    if not isinstance(model, Pipeline) or len(model.steps) != 2:
        raise ValueError("model: save a Pipeline of two steps, a map of orbitlab and a learner")
    (_, mapper), (_, learner) = model.steps
    if isinstance(mapper, EvidenceLocality):
        check_is_fitted(mapper, "estimator_")
        mapper = mapper.estimator_
    if not isinstance(mapper, _MapEstimator):
        raise ValueError(f"model: the first step must be a map of orbitlab (value '{type(mapper).__name__}')")
    if not isinstance(learner, (_EvidenceLinear, SavedLinearModel)):
        raise ValueError(f"model: the second step must be a learner of orbitlab (value '{type(learner).__name__}')")
    check_is_fitted(mapper, "map_")
    check_is_fitted(learner, "dual_" if isinstance(learner, SavedKernelRidge) else "weights_")
    return mapper, learner


def _labels(classes):
    """Class labels as the file keeps them: integers (int64) or text."""
    classes = np.asarray(classes)
    if classes.dtype.kind in "iub":
        return [int(c) for c in classes]
    if classes.dtype.kind == "f" and all(float(c).is_integer() for c in classes):
        return [int(c) for c in classes]
    if classes.dtype.kind in "US" or all(isinstance(c, str) for c in classes):
        return [str(c) for c in classes]
    raise ValueError(f"y: a saved model keeps integer or text class labels (value '{classes[:3]}')")


class SavedExactModel(BaseEstimator):
    """A model saved by `orbitlab-cli train --features exact:r=R --learner krr|gp --save-model`: an
    exact invariant kernel machine, no feature map. It keeps the training rows (saved_["support"]),
    the dual weights, the base kernel with its fitted bandwidth and the group samples' seed and
    sub-streams (saved_["exact"]), and predicts in the core, with the bits of `orbitlab-cli predict`:
    row j of X draws its group samples from the sub-stream first_stream + j, as predict numbers the
    rows of its file. It predicts only (load_model makes it); the estimators that fit on the exact
    kernel are InvariantKernelRidge and InvariantGaussianProcess."""

    def __init__(self, n_jobs=None, verbose=0):
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X, y=None):
        raise NotImplementedError("learner: a saved exact kernel machine predicts, it is not refitted here "
                                  "(fit InvariantKernelRidge / InvariantGaussianProcess, or train with orbitlab-cli)")

    def decision_function(self, X):
        """The model's scores (n_samples x outputs): class scores, or the coded regression target
        (orbitlab-cli predict's score columns)."""
        check_is_fitted(self, "saved_")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, reset=False)
        return _orbitlab.model_scores(self.saved_, X, threads_of(self.n_jobs), printer(self.verbose, type(self).__name__))

    def predict(self, X):
        F = self.decision_function(X)
        coding = self.saved_["coding"]
        if coding["kind"] == "regression":
            return coding["mean"] + coding["scale"] * F[:, 0]
        return self.classes_[np.argmax(F, axis=1)]


def _exact_model(d):
    model = SavedExactModel()
    model.saved_ = d
    model.n_features_in_ = int(np.prod(d["map"]["shape"]))
    if d["coding"]["kind"] != "regression":
        model.classes_ = np.asarray(d["classes"])
    return model


def model_arrays(model, trained_on=""):
    """The saved-model dict of a fitted Pipeline(map, learner) (what save_model writes)."""
    if isinstance(model, SavedExactModel):
        check_is_fitted(model, "saved_")
        return dict(model.saved_, trained_on=trained_on or model.saved_.get("trained_on", ""))
    mapper, learner = _parts(model)
    classes = None
    if learner.coding_["kind"] != "regression":
        classes = _labels(learner.classes_)
    if isinstance(learner, SavedKernelRidge):
        fitted = {"support": learner.support_, "dual": learner.dual_, "kernel": learner.kernel_}
    else:
        fitted = {"weights": learner.weights_, "bias": learner.bias_}
    saved = getattr(model, "saved_", {})
    return {
        "map": mapper.map_.recipe,
        "dim": mapper.map_.dim,
        "learner": getattr(learner, "learner", "blr"),
        "chosen": saved.get("chosen", ""),
        **fitted,
        "coding": learner.coding_,
        "classes": classes,
        "class_names": [],
        "target_unit": "",
        "alpha": getattr(learner, "alpha_", float("nan")),
        "beta": getattr(learner, "beta_", float("nan")),
        "log_evidence": getattr(learner, "log_evidence_", float("nan")),
        "trained_on": trained_on or saved.get("trained_on", ""),
        "train_rows": saved.get("train_rows", 0),
    }


def save_model(model, path, trained_on=""):
    """Writes a fitted Pipeline(map, learner) -- the map an orbitlab map (or a fitted
    EvidenceLocality), the learner BayesianLinearClassifier / BayesianLinearRegressor or a loaded
    one, krr's included -- to path (.npz), for `orbitlab-cli predict --model path` and load_model."""
    _orbitlab.save_model(str(path), model_arrays(model, trained_on))


def _pipeline(d):
    if d["map"]["features"].strip().startswith("exact"):
        return _exact_model(d)
    recipe = d["map"]
    kind = recipe["kind"]
    shape = tuple(recipe["shape"])
    mapper = FeatureMap(features=recipe["features"], group=recipe["group"] or None, distribution=recipe["dist"] or None,
                        kernel=recipe["kernel"] or None, input_kind=kind,
                        image_shape=shape if kind == "images" else None, random_state=recipe["fit_seed"])
    mapper.map_ = _orbitlab.map_from_recipe(recipe)
    n_features = int(np.prod(shape))
    mapper.n_features_in_ = n_features
    mapper.input_kind_, mapper.image_shape_ = kind, shape
    mapper.seed_ = recipe["fit_seed"]
    mapper.n_components_ = mapper.map_.dim
    coding = d["coding"]
    if d["learner"] == "krr":
        learner = SavedKernelRidge()
        learner.support_, learner.dual_, learner.kernel_ = d["support"], d["dual"], d["kernel"]
        learner.coding_ = dict(coding)
        learner.n_features_in_ = learner.support_.shape[1]
        if coding["kind"] != "regression":
            learner.classes_ = np.asarray(d["classes"])
        pipe = Pipeline([("map", mapper), ("learner", learner)])
        pipe.saved_ = {k: v for k, v in d.items() if k not in ("support", "dual")}
        return pipe
    if d["learner"] == "blr":
        learner = BayesianLinearRegressor() if coding["kind"] == "regression" else BayesianLinearClassifier()
        learner.alpha_, learner.beta_, learner.log_evidence_ = d["alpha"], d["beta"], d["log_evidence"]
    else:
        learner = SavedLinearModel(learner=d["learner"])
    learner.weights_ = np.ascontiguousarray(d["weights"])
    learner.bias_ = np.asarray(d["bias"], dtype=np.float64)
    learner.coding_ = dict(coding)
    learner.n_features_in_ = learner.weights_.shape[0]
    if coding["kind"] == "regression":
        learner.coef_ = coding["scale"] * learner.weights_[:, 0]
        learner.intercept_ = coding["mean"] + coding["scale"] * learner.bias_[0]
    else:
        learner.classes_ = np.asarray(d["classes"])
        learner.coef_, learner.intercept_ = learner.weights_.T, learner.bias_
    pipe = Pipeline([("map", mapper), ("learner", learner)])
    pipe.saved_ = {k: v for k, v in d.items() if k not in ("weights", "bias")}
    return pipe


def load_model(path):
    """A fitted Pipeline(map, learner) from a saved model (the CLI's or save_model's; the learner a
    SavedKernelRidge for krr). Its predict and decision_function give the bits `orbitlab-cli
    predict` gives; `saved_` holds the file's other fields (learner, chosen, trained_on,
    train_rows, kernel, ...). A file that is cut short, altered (every array's CRC-32 is checked),
    of a newer format_version or not a model raises ValueError with one line naming the file and
    the field. An exact kernel machine (`--features exact:r=R`, krr or gp) has no map: it loads as a
    SavedExactModel."""
    return _pipeline(_orbitlab.load_model(str(path)))


def check_input(model, X, image_shape=None):
    """ValueError naming both shapes when X's rows are not what the saved model was trained on."""
    saved = getattr(model, "saved_", None)
    recipe = saved["map"] if saved else _parts(model)[0].map_.recipe
    kind = "images" if image_shape is not None else "vectors"
    shape = tuple(image_shape) if image_shape is not None else (1, np.asarray(X).shape[1], 1)
    if len(shape) == 2:
        shape = shape + (1,)
    _orbitlab.check_model_input({"map": recipe}, kind, list(shape), "<array>")
