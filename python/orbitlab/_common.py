"""What every estimator of the package shares: seeds, threads, progress, input geometry."""

import math
import numbers
import os
import sys
import time

import numpy as np
from sklearn.utils import check_random_state

# Inputs are read as they are when they are float32 or float64 (C or Fortran order); other numbers
# become float32, the core's precision.
FLOAT_DTYPES = (np.float32, np.float64)


def seed_of(random_state):
    """The core's 64-bit seed: an int random_state is the seed itself (the CLI's --seed), anything
    else draws one from check_random_state(random_state)."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state: must be a non-negative integer, a RandomState or None (value {random_state!r})")
        return int(random_state)
    rng = check_random_state(random_state)
    return int(rng.randint(0, np.iinfo(np.int64).max, dtype=np.int64))


def threads_of(n_jobs):
    """n_jobs as the core's thread budget: None keeps it (all cores, or OMP_NUM_THREADS), -1 is
    every core, -2 all but one, and so on (joblib's convention)."""
    if n_jobs is None:
        return 0
    if not isinstance(n_jobs, numbers.Integral) or isinstance(n_jobs, bool) or n_jobs == 0:
        raise ValueError(f"n_jobs: must be None or a non-zero integer (value {n_jobs!r})")
    if n_jobs > 0:
        return int(n_jobs)
    return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))


def printer(verbose, name):
    """The verbose callback for the core's progress: None when quiet; with verbose=1 a line to
    stderr at most every half second, with verbose >= 2 every report the core passes on."""
    if not verbose:
        return None
    interval = 0.5 if verbose < 2 else 0.0
    last = [0.0]

    def report(fraction, what):
        now = time.monotonic()
        if now - last[0] >= interval:
            last[0] = now
            print(f"[{name}] {100.0 * fraction:5.1f}% {what}", file=sys.stderr, flush=True)

    return report


def input_geometry(input_kind, image_shape, n_features):
    """(kind, (height, width, channels)) of rows of n_features values.

    input_kind: "vectors", "images", "coulomb" or "auto" (images when image_shape is given, else
    vectors). image_shape: (height, width) or (height, width, channels), with at most one -1 that
    takes what is left, e.g. (1, -1) reads every row as a one-pixel-high image. Coulomb matrices are
    flattened n x n rows."""
    if input_kind not in ("auto", "vectors", "images", "coulomb"):
        raise ValueError(f"input_kind: must be auto, vectors, images or coulomb (value {input_kind!r})")
    kind = input_kind
    if kind == "auto":
        kind = "images" if image_shape is not None else "vectors"
    if kind == "coulomb":
        n = math.isqrt(n_features)
        if n * n != n_features:
            raise ValueError(f"data: Coulomb matrices are rows of n x n values; {n_features} is not a square (value '{n_features}')")
        return kind, (n, n, 1)
    if kind == "vectors":
        if image_shape is not None:
            raise ValueError(f"image_shape: only for images (input_kind={input_kind!r}) (value '{image_shape}')")
        return kind, (1, n_features, 1)
    if image_shape is None:
        raise ValueError("image_shape: images need (height, width) or (height, width, channels)")
    try:
        shape = [int(v) for v in image_shape]
    except (TypeError, ValueError):
        raise ValueError(f"image_shape: expected (height, width) or (height, width, channels) (value '{image_shape}')") from None
    if len(shape) == 2:
        shape.append(1)
    if len(shape) != 3 or sum(v == -1 for v in shape) > 1 or any(v == 0 or v < -1 for v in shape):
        raise ValueError(f"image_shape: expected (height, width[, channels]) of positive sizes, at most one -1 (value '{tuple(image_shape)}')")
    if -1 in shape:
        known = -int(np.prod(shape))
        if known == 0 or n_features % known:
            raise ValueError(f"data: rows of {n_features} values do not fill image_shape {tuple(image_shape)}")
        shape[shape.index(-1)] = n_features // known
    if int(np.prod(shape)) != n_features:
        raise ValueError(f"data: rows of {n_features} values, but image_shape {tuple(shape)} holds {int(np.prod(shape))}")
    return kind, tuple(shape)
