"""One input moved over the values of one parameter, and a saved model's answer at each: the numbers
of the Predict view's sweep chart and of `orbitlab-cli predict --sweep` (issue 44; docs/cli.md,
"Sweeping one input"). The input is moved by the core's group actions, so Python, the CLI and the
window give the same bits."""

import os

import numpy as np

from . import _orbitlab
from .models import model_arrays

#: The parameters, named as the CLI names them.
PARAMETERS = ("rotation", "translation-x", "translation-y", "scale", "permutation")


def _model_dict(model):
    if isinstance(model, (str, os.PathLike)):
        return _orbitlab.load_model(str(model))
    return model_arrays(model)


def sweep(model, x, parameter="rotation", values=None, *, index=0, seed=0, full=False):
    """The model's answer to x moved over `values` of `parameter`.

    model: a Pipeline of load_model (or a fitted Pipeline(map, learner) of orbitlab), or the path of
    a saved model. x: one input, its values flat (a row of orbitlab.load) or an image array of the
    model's input shape. parameter: "rotation" (degrees, counter-clockwise on screen),
    "translation-x", "translation-y" (pixels, x right, y down), "scale" (a zoom factor > 0) or
    "permutation" (molecules: 0 the molecule as it is, k >= 1 the k-th shuffle of its atoms, drawn
    from `seed`). values: default every 5 degrees of rotation from 0 to 360 (73 values); required
    for the other parameters. index: the dataset row whose group-sample stream x uses (for a row of
    the data, its index: a model whose samples follow the row then gives that row's bits).

    Returns the decision values, shape (len(values), n_classes) in the order of the model's classes_,
    for a classifier; the predicted targets, shape (len(values),), for a regression model. At the
    identity (rotation 0, shift 0, scale 1, permutation 0) they are the bits of
    `orbitlab-cli predict --index`. full=True returns a dict instead: t, scores, top (classifiers),
    value, lower and upper (regression; the interval is empty for models without a posterior).
    ValueError with one line for an unknown parameter, an input of another size, a scale <= 0."""
    if parameter not in PARAMETERS:
        raise ValueError(f"parameter: one of {', '.join(PARAMETERS)} (value '{parameter}')")
    if values is None:
        if parameter != "rotation":
            raise ValueError(f"values: give the values of {parameter} (only rotation has a default, 0..360 every 5 degrees)")
        values = np.linspace(0.0, 360.0, 73)
    values = [float(v) for v in np.asarray(values, dtype=np.float64).ravel()]
    row = np.ascontiguousarray(np.asarray(x, dtype=np.float32).reshape(1, -1))
    result = _orbitlab.sweep(_model_dict(model), row, parameter, values, int(index), int(seed))
    if full:
        return result
    if result["value"]:
        return np.asarray(result["value"], dtype=np.float64)
    return np.asarray(result["scores"])


def move_atoms(data, index, *, swap=None, jitter=0.0, seed=0):
    """Row `index` of molecule data (orbitlab.load of extended XYZ, QM7 .mat or a Coulomb CSV) with its
    atoms moved as the Predict view's Swap and Jitter move them, flat (n*n values): the atoms'
    positions first jittered by `jitter` Angstrom (a standard normal per coordinate drawn from `seed`
    and the row; only data with positions, i.e. extended XYZ) and the Coulomb matrix recomputed, then
    atoms swap = (i, j) exchanged (their rows and columns). jitter=0 and no swap give the row itself.
    `orbitlab-cli predict --index I --swap I,J --jitter SIGMA` moves the same. ValueError with one line
    for data without positions, an atom the molecule does not have, a negative jitter."""
    swap = [] if swap is None else [int(a) for a in swap]
    return np.asarray(_orbitlab.move_atoms(data.dataset, int(index), swap, float(jitter), int(seed)))
