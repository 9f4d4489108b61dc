"""Models that outlive the process: a model saved by the CLI predicts the same bits in Python and in
the CLI, a model saved by Python is read by the CLI, NumPy alone reads the file, and a cut, altered,
newer or mismatched file is refused with one line naming the field."""

import json
import shutil
import zipfile

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

import orbitlab

from conftest import DIGITS, G2, read_predictions


@pytest.fixture(scope="module")
def cli_model(cli, tmp_path_factory):
    """train --save-model on 600 digits (ridge, a grid over lambda and the bandwidth)."""
    path = tmp_path_factory.mktemp("model") / "digits.npz"
    run = cli.json("train", "--data", DIGITS, "--n", 600, "--features", "irf:s=200,r=8", "--group", "rotation",
                   "--dist", "vonmises:kappa=1", "--learner", "ridge", "--eval", "holdout:0.5",
                   "--grid", "lambda=1e-3,1e-1;median=0.5,1", "--seed", 3, "--save-model", path)
    assert run["saved_model"]["path"] == str(path)
    return path, run


def test_cli_model_predicts_the_same_bits_in_python(cli, tmp_path, cli_model):
    path, run = cli_model
    out = tmp_path / "p.csv"
    j = cli.json("predict", "--model", path, "--data", DIGITS, "--n", 600, "--seed", 3, "--out", out)
    labels, scores = read_predictions(out)
    X, y = orbitlab.load(DIGITS, n=600, seed=3)
    pipe = orbitlab.load_model(path)
    assert pipe.saved_["learner"] == "ridge" and pipe.saved_["chosen"] == run["saved_model"]["chosen"]
    assert np.array_equal(pipe.decision_function(X), scores)
    assert [str(c) for c in pipe.predict(X)] == labels
    assert j["metric"] == "accuracy" and j["score"] == pytest.approx(np.mean(pipe.predict(X) == y), abs=0)
    # The model is the first split's at its chosen point: its training rows are the split's half.
    assert pipe.saved_["train_rows"] == run["saved_model"]["train_rows"] < 600


def test_numpy_alone_reads_the_file(cli_model):
    path, run = cli_model
    z = np.load(path)  # no pickle: every array is a plain dtype
    # Linear models stay version 1 (every reader reads them); krr files are version 2.
    assert str(z["format"]) == "orbitlab-model" and int(z["format_version"]) == 1 < orbitlab.MODEL_FORMAT_VERSION
    assert str(z["map_features"]) == "irf:s=200,r=8" and str(z["map_group"]) == "rotation"
    assert str(z["map_kernel"]).startswith("gaussian:sigma=")
    assert z["weights"].shape == (200, 10) and z["weights"].dtype == np.float64
    assert list(z["input_shape"]) == [20, 20, 1] and list(z["classes"]) == list(range(10))
    assert "map_fit_rows" not in z.files  # irf draws its templates from the seed: nothing to keep


def test_python_model_is_read_by_the_cli(cli, tmp_path, g2):
    """A regressor on G2 (noisy sort, own samples per molecule) saved from Python, predicted by the CLI."""
    X, y = g2
    pipe = make_pipeline(orbitlab.InvariantRBFSampler(group="permutation", distribution="noisysort:sigma=1",
                                                      n_components=200, n_group_samples=6, random_state=9,
                                                      input_kind="coulomb"),
                         orbitlab.BayesianLinearRegressor()).fit(X, y)
    path = tmp_path / "g2.npz"
    orbitlab.save_model(pipe, path, trained_on="G2")
    out = tmp_path / "p.csv"
    j = cli.json("predict", "--model", path, "--data", G2, "--out", out)
    predictions, _ = read_predictions(out)
    assert np.array_equal(pipe.predict(X), np.array([float(v) for v in predictions]))
    assert j["metric"] == "rmse" and j["score"] == pytest.approx(np.sqrt(np.mean((pipe.predict(X) - y) ** 2)), rel=1e-12)
    back = orbitlab.load_model(path)
    assert np.array_equal(back.predict(X), pipe.predict(X)) and back.saved_["trained_on"] == "G2"


