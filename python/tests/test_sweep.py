"""orbitlab.sweep against `orbitlab-cli predict --sweep`: the same numbers to the bit (the CSV's 17
digits), for a classifier of the digits turned through 360 degrees and a G2 energy model whose group
samples follow the row; at the identity the bits of `predict --index`."""

import numpy as np
import pytest

import orbitlab

from conftest import DIGITS, G2

SIX = 3000  # the first 6 of the digits sheet


def read_sweep(path):
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    rows = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    return header, rows


@pytest.fixture(scope="module")
def digits_model(cli, tmp_path_factory):
    path = tmp_path_factory.mktemp("sweep") / "local.npz"
    cli.run("train", "--data", DIGITS, "--n", 600, "--features", "irf:s=200,r=8", "--group", "rotation", "--dist",
            "vonmises:kappa=2", "--learner", "ridge", "--eval", "holdout:0.2", "--seed", 1, "--save-model", path)
    return path


def test_rotation_sweep_is_the_clis(cli, tmp_path, digits_model, digits):
    X, y = digits
    assert y[SIX] == 6
    out = tmp_path / "s.csv"
    j = cli.json("predict", "--model", digits_model, "--data", DIGITS, "--index", SIX, "--sweep", "rotation:0:360:73",
                 "--out", out)
    header, rows = read_sweep(out)
    assert header[0] == "t" and header[1:] == [f"score_{c}" for c in range(10)]
    model = orbitlab.load_model(digits_model)
    scores = orbitlab.sweep(model, X[SIX], "rotation", values=rows[:, 0], index=SIX)
    assert scores.shape == (73, 10)
    assert np.array_equal(scores, rows[:, 1:])
    # The same from the file's path, and the default values are the same 73 angles.
    assert np.array_equal(orbitlab.sweep(digits_model, X[SIX], index=SIX), scores)
    full = orbitlab.sweep(model, X[SIX].reshape(20, 20), values=rows[:, 0], index=SIX, full=True)
    assert [int(model.classes_[k]) for k in full["top"][:1]] == [int(j["top_at_start"])]
    # At the identity: predict --index's bits.
    one = tmp_path / "one.csv"
    cli.run("predict", "--model", digits_model, "--data", DIGITS, "--index", SIX, "--out", one)
    assert np.array_equal(np.array([float(v) for v in one.read_text().splitlines()[1].split(",")[2:]]), scores[0])


def test_permutation_sweep_follows_the_row(cli, tmp_path, g2):
    X, y = g2
    path = tmp_path / "g2.npz"
    cli.run("train", "--data", G2, "--features", "irf:s=200,r=8", "--group", "permutation", "--dist",
            "noisysort:sigma=1", "--learner", "blr", "--eval", "holdout:0.2", "--seed", 1, "--save-model", path)
    out = tmp_path / "p.csv"
    j = cli.json("predict", "--model", path, "--data", G2, "--index", 100, "--sweep", "permutation:0:10:11",
                 "--seed", 4, "--out", out)
    header, rows = read_sweep(out)
    # blr keeps its posterior (format 4): the energy with its interval, value -/+ 2 sd.
    assert header == ["t", "value", "lower", "upper"]
    energies = orbitlab.sweep(path, X[100], "permutation", values=range(11), index=100, seed=4)
    assert np.array_equal(energies, rows[:, 1])
    full = orbitlab.sweep(path, X[100], "permutation", values=range(11), index=100, seed=4, full=True)
    assert np.array_equal(full["lower"], rows[:, 2]) and np.array_equal(full["upper"], rows[:, 3])
    assert np.all(rows[:, 2] < rows[:, 1]) and np.all(rows[:, 1] < rows[:, 3])
    assert j["within_mc_error"] and np.std(energies) > 0
    # Another row's stream is another draw of the samples: not the same bits.
    assert not np.array_equal(orbitlab.sweep(path, X[100], "permutation", values=[0], index=7), energies[:1])


def test_bad_input_is_one_line(digits_model, digits):
    X, _ = digits
    with pytest.raises(ValueError, match="parameter"):
        orbitlab.sweep(digits_model, X[0], "twist", values=[0, 1])
    with pytest.raises(ValueError, match="data"):
        orbitlab.sweep(digits_model, X[0][:100], values=[0, 1])
    with pytest.raises(ValueError, match="scale"):
        orbitlab.sweep(digits_model, X[0], "scale", values=[0, 1])
    with pytest.raises(ValueError, match="values"):
        orbitlab.sweep(digits_model, X[0], "scale")


def test_moved_atoms_are_the_clis(cli, tmp_path, g2):
    """orbitlab.move_atoms is `predict --swap / --jitter`'s input: the same energies to the bit."""
    path = tmp_path / "g2.npz"
    cli.run("train", "--data", G2, "--features", "rf:s=100", "--learner", "blr", "--eval", "holdout:0.2", "--seed", 1,
            "--save-model", path)
    X, _ = g2
    n = int(round(np.sqrt(X.shape[1])))
    swapped = orbitlab.move_atoms(g2, 100, swap=(0, 4))
    C, S = X[100].reshape(n, n), swapped.reshape(n, n)
    perm = list(range(n))
    perm[0], perm[4] = 4, 0
    assert np.array_equal(S, C[np.ix_(perm, perm)])
    assert np.array_equal(orbitlab.move_atoms(g2, 100, jitter=0.0), X[100])
    for args, kwargs in [(["--swap", "0,4"], {"swap": (0, 4)}), (["--jitter", "0.05", "--seed", 3], {"jitter": 0.05, "seed": 3}),
                         (["--swap", "2,5", "--jitter", "0.1"], {"swap": (2, 5), "jitter": 0.1})]:
        j = cli.json("predict", "--model", path, "--data", G2, "--index", 100, *args)
        x = orbitlab.move_atoms(g2, 100, **kwargs)
        assert orbitlab.sweep(path, x, "permutation", values=[0], index=100)[0] == j["prediction"]
    with pytest.raises(ValueError, match="9 atoms"):
        orbitlab.move_atoms(g2, 100, swap=(0, 9))
    with pytest.raises(ValueError, match="jitter"):
        orbitlab.move_atoms(g2, 100, jitter=-1)
