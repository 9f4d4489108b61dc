"""orbitlab.load reads every format the app reads, as `orbitlab-cli info` sees it, and refuses a bad
file with the loader's one line."""

import numpy as np
import pytest

import orbitlab

from conftest import DIGITS, G2, SOURCE

FIX = SOURCE / "tests" / "fixtures" / "data"
FILES = [DIGITS, G2, FIX / "cifar" / "valid.bin", FIX / "amat" / "valid.amat", FIX / "image" / "rgb.png",
         FIX / "folder", FIX / "csv" / "labels.csv", FIX / "csv" / "regression.csv",
         FIX / "idx" / "smallgz-images-idx3-ubyte.gz", FIX / "idx" / "small-images-idx3-ubyte"]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_load_sees_what_info_sees(cli, path):
    info = cli.json("info", path)
    data = orbitlab.load(path)
    X, y = data
    assert data.kind == info["kind"] and X.shape[0] == info["count"] and X.dtype == np.float32
    assert int(np.prod(info["shape"])) * info["channels"] == X.shape[1] == int(np.prod(data.image_shape))
    if info["classes"] is not None:
        assert y.dtype == np.int64 and len(np.unique(y)) <= info["classes"]
    elif info["target"] is not None:
        assert y.dtype == np.float64 and y.min() == pytest.approx(info["target"]["min"])
    else:
        assert y is None


def test_prepared_as_the_cli_prepares(cli):
    """--n, --rotate, --pad and --seed pick and turn the same rows: train on them gives the CLI's numbers."""
    data = orbitlab.load(DIGITS, n=120, rotate=True, pad=24, seed=4)
    assert data.X.shape == (120, 576) and data.image_shape == (24, 24, 1)
    expected = cli.json("train", "--data", DIGITS, "--n", 120, "--rotate", "--pad", 24, "--seed", 4, "--features", "rf:s=50",
                        "--learner", "ridge", "--grid", "lambda=0.01,1;median=1,2", "--eval", "kfold:3")
    run = orbitlab.train(data, features="rf:s=50", learner="ridge", grid={"lambda": [0.01, 1], "median": [1, 2]},
                         eval="kfold:3", seed=4)
    assert run.mean == expected["mean"] and [f["chosen"] for f in run.folds] == [f["chosen"] for f in expected["folds"]]


@pytest.mark.parametrize("path,says", [
    (FIX / "idx" / "truncated.idx", "truncated.idx"),
    (FIX / "amat" / "nan.amat", "nan.amat"),
    (FIX / "cifar" / "bad_label.bin", "bad_label.bin"),
    (SOURCE / "no" / "such.png", "such.png"),
])
def test_bad_files_are_one_line_value_errors(path, says):
    with pytest.raises(ValueError) as e:
        orbitlab.load(path)
    assert says in str(e.value) and "\n" not in str(e.value)