def test_a_data_fitted_map_keeps_its_rows(cli, tmp_path, digits):
    """Nystroem's landmarks come from its training rows: the file keeps them, and the rebuilt map is the same."""
    X, y = digits
    pipe = make_pipeline(orbitlab.InvariantNystroem(group="rotation", distribution="vonmises:kappa=1", n_components=80,
                                                    n_group_samples=4, image_shape=(20, 20), random_state=1),
                         orbitlab.BayesianLinearClassifier()).fit(X[::10], y[::10])
    path = tmp_path / "nys.npz"
    orbitlab.save_model(pipe, path)
    assert np.load(path)["map_fit_rows"].shape == (500, 400)
    out = tmp_path / "p.csv"
    cli.run("predict", "--model", path, "--data", DIGITS, "--out", out)
    _, scores = read_predictions(out)
    assert np.array_equal(pipe[-1]._scores(pipe[0].transform(X)), scores)
    assert np.array_equal(orbitlab.load_model(path).predict(X), pipe.predict(X))


def test_string_labels_round_trip(tmp_path, digits):
    X, y = digits
    names = np.array(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])
    pipe = make_pipeline(orbitlab.InvariantRBFSampler(n_components=60, image_shape=(20, 20), random_state=0),
                         orbitlab.BayesianLinearClassifier()).fit(X[::7], names[y[::7]])
    orbitlab.save_model(pipe, tmp_path / "s.npz")
    back = orbitlab.load_model(tmp_path / "s.npz")
    assert list(back.predict(X[:50])) == list(pipe.predict(X[:50]))


def _rewrite(src, dst, member, array):
    """src with one member replaced by `array` (a consistent zip: a deliberate edit, not damage)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == member + ".npy":
                import io
                buf = io.BytesIO()
                np.save(buf, array)
                data = buf.getvalue()
            zout.writestr(item, data)


def _one_line_refusal(cli, path, expected):
    with pytest.raises(ValueError) as e:
        orbitlab.load_model(path)
    message = str(e.value)
    assert "\n" not in message and str(path) in message and expected in message, message
    r = cli.run("predict", "--model", path, "--data", DIGITS, check=False)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and expected in r.stderr, r.stderr
    return message


def test_damaged_files_are_refused_with_one_line(cli, tmp_path, cli_model):
    path, _ = cli_model
    raw = path.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(raw[: len(raw) // 2])
    _one_line_refusal(cli, cut, "cut short")
    flipped = bytearray(raw)
    at = raw.index(b"weights.npy") + 200  # a byte inside the weights' data
    flipped[at] ^= 0xFF
    altered = tmp_path / "altered.npz"
    altered.write_bytes(bytes(flipped))
    assert "member weights.npy" in _one_line_refusal(cli, altered, "CRC-32")
    newer = tmp_path / "newer.npz"
    _rewrite(path, newer, "format_version", np.int64(orbitlab.MODEL_FORMAT_VERSION + 1))
    assert "member format_version.npy" in _one_line_refusal(cli, newer, "newer Orbit Lab")
    missing = tmp_path / "missing.npz"
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(missing, "w") as zout:
        for item in zin.infolist():
            if item.filename != "bias.npy":
                zout.writestr(item, zin.read(item.filename))
    assert "member bias.npy" in _one_line_refusal(cli, missing, "missing")
    resized = tmp_path / "resized.npz"
    _rewrite(path, resized, "weights", np.zeros((3, 10)))
    assert "member weights.npy" in _one_line_refusal(cli, resized, "expected 200 x 10")
    notzip = tmp_path / "not.npz"
    notzip.write_text("hello")
    _one_line_refusal(cli, notzip, "not a .npz")


def test_data_of_another_shape_are_refused(cli, tmp_path, cli_model):
    path, _ = cli_model
    r = cli.run("predict", "--model", path, "--data", G2, check=False)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "input_shape" in r.stderr and "images of 20 x 20 x 1" in r.stderr and "coulomb of 14 x 14 x 1" in r.stderr
    pipe = orbitlab.load_model(path)
    with pytest.raises(ValueError, match="expecting 400 features"):
        pipe.predict(np.zeros((3, 196), dtype=np.float32))
    with pytest.raises(ValueError, match="input_shape"):
        orbitlab.models.check_input(pipe, np.zeros((3, 196)), image_shape=(14, 14))


def test_pickle_and_npz_agree(tmp_path, digits):
    import pickle
    X, y = digits
    pipe = make_pipeline(orbitlab.InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=1", n_components=100,
                                                      n_group_samples=4, image_shape=(20, 20), random_state=2),
                         orbitlab.BayesianLinearClassifier()).fit(X[::5], y[::5])
    orbitlab.save_model(pipe, tmp_path / "m.npz")
    a = pickle.loads(pickle.dumps(pipe)).decision_function(X)
    b = orbitlab.load_model(tmp_path / "m.npz")[-1]._scores(orbitlab.load_model(tmp_path / "m.npz")[0].transform(X))
    assert np.array_equal(a, pipe.decision_function(X))
    assert np.array_equal(b, pipe[-1]._scores(pipe[0].transform(X)))


@pytest.fixture(scope="module")
def krr_model(cli, tmp_path_factory):
    """train --learner krr --save-model on 300 digits, their pixels as the kernel's inputs."""
    path = tmp_path_factory.mktemp("krr") / "krr.npz"
    run = cli.json("train", "--data", DIGITS, "--n", 300, "--features", "raw", "--learner", "krr", "--eval", "holdout:0.4",
                   "--grid", "lambda=1e-3,1e-1;median=0.5,1", "--seed", 4, "--save-model", path)
    return path, run


