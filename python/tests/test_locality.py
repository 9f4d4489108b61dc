"""EvidenceLocality learns exactly what `orbitlab-cli learn` learns on the same rows and seed:
the same parameters, log evidence and trajectory, to the last bit."""

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

import orbitlab

from conftest import DIGITS


@pytest.mark.parametrize("dist,learn", [("vonmises:kappa=1", "kappa"), ("uniform:a=0.5", "a")])
def test_learns_what_the_cli_learns(cli, dist, learn):
    common = ["--data", DIGITS, "--n", 300, "--rotate", "--rotate-max", 90, "--seed", 3, "--features", "irf:s=120,r=8",
              "--group", "rotation", "--dist", dist, "--learn", learn, "--max-evals", 6]
    expected = cli.json("learn", *common)
    X, y = orbitlab.load(DIGITS, n=300, rotate=True, rotate_max=90, seed=3)
    est = orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(group="rotation", distribution=dist, n_components=120,
                                                                 n_group_samples=8, image_shape=(28, 28)),
                                    learn=learn, max_evals=6, random_state=3).fit(X, y)
    assert est.params_ == expected["params"]
    assert est.dist_ == expected["dist"]
    assert est.log_evidence_ == expected["log_evidence"]
    assert est.method_ == expected["method"]
    assert [(p["params"], p["log_evidence"], p["stage"]) for p in est.trajectory_] == \
        [(p["params"], p["log_evidence"], p["stage"]) for p in expected["trajectory"]]
    # The map it then transforms with is the learned distribution's, seeded like `features --seed 3`.
    assert est.estimator_.get_params()["distribution"] == expected["dist"]
    assert est.transform(X).shape == (300, 120)


def test_learn_defaults_to_the_learnable_parameters(digits):
    X, y = orbitlab.load(DIGITS, n=300, rotate=True, seed=1)
    est = orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=2",
                                                                 n_components=100, n_group_samples=4, image_shape=(28, 28)),
                                    max_evals=4, random_state=0).fit(X, y)
    assert set(est.params_) == {"kappa"} and len(est.trajectory_) <= 4
    with pytest.raises(ValueError, match="vonmises has no parameter of that name"):
        orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=2",
                                                               image_shape=(28, 28)), learn="sigma").fit(X, y)
    with pytest.raises(ValueError, match="group and a distribution"):
        orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(image_shape=(28, 28))).fit(X, y)


def test_in_cross_val_score(digits):
    X, y = orbitlab.load(DIGITS, n=300, rotate=True, seed=2)
    pipe = make_pipeline(orbitlab.EvidenceLocality(orbitlab.InvariantRBFSampler(
        group="rotation", distribution="uniform:a=0.5", n_components=150, n_group_samples=8, image_shape=(28, 28)),
        learn="a", max_evals=6, random_state=0), orbitlab.BayesianLinearClassifier())
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.shape == (3,) and scores.mean() > 0.5
