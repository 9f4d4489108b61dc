"""The Python module built with the test-only toy distribution and learner linked in (tests/toy,
python/CMakeLists.txt's _orbitlab_toy in build/python_toy): registered by its library alone, "toyshift"
reaches the module's registry-facing functions and an estimator, and "toymean" orbitlab.train, like a
built-in distribution and learner (issue 45 item 3); and the group "flipx" an estimator."""
import numpy as np
import pytest

import orbitlab
from orbitlab import _orbitlab


def test_it_is_the_toy_build():
    assert orbitlab.__file__.endswith("python_toy/orbitlab/__init__.py")


def test_its_parameters_come_from_its_descriptor():
    params = _orbitlab.distribution_parameters("translation", "toyshift:d=2", "images", [8, 8, 1])
    assert [(name, value) for name, value, _, _ in params] == [("d", 2.0)]
    assert _orbitlab.dist_with("translation", "toyshift:d=2", "images", [8, 8, 1], {"d": 3.0}) == "toyshift:d=3"
    assert _orbitlab.distribution_info("toyshift:d=1")["depends_on_input"] is False


def test_it_is_checked_like_a_built_in_one():
    with pytest.raises(ValueError, match="toyshift.d"):
        _orbitlab.distribution_parameters("translation", "toyshift:d=500", "images", [8, 8, 1])
    with pytest.raises(ValueError, match="translation"):
        _orbitlab.distribution_parameters("rotation", "toyshift:d=1", "images", [8, 8, 1])


def test_an_estimator_takes_it():
    X = np.random.default_rng(0).random((6, 64), dtype=np.float32)
    F = orbitlab.InvariantRBFSampler(group="translation", distribution="toyshift:d=1", n_components=20,
                                     n_group_samples=4, gamma=0.1, image_shape=(8, 8),
                                     random_state=0).fit_transform(X)
    assert F.shape == (6, 20)
    assert np.all(np.isfinite(F))


def test_its_kernel_reaches_the_module():
    # The toy kernel (tests/toy/ToyKernel.hpp), the Gaussian at sigma / sqrt(2), by its registration alone:
    # its spec resolves, bad values are refused naming it, and an estimator predicts with it as with the
    # Gaussian at the matching bandwidth.
    rng = np.random.default_rng(1)
    X = rng.random((30, 16), dtype=np.float32)
    y = X.sum(axis=1) + 0.1 * rng.standard_normal(30)
    assert _orbitlab.resolve_kernel("toysquare:sigma=2", X, 0) == "toysquare:sigma=2"
    with pytest.raises(ValueError, match="toysquare"):
        _orbitlab.resolve_kernel("toysquare:sigma=-1", X, 0)
    common = dict(group="cyclic:n=4", distribution="haar", image_shape=(4, 4), n_group_samples=3, random_state=0)
    toy = orbitlab.InvariantKernelRidge(kernel="toysquare:sigma=2", **common).fit(X, y).predict(X)
    gauss = orbitlab.InvariantKernelRidge(kernel="gaussian:sigma=1.4142135623730951", **common).fit(X, y).predict(X)
    np.testing.assert_allclose(toy, gauss, rtol=1e-4, atol=1e-4)


def test_the_toy_learners_words_come_from_its_descriptor():
    info = _orbitlab.learner_info("toymean")
    assert info["axis"] == "" and info["classes_only"] is False and info["gaussian_kernel"] is False


def test_train_runs_the_toy_learner(tmp_path):
    rows = [(np.sin(1.3 * i), np.cos(0.7 * i), 5.5 if i % 2 else 7.5) for i in range(60)]
    path = tmp_path / "targets.csv"
    path.write_text("".join(f"{a},{b},{t}\n" for a, b, t in rows))
    run = orbitlab.train(orbitlab.load(str(path)), features="raw", learner="toymean", eval="kfold:3")
    assert abs(run.mean - 1.0) < 0.1  # targets 5.5 and 7.5 predicted by their mean


def test_the_toy_group_reaches_an_estimator():
    # The toy group (tests/toy/ToyGroup.hpp), flipx with haar, by its registration alone: the invariant
    # features of an image and of its mirror image are the same (the two-element orbit is summed exactly).
    rng = np.random.default_rng(2)
    X = rng.random((5, 8, 8), dtype=np.float32)
    both = np.concatenate([X, X[:, :, ::-1]]).reshape(10, 64)
    F = orbitlab.InvariantRBFSampler(group="flipx", distribution="haar", n_components=16, n_group_samples=64,
                                     gamma=0.1, image_shape=(8, 8), random_state=0).fit_transform(both)
    assert F.shape == (10, 16)
    assert np.all(np.isfinite(F))
    # Up to the 64 draws of each orbit (about 0.02 at this seed), far below the distance to another image.
    assert np.abs(F[:5] - F[5:]).max() < 0.06
    assert np.abs(F[:5] - F[[1, 2, 3, 4, 0]]).max() > 0.2
    params = _orbitlab.distribution_parameters("flipx", "haar", "images", [8, 8, 1])
    assert params == []
    with pytest.raises(ValueError, match="rotation"):
        _orbitlab.distribution_parameters("flipx", "vonmises:kappa=1", "images", [8, 8, 1])
