"""Same numbers: transform gives the bits `orbitlab-cli features` writes with the same spec and
seed, on the bundled digits (images) and G2 molecules (Coulomb matrices, noisy sort), whatever the
input's dtype and memory order."""

import numpy as np
import pytest

import orbitlab

from conftest import DIGITS, G2

DIGIT_MAPS = [
    ("irf:s=300,r=8", "rotation", "vonmises:kappa=1",
     lambda: orbitlab.InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=1", n_components=300,
                                          n_group_samples=8, image_shape=(20, 20))),
    ("irf:s=200,r=4,mode=data", "rotation", "uniform:a=0.5",
     lambda: orbitlab.InvariantRBFSampler(group="rotation", distribution="uniform:a=0.5", n_components=200,
                                          n_group_samples=4, mode="data", image_shape=(20, 20))),
    ("inystrom:s=150,r=4", "rotation", "vonmises:kappa=2",
     lambda: orbitlab.InvariantNystroem(group="rotation", distribution="vonmises:kappa=2", n_components=150,
                                        n_group_samples=4, image_shape=(20, 20))),
    ("gicdf:m=12,bins=10,r=8", "rotation", "haar",
     lambda: orbitlab.GICDF(group="rotation", distribution="haar", n_templates=12, n_bins=10, n_group_samples=8,
                            image_shape=(20, 20))),
    ("rf:s=100", None, None, lambda: orbitlab.InvariantRBFSampler(n_components=100, image_shape=(20, 20))),
]


def cli_features(cli, tmp_path, data, features, group, dist, seed, kernel=None):
    out = tmp_path / "f.npy"
    args = ["features", "--data", data, "--features", features, "--seed", seed, "--out", out]
    if group:
        args += ["--group", group, "--dist", dist]
    if kernel:
        args += ["--kernel", kernel]
    cli.run(*args)
    return np.load(out)


@pytest.mark.parametrize("features,group,dist,make", DIGIT_MAPS, ids=[m[0] for m in DIGIT_MAPS])
def test_digits_transform_is_the_cli_features(cli, tmp_path, digits, features, group, dist, make):
    X, _ = digits
    est = make().set_params(random_state=11)
    F = est.fit_transform(X)
    assert est.map_.recipe["features"] == features
    expected = cli_features(cli, tmp_path, DIGITS, features, group, dist, 11)
    assert F.dtype == np.float32 and F.shape == expected.shape
    assert np.array_equal(F, expected)
    # float64 and Fortran order are read where they lie, converted block by block: the same bits.
    assert np.array_equal(est.transform(np.asfortranarray(X, dtype=np.float64)), expected)
    assert np.array_equal(est.transform(X[:, ::-1][:, ::-1]), expected)  # a strided view


def test_g2_noisy_sort_is_the_cli_features(cli, tmp_path, g2):
    X, y = g2
    assert g2.kind == "coulomb" and g2.image_shape == (14, 14, 1) and y.dtype == np.float64
    est = orbitlab.InvariantRBFSampler(group="permutation", distribution="noisysort:sigma=1", n_components=400,
                                       n_group_samples=10, random_state=5, **g2.map_params)
    F = est.fit_transform(X)
    assert est.map_.uses_row_index  # each molecule its own noisy sorts, by its row
    expected = cli_features(cli, tmp_path, G2, "irf:s=400,r=10", "permutation", "noisysort:sigma=1", 5)
    assert np.array_equal(F, expected)
    assert np.array_equal(est.transform(np.asfortranarray(X, dtype=np.float64)), expected)


def test_g2_sorted_coulomb_and_gicdf(cli, tmp_path, g2):
    X, _ = g2
    assert np.array_equal(orbitlab.SortedCoulomb().fit_transform(X), cli_features(cli, tmp_path, G2, "sorted", None, None, 0))
    est = orbitlab.GICDF(group="permutation", distribution="noisysort:sigma=0.5", n_templates=8, n_bins=6,
                         n_group_samples=5, norm="max", span="auto", random_state=2, input_kind="coulomb")
    expected = cli_features(cli, tmp_path, G2, "gicdf:m=8,bins=6,r=5,norm=max,span=auto", "permutation",
                            "noisysort:sigma=0.5", 2)
    assert np.array_equal(est.fit_transform(X), expected)


def test_feature_map_takes_any_cli_spec(cli, tmp_path, digits):
    X, _ = digits
    spec = "irf:s=64,r=4+rf2:s=48,median=0.5"
    est = orbitlab.FeatureMap(features=spec, group="rotation", distribution="vonmises:kappa=3", kernel="gaussian:median=2",
                              image_shape=(20, 20), random_state=4)
    expected = cli_features(cli, tmp_path, DIGITS, spec, "rotation", "vonmises:kappa=3", 4, kernel="gaussian:median=2")
    assert np.array_equal(est.fit_transform(X), expected)


def test_gamma_is_the_gaussian_bandwidth(cli, tmp_path, digits):
    X, _ = digits
    est = orbitlab.InvariantRBFSampler(n_components=50, gamma=0.0125, image_shape=(20, 20), random_state=1)
    # gamma = 1 / (2 sigma^2): 0.0125 is sigma = 6.324555320336759
    expected = cli_features(cli, tmp_path, DIGITS, "rf:s=50", None, None, 1, kernel="gaussian:sigma=6.324555320336759")
    assert np.array_equal(est.fit_transform(X), expected)
