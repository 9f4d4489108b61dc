"""The bridge from the window: from_setting on the text of the GUI's Copy setting reproduces the
Training panel's accuracy for the same seed, and a malformed text is refused with the window's own
one-line message. The GUI suite test_python_setting_fixture (python/tests/fixture) trains the
settings in a real main window and writes them with the panel's numbers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV

import orbitlab

from conftest import DIGITS


@pytest.fixture(scope="module")
def fixture():
    path = Path(os.environ.get("ORBIT_PYTHON_FIXTURES", "")) / "setting.json"
    if not path.is_file():
        pytest.skip(f"{path} is missing: the GUI suite test_python_setting_fixture writes it (a build with the GUI)")
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", ["blr", "ridge"])
def test_from_setting_reproduces_the_training_panel(fixture, name):
    recorded = next(s for s in fixture["settings"] if s["name"] == name)
    pipe = orbitlab.from_setting(recorded["setting"])
    assert isinstance(pipe, orbitlab.SettingPipeline) and [n for n, _ in pipe.steps] == ["map", "learner"]
    assert pipe.data.X.shape[0] == recorded["samples"]
    run = pipe.evaluate()
    assert run.metric == recorded["metric"]
    assert run.mean == recorded["mean"]  # the panel's number, to the last bit
    assert [f["score"] for f in run.folds] == [f["score"] for f in recorded["folds"]]
    assert [f["chosen"] for f in run.folds] == [f["chosen"] for f in recorded["folds"]]


def test_the_setting_pipeline_is_configured_and_searchable(fixture):
    recorded = next(s for s in fixture["settings"] if s["name"] == "blr")
    pipe = orbitlab.from_setting(recorded["setting"])
    mapper, learner = pipe.named_steps["map"], pipe.named_steps["learner"]
    assert mapper.features == "irf:s=80,r=4" and mapper.group == "rotation" and mapper.image_shape == (20, 20, 1)
    assert isinstance(learner, orbitlab.BayesianLinearClassifier) and learner.fit_intercept is False
    assert pipe.param_grid == {"map__distribution": ["vonmises:kappa=0.3", "vonmises:kappa=3"],
                               "map__kernel": ["gaussian:median=1"]}
    X, y = pipe.data
    search = GridSearchCV(pipe, pipe.param_grid, cv=3).fit(X, y)
    assert search.best_score_ > 0.5
    ridge = orbitlab.from_setting(next(s for s in fixture["settings"] if s["name"] == "ridge")["setting"])
    assert ridge.param_grid["learner__alpha"] == [1e-3, 1e-1]
    assert ridge.named_steps["map"].distribution == "uniform:a=1"


@pytest.mark.parametrize("name", ["blr", "ridge"])
def test_copy_as_python_prints_the_panels_numbers(fixture, name):
    """The text the Training panel's Copy as Python gives (core's trainingAsPython, called by the GUI
    suite as the button will call it) runs as it is and prints the panel's metric and mean."""
    recorded = next(s for s in fixture["settings"] if s["name"] == name)
    script = recorded["python"]
    assert script.startswith("# Orbit Lab, Training panel") and "orbitlab.train(" in script
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    metric, mean, _ = out.split(" ", 2)
    assert metric == recorded["metric"] and float(mean) == recorded["mean"]


def test_malformed_texts_get_the_windows_message(fixture):
    for case in fixture["malformed"]:
        with pytest.raises(ValueError) as e:
            orbitlab.from_setting(case["text"])
        assert str(e.value) == case["error"], case["text"]


def test_another_machines_data_need_to_be_given(fixture, tmp_path):
    recorded = next(s for s in fixture["settings"] if s["name"] == "blr")
    session = orbitlab.decode_setting(recorded["setting"])
    assert session["data"]["path"].endswith("digits.png")
    pipe = orbitlab.from_setting(recorded["setting"], data=orbitlab.load(DIGITS, n=300, seed=7))
    assert pipe.data.X.shape == (300, 400)


def test_train_takes_the_cores_table_of_settings():
    """orbitlab.train's keywords are the rows of the core's table (orbit/experiments/TrainSettings.hpp),
    with its defaults; an unknown keyword is refused as Python refuses one; a row's value reaches the
    run (block_rows changes the numbers' partition, inner_folds the selection)."""
    import inspect
    table = orbitlab.setting._orbitlab.train_settings()
    params = inspect.signature(orbitlab.train).parameters
    for row in table:
        assert row["key"] in params, row["key"]
        assert params[row["key"]].default == row["default"], row["key"]
    assert [p for p in params if p not in {r["key"] for r in table}] == ["data", "n_jobs", "verbose"]
    with pytest.raises(TypeError, match="inner_fold"):
        orbitlab.train(orbitlab.load(DIGITS, n=60), inner_fold=2)
    data = orbitlab.load(DIGITS, n=120, seed=1)
    plain = orbitlab.train(data, features="rf:s=40", grid={"lambda": [1e-3, 1.0], "median": [1.0]}, seed=3)
    inner = orbitlab.train(data, features="rf:s=40", grid={"lambda": [1e-3, 1.0], "median": [1.0]}, seed=3,
                           inner_folds=3)
    assert inner.result["grid"] != plain.result["grid"]  # the validation scores come from 3 inner folds
    with pytest.raises(Exception, match="inner-folds"):
        orbitlab.train(data, inner_folds=99)


def test_a_learner_without_a_scikit_learn_pipeline_is_named(fixture):
    """A setting whose learner has no scikit-learn counterpart here (the exact GP) is refused with
    its name and the ones that have one, not silently fitted as kernel ridge."""
    import base64
    import zlib
    session = orbitlab.decode_setting(next(s for s in fixture["settings"] if s["name"] == "blr")["setting"])
    session["training"]["learner"] = "gp"
    payload = base64.urlsafe_b64encode(zlib.compress(json.dumps(session).encode())).decode().rstrip("=")
    with pytest.raises(ValueError, match=r"learner 'gp' has no scikit-learn pipeline here \(these do: blr, krr, ridge, svm\)"):
        orbitlab.from_setting(orbitlab.setting.PREFIX + "1:" + payload, data=orbitlab.load(DIGITS, n=60, seed=1))
