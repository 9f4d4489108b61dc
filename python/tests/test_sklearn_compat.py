"""orbitlab._sklearn_compat: the estimators on scikit-learn 1.2's API (installed here, Debian 12) and
on today's (validate_data, __sklearn_tags__), which these tests put in place of 1.2's: a
validate_data function in sklearn.utils.validation, BaseEstimator._validate_data gone (scikit-learn
1.7 removed it) and BaseEstimator.__sklearn_tags__ returning the new tag objects."""

import dataclasses
import inspect

import numpy as np
import pytest
import sklearn.utils.validation
from sklearn.base import BaseEstimator, clone

import orbitlab
from orbitlab import _sklearn_compat

TRANSLATION = {"group": "translation", "distribution": "gaussian:sigma=1", "image_shape": (1, -1)}


def small_estimators():
    """One of each estimator, small enough for a quick fit on 30 x 4 rows."""
    return [
        orbitlab.InvariantRBFSampler(n_components=20, random_state=0),
        orbitlab.InvariantRBFSampler(n_components=20, n_group_samples=2, random_state=0, **TRANSLATION),
        orbitlab.InvariantNystroem(n_components=10, random_state=0),
        orbitlab.GICDF(n_templates=3, n_bins=4, n_group_samples=4, random_state=0),
        orbitlab.FeatureMap(random_state=0),
        orbitlab.BayesianLinearClassifier(),
        orbitlab.BayesianLinearRegressor(),
        orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(n_components=20, n_group_samples=2, **TRANSLATION),
                                  max_evals=3, random_state=0),
    ]


def outputs(est, X, y):
    """Every output of est fitted on (X, y): features, decision values and predictions."""
    est = clone(est).fit(X, y.astype(float) if isinstance(est, orbitlab.BayesianLinearRegressor) else y)
    return [np.asarray(getattr(est, m)(X)) for m in ("transform", "decision_function", "predict") if hasattr(est, m)]


@pytest.fixture()
def data():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(30, 4))
    return X, (X[:, 0] > 0.5).astype(int)


@pytest.fixture()
def new_validation(monkeypatch):
    """scikit-learn >= 1.7's validation: the function validate_data, no BaseEstimator._validate_data
    for this package's estimators. The stand-in does what 1.2's method does (the checks are the same)
    and records its calls."""
    real = getattr(sklearn.utils.validation, "validate_data", None)
    method = BaseEstimator.__dict__.get("_validate_data")
    calls = []

    def validate_data(_estimator, /, X="no_validation", y="no_validation", reset=True, validate_separately=False,
                      skip_check_array=False, **check_params):
        calls.append((type(_estimator).__name__, reset))
        if real is not None:  # a scikit-learn that has it: the real one, recorded
            return real(_estimator, X, y, reset=reset, validate_separately=validate_separately,
                        skip_check_array=skip_check_array, **check_params)
        assert not skip_check_array
        return method(_estimator, X, y, reset=reset, validate_separately=validate_separately, **check_params)

    def removed(self, *args, **kwargs):
        # Gone for this package's estimators; scikit-learn 1.2's own (StandardScaler in the checks) still use it.
        if type(self).__module__.startswith("orbitlab"):
            raise AttributeError("'BaseEstimator' object has no attribute '_validate_data' (scikit-learn >= 1.7)")
        return method(self, *args, **kwargs)

    monkeypatch.setattr(sklearn.utils.validation, "validate_data", validate_data, raising=False)
    if method is not None:
        monkeypatch.setattr(BaseEstimator, "_validate_data", removed)
    return calls


