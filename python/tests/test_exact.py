"""The exact invariant kernel machines in Python (orbitlab/exact.py; scikit-learn's estimator checks
are in test_estimator_checks.py): the GP against scikit-learn's own GaussianProcessRegressor on the plain
kernel, exact invariance under a finite group with Haar weights, and the CLI's numbers on G2."""

import os

import numpy as np
import pytest
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

import orbitlab


def test_gp_matches_scikit_learns_on_the_plain_kernel():
    # Without a group k_G is the Gaussian itself: the fitted bandwidth, noise and log marginal
    # likelihood are scikit-learn's ConstantKernel * RBF + WhiteKernel with normalize_y.
    rng = np.random.RandomState(0)
    X = rng.randn(200, 4)
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.05 * rng.randn(200)
    ours = orbitlab.InvariantGaussianProcess(group=None, distribution=None).fit(X[:150], y[:150])
    theirs = GaussianProcessRegressor(ConstantKernel() * RBF() + WhiteKernel(), normalize_y=True).fit(X[:150], y[:150])
    assert ours.log_marginal_likelihood_ == pytest.approx(theirs.log_marginal_likelihood_value_, rel=1e-3, abs=0.05)
    assert float(ours.kernel_.split("=")[1]) == pytest.approx(theirs.kernel_.k1.k2.length_scale, rel=0.02)
    m1, s1 = ours.predict(X[150:], return_std=True)
    m2, s2 = theirs.predict(X[150:], return_std=True)
    assert np.abs(m1 - m2).max() < 5e-3
    assert np.abs(s1 - s2).max() < 5e-3


def test_haar_sum_is_exactly_invariant():
    # C4 on 5 x 5 images with Haar weights: predictions of a quarter turn equal the image's own, to
    # the float rounding of the turned image's distances (computed at other places of a product)
    # carried through the dual weights.
    rng = np.random.RandomState(1)
    X = rng.rand(60, 25)
    y = X.sum(axis=1) + (X.reshape(-1, 5, 5)[:, 2, 2] > 0.5)
    turned = np.rot90(X.reshape(-1, 5, 5), axes=(1, 2)).reshape(-1, 25).copy()
    for est in (orbitlab.InvariantKernelRidge(group="cyclic:n=4", distribution="haar", image_shape=(5, 5)),
                orbitlab.InvariantGaussianProcess(group="cyclic:n=4", distribution="haar", image_shape=(5, 5))):
        est.fit(X[:40], y[:40])
        np.testing.assert_allclose(est.predict(X[40:]), est.predict(turned[40:]), rtol=1e-3, atol=1e-3)


def test_exact_gp_on_molecules_beats_the_mean():
    path = os.path.join(os.environ.get("ORBIT_SOURCE_DIR", "."), "resources", "data", "g2.extxyz")
    X, y = orbitlab.load(path)
    gp = orbitlab.InvariantGaussianProcess(group="permutation", distribution="noisysort:sigma=1", kernel="laplacian:median=1",
                                           n_group_samples=3, input_kind="coulomb", random_state=0).fit(X[:100], y[:100])
    rmse = np.sqrt(np.mean((gp.predict(X[100:]) - y[100:]) ** 2))
    assert rmse < 0.5 * np.std(y[100:])
    assert np.isfinite(gp.log_marginal_likelihood_) and gp.kernel_.startswith("laplacian:sigma=")
