"""The bridge from the window: orbitlab.train runs the Training panel's protocol (the core's
train(), as `orbitlab-cli train` does), and from_setting turns the text of the GUI's Edit > Copy
setting into a configured pipeline that can also rerun the panel's evaluation."""

import base64
import binascii
import inspect
import json
import os
import re
import zlib

import numpy as np
from sklearn.pipeline import Pipeline

from . import _orbitlab
from ._common import printer, threads_of
from .data import Data, load
from .learners import BayesianLinearClassifier, BayesianLinearRegressor
from .maps import FeatureMap

PREFIX = "orbitlab-setting:"
VERSION = 1  # the newest setting version this module reads (ui/Share.hpp kSettingVersion)
_MAX_TEXT = 1 << 20
_MAX_JSON = 4 << 20


def _bad(detail, value=None):
    """The core's SpecError("setting", detail, value) message: a value of more than 60 characters is
    cut to 59 and an ellipsis, with its length in bytes."""
    if value is None or value == "":
        return ValueError(f"setting: {detail}")
    value = str(value)
    if len(value) > 60:
        return ValueError(f"setting: {detail} (value '{value[:59]}\u2026', {len(value.encode())} bytes)")
    return ValueError(f"setting: {detail} (value '{value}')")


def decode_setting(text):
    """The session (a dict) of a Copy setting line: "orbitlab-setting:1:" and the base64url (no
    padding) of the zlib-compressed session JSON (ui/Share.cpp). Whitespace anywhere is
    ignored (a line wrapped by a mail client). ValueError with the window's one-line message for a
    wrong prefix, a newer version, a cut or damaged text, or what is not a session."""
    if not isinstance(text, str):
        raise _bad("expected the text of Copy setting", type(text).__name__)
    if len(text) > _MAX_TEXT:
        raise _bad(f"longer than {_MAX_TEXT} characters: not a setting Orbit Lab wrote", text[:40])
    text = re.sub(r"\s", "", text)
    if not text:
        raise _bad("empty: paste the line that Copy setting put on the clipboard")
    if not text.startswith(PREFIX):
        raise _bad(f"does not start with {PREFIX}", text)
    colon = text.find(":", len(PREFIX))
    if colon < 0:
        raise _bad(f"no version after {PREFIX}", text)
    version_text = text[len(PREFIX):colon]
    if not version_text.isdigit() or int(version_text) < 1:
        raise _bad(f"expected a version number after {PREFIX}", version_text)
    if int(version_text) > VERSION:
        raise _bad(f"version {int(version_text)} was written by a newer Orbit Lab (this one reads version {VERSION})",
                   version_text)
    payload = text[colon + 1:]
    if not payload:
        raise _bad(f"nothing after {PREFIX}{version_text}: (copy the whole line)")
    m = re.search(r"[^A-Za-z0-9_-]", payload)
    if m:
        raise _bad(f"not base64url: a character outside A-Z a-z 0-9 - _ at position {colon + 1 + m.start()}", m.group())
    # A length of 4k+1 leaves one character of 6 bits, less than a byte: Qt's decoder (the window's)
    # drops it and the inflater then finds the stream cut short; so do the same, for the same message.
    whole = payload[:-1] if len(payload) % 4 == 1 else payload
    try:
        packed = base64.urlsafe_b64decode(whole + "=" * (-len(whole) % 4))
    except (binascii.Error, ValueError):
        raise _bad("not base64url (the text is cut short?)") from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, _MAX_JSON + 1)
    except zlib.error:
        raise _bad("the text is damaged (its compressed data or checksum do not check out)") from None
    if len(raw) > _MAX_JSON:
        raise _bad(f"inflates to more than {_MAX_JSON >> 20} MB: not a setting Orbit Lab wrote")
    if not inflater.eof:
        raise _bad("the text is cut short (copy the whole line)")
    if inflater.unused_data:
        raise _bad(f"unexpected text after the end of the setting ({len(inflater.unused_data)} bytes)")
    try:
        session = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(f"not valid JSON inside ({e})") from None
    if not isinstance(session, dict):
        raise _bad("expected a JSON object inside")
    if session.get("format") != "orbitlab-session":
        raise ValueError(f"setting format: not an Orbit Lab session (value '{session.get('format')}')")
    return session


class TrainRun:
    """A finished orbitlab.train: the numbers `orbitlab-cli train --json` prints (metric, mean, std,
    folds with each fold's chosen grid point, grid, seconds) as attributes and in `result`, and the
    model of its first outer split (model(), save_model(path): what train --save-model writes)."""

    def __init__(self, run):
        self._run = run
        self.result = run.result
        for key in ("metric", "mean", "std", "mae", "log_evidence", "folds", "grid", "feature_dim", "features", "seconds"):
            setattr(self, key, self.result[key])
        self.chosen = self.folds[0]["chosen"] if self.folds else {}

    def model_arrays(self, n_jobs=None, verbose=0):
        return self._run.model(threads_of(n_jobs), printer(verbose, "model"))

    def model(self, n_jobs=None, verbose=0):
        """The fitted Pipeline(map, learner) of the first outer split at its chosen point."""
        from .models import _pipeline
        return _pipeline(self.model_arrays(n_jobs, verbose))

    def save_model(self, path, n_jobs=None, verbose=0):
        _orbitlab.save_model(str(path), self.model_arrays(n_jobs, verbose))

    def __repr__(self):
        return f"TrainRun({self.metric}={self.mean:.6g} over {len(self.folds)} fold(s), chosen {self.chosen})"


