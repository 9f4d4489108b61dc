"""Datasets: every format Orbit Lab reads (MNIST IDX, CIFAR-10, .amat, images and folders of
images, OpenCV's digits sheet, QM7 .mat, extended XYZ molecules as Coulomb matrices, CSV), prepared
as orbitlab-cli prepares --data (a seeded subset, rotated or transformed images)."""

import numpy as np

from . import _orbitlab


class Data(tuple):
    """(X, y): X the rows as float32 (n_samples x n_features, a view of the loaded data, no copy);
    y the class labels (int64, 0..C-1), the regression targets (float64) or None.

    Attributes: kind ("images", "coulomb", "vectors"), image_shape (height, width, channels),
    class_names, target_unit, folds (the file's own folds, QM7 .mat P), source, format, and
    map_params: the input_kind and image_shape a map of this package needs for these rows."""

    def __new__(cls, dataset):
        X = dataset.X
        if dataset.labels:
            y = np.asarray(dataset.labels, dtype=np.int64)
        elif dataset.targets:
            y = np.asarray(dataset.targets, dtype=np.float64)
        else:
            y = None
        self = super().__new__(cls, (X, y))
        self.dataset = dataset
        return self

    X = property(lambda self: self[0])
    y = property(lambda self: self[1])
    kind = property(lambda self: self.dataset.kind)
    image_shape = property(lambda self: tuple(self.dataset.shape))
    class_names = property(lambda self: list(self.dataset.class_names))
    target_unit = property(lambda self: self.dataset.target_unit)
    folds = property(lambda self: np.asarray(self.dataset.folds, dtype=np.int64))
    source = property(lambda self: self.dataset.source)
    format = property(lambda self: self.dataset.format)

    @property
    def map_params(self):
        """{"input_kind": ..., "image_shape": ...} for a map of this package."""
        if self.kind == "images":
            return {"input_kind": "images", "image_shape": self.image_shape}
        return {"input_kind": self.kind, "image_shape": None}


def load(path, *, format=None, n=0, rotate=False, rotate_max=0.0, pad=28, transform_group=None, transform_dist=None,
         seed=0):
    """Loads a dataset as `orbitlab-cli ... --data path` with the same options reads it.

    format: the loader ("idx", "cifar", "amat", "image", "imagefolder", "digits", "mat", "extxyz",
    "csv"); None detects it. n: a seeded subset of n samples (--n). rotate, rotate_max, pad: images
    zero-padded to pad x pad and rotated by a uniform angle (--rotate, --rotate-max DEG, --pad).
    transform_group, transform_dist: move every image by one element of that group instead.
    seed: --seed. A file that cannot be read raises ValueError with the loader's one line (file,
    position, what is wrong, the value)."""
    return Data(_orbitlab.load(str(path), format or "", int(n), bool(rotate), float(rotate_max), int(pad),
                               transform_group or "", transform_dist or "", int(seed)))