def test_krr_model_predicts_the_same_bits_in_python_and_the_cli(cli, tmp_path, krr_model):
    path, run = krr_model
    z = np.load(path)
    assert int(z["format_version"]) == 2 and str(z["learner"]) == "krr"
    n = run["saved_model"]["support_rows"]
    assert n == run["saved_model"]["train_rows"] == 180
    assert z["support_rows"].shape == (n, 400) and z["support_rows"].dtype == np.float32
    assert z["dual_weights"].shape == (n, 10) and z["dual_weights"].dtype == np.float64
    assert str(z["kernel"]).startswith("gaussian:sigma=") and "weights" not in z.files
    out = tmp_path / "k.csv"
    j = cli.json("predict", "--model", path, "--data", DIGITS, "--n", 300, "--seed", 4, "--out", out)
    labels, scores = read_predictions(out)
    X, y = orbitlab.load(DIGITS, n=300, seed=4)
    pipe = orbitlab.load_model(path)
    assert isinstance(pipe[-1], orbitlab.SavedKernelRidge) and pipe.saved_["kernel"] == str(z["kernel"])
    assert np.array_equal(pipe.decision_function(X), scores)
    assert [str(c) for c in pipe.predict(X)] == labels
    assert j["score"] == np.mean(pipe.predict(X) == y)
    # The support rows are the training rows themselves (raw features): each predicts its own class.
    assert np.array_equal(pipe[0].transform(z["support_rows"]), z["support_rows"])
    # Written again from Python: the same arrays, the same predictions in the CLI.
    again = tmp_path / "again.npz"
    orbitlab.save_model(pipe, again)
    for name in ("support_rows", "dual_weights", "kernel", "classes", "chosen", "train_rows"):
        assert np.array_equal(np.load(again)[name], z[name]), name
    cli.run("predict", "--model", again, "--data", DIGITS, "--n", 300, "--seed", 4, "--out", tmp_path / "again.csv")
    assert np.array_equal(read_predictions(tmp_path / "again.csv")[1], scores)


def test_orbitlab_train_saves_krr_as_the_cli_does(cli, tmp_path, krr_model):
    """orbitlab.train(..., learner="krr") gives the CLI's run, and its model the CLI's file."""
    path, cli_run = krr_model
    data = orbitlab.load(DIGITS, n=300, seed=4)
    run = orbitlab.train(data, features="raw", learner="krr", eval="holdout:0.4", grid="lambda=1e-3,1e-1;median=0.5,1",
                         seed=4)
    assert run.mean == cli_run["mean"]
    model = run.model()
    z = np.load(path)
    assert np.array_equal(model[-1].dual_, z["dual_weights"]) and np.array_equal(model[-1].support_, z["support_rows"])
    X, _ = data
    assert np.array_equal(model.decision_function(X), orbitlab.load_model(path).decision_function(X))