def test_installed_scikit_learn_takes_the_method_branch(data):
    """On scikit-learn < 1.6 (Debian 12's 1.2) there is no validate_data function: the estimators call
    their own _validate_data, and it is the compat module that does."""
    if hasattr(sklearn.utils.validation, "validate_data"):
        pytest.skip(f"scikit-learn {sklearn.__version__} has validate_data: the new branch runs in every test")
    X, y = data
    seen = []
    original = BaseEstimator._validate_data

    def spy(self, *args, **kwargs):
        seen.append(type(self).__name__)
        return original(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(BaseEstimator, "_validate_data", spy)
        for est in small_estimators():
            outputs(est, X, y)
    assert {type(e).__name__ for e in small_estimators()} <= set(seen)


def test_estimators_work_with_validate_data_and_no_method(data, new_validation):
    """Every estimator fits and transforms / predicts through sklearn.utils.validation.validate_data
    when scikit-learn has it, with the same results as through 1.2's method (the same seeds, the
    same bits): fit resets n_features_in_, transform and predict check against it."""
    X, y = data
    estimators = small_estimators()
    new = [outputs(est, X, y) for est in estimators]
    names = {type(e).__name__ for e in estimators}
    assert {name for name, reset in new_validation if reset} == names
    assert {name for name, reset in new_validation if not reset} == names
    with pytest.raises(ValueError, match="features"):  # reset=False still checks the column count
        clone(estimators[0]).fit(X, y).transform(X[:, :3])
    if _method_of_1_2 is None:  # a scikit-learn without the method: nothing to compare with
        return
    new_validation.clear()
    with pytest.MonkeyPatch.context() as mp:  # 1.2's API again, inside the fixture's patches
        mp.delattr(sklearn.utils.validation, "validate_data")
        mp.setattr(BaseEstimator, "_validate_data", _method_of_1_2)
        old = [outputs(est, X, y) for est in small_estimators()]
    assert not new_validation
    for a, b in zip(new, old):
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)


_method_of_1_2 = BaseEstimator.__dict__.get("_validate_data")


def test_check_estimator_passes_on_the_new_validation(new_validation):
    """scikit-learn's checks on a map and a learner at their defaults, validating through the new function."""
    from test_estimator_checks import _skip_reason, checks_of
    for est in (orbitlab.InvariantRBFSampler(), orbitlab.BayesianLinearClassifier()):
        for e, check in checks_of(est):
            if not _skip_reason(e, check):
                check(e)
    assert new_validation


@dataclasses.dataclass
class TargetTags:
    required: bool
    one_d_labels: bool = False


@dataclasses.dataclass
class TransformerTags:
    preserves_dtype: list = dataclasses.field(default_factory=lambda: ["float64"])


@dataclasses.dataclass
class Tags:
    estimator_type: object
    target_tags: TargetTags
    transformer_tags: object = None


def test_tags_reach_both_apis(monkeypatch):
    """The tags an estimator states once (_orbit_tags) reach 1.2's _get_tags and, with scikit-learn
    >= 1.6's BaseEstimator.__sklearn_tags__ in place, the new Tags objects."""
    maps = [orbitlab.InvariantRBFSampler(), orbitlab.InvariantNystroem(), orbitlab.GICDF(), orbitlab.FeatureMap(),
            orbitlab.SortedCoulomb()]
    evidence = orbitlab.EvidenceLocality()
    if not hasattr(BaseEstimator, "__sklearn_tags__"):  # scikit-learn < 1.6: the old tags
        for est in maps:
            assert [np.dtype(t) for t in est._get_tags()["preserves_dtype"]] == [np.float32]
            assert not est._get_tags()["requires_y"]
        assert evidence._get_tags()["requires_y"]

        def base_tags(self):
            return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                        transformer_tags=TransformerTags() if hasattr(self, "transform") else None)

        monkeypatch.setattr(BaseEstimator, "__sklearn_tags__", base_tags, raising=False)
    for est in maps:
        tags = est.__sklearn_tags__()
        assert tags.transformer_tags.preserves_dtype == ["float32"] and not tags.target_tags.required
    tags = evidence.__sklearn_tags__()
    assert tags.target_tags.required and tags.transformer_tags.preserves_dtype == ["float32"]
    learner = orbitlab.BayesianLinearClassifier()
    assert learner.__sklearn_tags__() == BaseEstimator.__sklearn_tags__(learner)  # nothing of its own


def test_every_class_with_old_tags_has_new_ones():
    """scikit-learn 1.6 reads the old tags of the whole estimator when one class of it defines
    _more_tags without __sklearn_tags__ (with a DeprecationWarning; 1.7 ignores them, and its
    check_estimator_tags_renamed fails): no class of the package does."""
    for name in orbitlab.__all__:
        cls = getattr(orbitlab, name)
        if not inspect.isclass(cls) or not issubclass(cls, BaseEstimator):
            continue
        for klass in cls.mro():
            if klass.__module__.startswith("orbitlab") and ("_more_tags" in vars(klass) or "_get_tags" in vars(klass)):
                assert "__sklearn_tags__" in vars(klass), f"{klass.__name__} of {name}"
    assert "_more_tags" in vars(_sklearn_compat.TagsMixin)