def _grid_axes(grid):
    if grid is None:
        return []
    if isinstance(grid, str):
        axes = []
        for part in filter(None, (p.strip() for p in grid.split(";"))):
            name, _, values = part.partition("=")
            axes.append((name.strip(), [float(v) for v in values.split(",") if v.strip()]))
        return axes
    return [(str(k), [float(v) for v in (vs if np.ndim(vs) else [vs])]) for k, vs in dict(grid).items()]


# The core's table of training settings (orbit/experiments/TrainSettings.hpp): train's keywords, their
# defaults and help come from it, so a setting added there is a keyword here without a change.
_TRAIN_SETTINGS = _orbitlab.train_settings()
_AS_TYPE = {"text": str, "integer": int, "number": float,
            "numbers": lambda v: [float(x) for x in (v if np.ndim(v) else [v])], "grid": _grid_axes}


def train(data, *, n_jobs=None, verbose=0, **settings):
    if not isinstance(data, Data):
        raise ValueError("data: pass what orbitlab.load returns (the dataset with its kind and shape)")
    keys = {s["key"]: s for s in _TRAIN_SETTINGS}
    for key in settings:
        if key not in keys:
            raise TypeError(f"train() got an unexpected keyword argument '{key}'")
    config = {key: _AS_TYPE[keys[key]["type"]](value) for key, value in settings.items() if value is not None}
    return TrainRun(_orbitlab.train(data.dataset, config, threads_of(n_jobs), printer(verbose, "train")))


train.__doc__ = """Runs `orbitlab-cli train` on data (from orbitlab.load) in this process: the same outer splits,
    inner grid search, learners, seeds, hence the same numbers. Returns a TrainRun.

    The keywords are the CLI's options (inner_folds is --inner-folds); None keeps the default.
    grid: {"lambda": [...], "kappa": [...]} or the CLI's "lambda=1e-3,1e-2;median=0.5,1".
""" + "".join(f"    {s['key']}: {s['help']} ({s['range']})\n" for s in _TRAIN_SETTINGS) + \
    "    n_jobs: threads (None: all cores); verbose: progress on stderr\n"
train.__signature__ = inspect.Signature(
    [inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(s["key"], inspect.Parameter.KEYWORD_ONLY, default=s["default"]) for s in _TRAIN_SETTINGS]
    + [inspect.Parameter("n_jobs", inspect.Parameter.KEYWORD_ONLY, default=None),
       inspect.Parameter("verbose", inspect.Parameter.KEYWORD_ONLY, default=0)])


def _number(v):
    """A number as the core's spec strings write it (shortest round trip, 0 never -0)."""
    v = float(v)
    if v == 0:
        return "0"
    return repr(v) if not v.is_integer() or abs(v) >= 1e16 else str(int(v))


class SettingPipeline(Pipeline):
    """The Training panel's setting as a pipeline: the map and the learner at the setting's first
    grid values (param_grid holds every value of its grid, in scikit-learn's names, for GridSearchCV),
    with the setting (`setting`), its data as the panel trains on it (`data`: the file, its seeded
    subset) and the panel's run (`train_config`; evaluate() reruns it with the same numbers)."""

    def evaluate(self, n_jobs=None, verbose=0):
        """The panel's evaluation (the core's train() with the panel's config on the panel's rows):
        the accuracy or RMSE the Training panel shows for this setting."""
        return train(self.data, n_jobs=n_jobs, verbose=verbose, **self.train_config)


def _train_config(session, data):
    t = session.get("training", {})
    o = session.get("orbit", {})
    features = t.get("features", "irf:s=500,r=16")
    learner = t.get("learner", "blr")
    evaluation = t.get("eval", "holdout")
    if evaluation == "holdout":
        eval_spec = "holdout:" + _number(t.get("holdout_fraction", 0.2))
    elif evaluation == "kfold":
        eval_spec = f"kfold:{int(t.get('k', 3))}"
    else:
        eval_spec = evaluation
    config = {"features": features, "learner": learner, "eval": eval_spec, "seed": int(t.get("seed", "0")),
              "group": None, "dist": None, "grid": {}, "learning_curve": None}
    info = _orbitlab.feature_map_info(features)
    if info["invariant"]:
        for key in ("group_spec", "dist_spec"):
            if key not in o:
                raise ValueError(f"setting orbit.{key}: missing (a setting of another Orbit Lab?)")
        config["group"], config["dist"] = o["group_spec"], o["dist_spec"]
        axis = t.get("sweep_axis", "")
        sweepable = [n for n, _, _, s in _orbitlab.distribution_parameters(o["group_spec"], o["dist_spec"], data.kind,
                                                                              list(data.image_shape)) if s]
        if axis and axis in sweepable:
            config["grid"][axis] = list(t.get("sweep_values", [0.03, 0.3, 3.0, 30.0]))
    learner_axis = _orbitlab.learner_info(learner)["axis"]
    if learner_axis == "lambda":
        config["grid"]["lambda"] = list(t.get("lambda", [1e-4, 1e-2, 1.0]))
    elif learner_axis == "C":
        config["grid"]["C"] = list(t.get("C", [0.1, 1.0, 10.0]))
    if _orbitlab.learner_info(learner)["gaussian_kernel"] or info["uses_base_kernel"]:
        config["grid"]["median"] = list(t.get("median", [1.0]))
    if t.get("learning_curve", True):
        config["learning_curve"] = [0.1, 0.25, 0.5, 1.0]
    return config