def test_regression_krr_on_g2_round_trips(cli, tmp_path, g2):
    """Sorted Coulomb matrices of G2 with krr (QM7's recipe): Python predicts the CLI's bits."""
    path = tmp_path / "g2-krr.npz"
    cli.json("train", "--data", G2, "--features", "sorted", "--learner", "krr", "--grid", "lambda=1e-6,1e-3",
             "--save-model", path)
    out = tmp_path / "g2.csv"
    cli.run("predict", "--model", path, "--data", G2, "--out", out)
    predictions, _ = read_predictions(out)
    X, _ = g2
    assert np.array_equal(orbitlab.load_model(path).predict(X), np.array([float(v) for v in predictions]))


def test_a_krr_file_whose_arrays_disagree_is_refused(cli, tmp_path, krr_model):
    path, _ = krr_model
    z = np.load(path)
    short = tmp_path / "short.npz"
    _rewrite(path, short, "dual_weights", z["dual_weights"][:-1])
    assert "member dual_weights.npy" in _one_line_refusal(cli, short, "a row per row of support_rows")
    old = tmp_path / "v1.npz"
    _rewrite(path, old, "format_version", np.int64(1))
    assert "member format_version.npy" in _one_line_refusal(cli, old, "a krr model is version 2")


def test_exact_models_predict_the_cli_bits(cli, tmp_path, g2):
    """train --features exact:r=2 --learner krr|gp --save-model (no feature map: the training rows,
    dual weights, fitted kernel and the group samples' seed and sub-streams): load_model gives a
    SavedExactModel that predicts orbitlab-cli predict's bits; save_model and pickle keep them."""
    import pickle
    X, _ = g2
    for learner in ("krr", "gp"):
        path = tmp_path / f"exact-{learner}.npz"
        cli.json("train", "--data", G2, "--features", "exact:r=2", "--group", "permutation", "--dist", "noisysort:sigma=1",
                 "--kernel", "laplacian:median=1", "--learner", learner, "--grid", "lambda=1e-4,1e-2" if learner == "krr" else "",
                 "--eval", "holdout:0.5", "--seed", 2, "--save-model", path)
        z = np.load(path)
        # A regression gp keeps its posterior's factor (version 4, the newest); krr needs version 3.
        assert int(z["format_version"]) == (4 if learner == "gp" else 3) and orbitlab.MODEL_FORMAT_VERSION == 4
        assert ("posterior_factor" in z.files) == (learner == "gp")
        assert str(z["map_features"]) == "exact:r=2" and str(z["learner"]) == learner
        assert z["support_streams"].shape == (z["support_rows"].shape[0],) and z["support_rows"].shape[1] == X.shape[1]
        out = tmp_path / f"{learner}.csv"
        cli.run("predict", "--model", path, "--data", G2, "--out", out)
        predicted = np.array([float(v) for v in read_predictions(out)[0]])
        model = orbitlab.load_model(path)
        assert isinstance(model, orbitlab.SavedExactModel) and model.saved_["kernel"] == str(z["kernel"])
        assert np.array_equal(model.predict(X), predicted)
        assert np.array_equal(pickle.loads(pickle.dumps(model)).predict(X), predicted)
        again = tmp_path / f"again-{learner}.npz"
        orbitlab.save_model(model, again)
        for name in ("support_rows", "dual_weights", "support_streams", "orbit_seed", "first_stream", "kernel"):
            assert np.array_equal(np.load(again)[name], z[name]), name
        cli.run("predict", "--model", again, "--data", G2, "--out", tmp_path / "again.csv")
        assert np.array_equal(np.array([float(v) for v in read_predictions(tmp_path / "again.csv")[0]]), predicted)