def _blr(classes, value):
    return BayesianLinearClassifier(fit_intercept=False) if classes else BayesianLinearRegressor(fit_intercept=False)


def _ridge(classes, value):  # one-vs-all +-1 targets (or standardised ones), no intercept: the core's objective
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.linear_model import Ridge, RidgeClassifier
    from sklearn.preprocessing import StandardScaler
    return RidgeClassifier(alpha=value, fit_intercept=False) if classes else \
        TransformedTargetRegressor(Ridge(alpha=value, fit_intercept=False), transformer=StandardScaler())


def _svm(classes, value):  # liblinear's L2-loss SVM with a regularised intercept feature, as the core calls it
    from sklearn.svm import LinearSVC
    return LinearSVC(C=value, loss="squared_hinge", dual=True, tol=0.1)


def _krr(classes, value):  # the bandwidth of the median rule is the panel's own
    from sklearn.kernel_ridge import KernelRidge
    return KernelRidge(alpha=value, kernel="rbf")


# The scikit-learn estimator that fits what each of the Training panel's feature learners fits.
_SKLEARN_LEARNERS = {"blr": _blr, "ridge": _ridge, "svm": _svm, "krr": _krr}


def _learner(name, classes, value):
    make = _SKLEARN_LEARNERS.get(name)
    if make is None:
        raise ValueError(f"setting: learner '{name}' has no scikit-learn pipeline here (these do: "
                         f"{', '.join(sorted(_SKLEARN_LEARNERS))}); run it with orbitlab.train instead")
    return make(classes, value)


def from_setting(text, data=None):
    """A SettingPipeline from the text of the window's Edit > Copy setting.

    data: the rows to train on; default the setting's own dataset file (its path must exist here),
    with the panel's seeded subset. The map is a FeatureMap with the setting's --features, group,
    distribution and median bandwidth; the learner BayesianLinearClassifier / Regressor for blr
    (without an intercept, as the panel fits it), scikit-learn's RidgeClassifier (ridge), LinearSVC
    (svm) or KernelRidge (krr) at the first grid value."""
    session = decode_setting(text)
    t = session.get("training", {})
    seed = int(t.get("seed", "0"))
    if data is None:
        path = (session.get("data") or {}).get("path", "")
        if not path or not os.path.exists(path):
            raise ValueError(f"data: the setting's dataset is not on this machine; pass data=orbitlab.load(...) (value '{path}')")
        whole = load(path)
        data = Data(_orbitlab.subset(whole.dataset, int(t.get("subset", 1000)), seed))
    config = _train_config(session, data)
    grid = config["grid"]
    kernel = "gaussian:median=" + _number(grid["median"][0]) if "median" in grid else None
    mapper = FeatureMap(features=config["features"], group=config["group"], distribution=config["dist"], kernel=kernel,
                        random_state=_orbitlab.feature_seed(seed), **data.map_params)
    param_grid = {}
    for name, values in grid.items():
        if name == "median":
            param_grid["map__kernel"] = ["gaussian:median=" + _number(v) for v in values]
        elif name in ("lambda", "C"):
            param_grid["learner__" + ("alpha" if name == "lambda" else "C")] = list(values)
        else:
            param_grid["map__distribution"] = [
                _orbitlab.dist_with(config["group"], config["dist"], data.kind, list(data.image_shape), {name: v})
                for v in values]
    first = {k: v[0] for k, v in param_grid.items()}
    classes = data.y is not None and data.y.dtype.kind == "i"
    axis = "lambda" if "lambda" in grid else "C" if "C" in grid else None
    learner = _learner(config["learner"], classes, grid[axis][0] if axis else None)
    pipe = SettingPipeline([("map", mapper), ("learner", learner)])
    if "map__distribution" in first:
        pipe.set_params(map__distribution=first["map__distribution"])
    pipe.setting = session
    pipe.data = data
    pipe.train_config = {"features": config["features"], "group": config["group"], "dist": config["dist"],
                         "learner": config["learner"], "eval": config["eval"], "grid": grid,
                         "learning_curve": config["learning_curve"], "seed": seed}
    pipe.param_grid = param_grid
    return pipe
