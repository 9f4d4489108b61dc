#!/usr/bin/env python3
"""NumPy (+ whatever BLAS numpy links, e.g. OpenBLAS) reference timing for the QM7 invariant RF features.

The straightforward vectorised implementation of noisy-sort invariant random Fourier features
(LGIKA eq. 7) that `orbitlab-cli features --features irf:s=S,r=R --group permutation
--dist noisysort:sigma=1 --kernel gaussian:median=1` computes:

    psi(x) = sqrt(2/s) * (1/r) * sum_{k=1..r} cos(W^T vec(P_k C P_k^T) + b),
    W_ij ~ N(0, 1/sigma^2) (d x s, d = 23*23), b ~ U[0, 2 pi),
    P_k: rows of C sorted by ||C_i|| + N(0, 1) noise (padding rows last),

with C the 23 x 23 Coulomb matrix (Bohr; C_ii = 0.5 Z_i^2.4, C_ij = Z_i Z_j / |R_i - R_j|) and sigma
the median pairwise distance of a sample of 1000 molecules. Per block of molecules: r noisy-sorted
copies, one float32 matmul with W, cos(. + b), mean over r. Not bit-compatible with the C++ (other
random streams); it is a speed reference only. Prints one JSON object with the wall times.

Usage: python3 scripts/numpy_reference.py [QM7.extxyz] [--settings 2000x10,10000x70] [--block 256]
Not part of CI. Needs python3 and numpy only. Which BLAS numpy uses: numpy.show_config(). On Debian 12
numpy links libblas.so.3 (the reference BLAS unless an optimised one is the alternative); with
libopenblas0-pthread installed, OpenBLAS for this process only:
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread python3 scripts/numpy_reference.py
"""
import argparse
import json
import math
import time

import numpy as np

BOHR_PER_ANGSTROM = 1.8897259886
CHARGE = {"H": 1, "C": 6, "N": 7, "O": 8, "S": 16}
SIZE = 23


def load_coulomb(path):
    """All molecules of an extended-XYZ file as an (N, 23, 23) float32 array of Coulomb matrices."""
    mats = []
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        n = int(lines[i])
        atoms = [lines[i + 2 + a].split() for a in range(n)]
        i += 2 + n
        z = np.array([CHARGE[a[0]] for a in atoms], dtype=np.float64)
        r = np.array([[float(v) for v in a[1:4]] for a in atoms]) * BOHR_PER_ANGSTROM
        dist = np.linalg.norm(r[:, None, :] - r[None, :, :], axis=-1)
        np.fill_diagonal(dist, 1.0)
        c = np.outer(z, z) / dist
        np.fill_diagonal(c, 0.5 * z ** 2.4)
        m = np.zeros((SIZE, SIZE), dtype=np.float32)
        m[:n, :n] = c
        mats.append(m)
    return np.stack(mats)


def median_sigma(X, rng, sample=1000):
    """Median pairwise Euclidean distance of `sample` random rows of X (N, d)."""
    idx = rng.choice(len(X), size=min(sample, len(X)), replace=False)
    S = X[idx].astype(np.float64)
    sq = (S * S).sum(1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2 * S @ S.T, 0)
    iu = np.triu_indices(len(S), 1)
    return float(np.median(np.sqrt(d2[iu])))


def noisy_sorted_copies(C, r, sigma, rng):
    """(B, 23, 23) -> (B * r, 529): r copies of each matrix, rows and columns permuted by noisy norm order."""
    B = len(C)
    norms = np.linalg.norm(C, axis=2)                          # (B, 23)
    keys = norms[:, None, :] + sigma * rng.standard_normal((B, r, SIZE))
    keys = np.where(norms[:, None, :] > 0, keys, -np.inf)       # padding rows last
    perm = np.argsort(-keys, axis=2, kind="stable")            # (B, r, 23)
    b = np.arange(B)[:, None, None, None]
    P = perm[:, :, :, None]
    Q = perm[:, :, None, :]
    out = C[b, P, Q]                                           # (B, r, 23, 23) = P C P^T
    return out.reshape(B * r, SIZE * SIZE)


def irf_features(C, s, r, sigma_kernel, seed, block, noise=1.0):
    rng = np.random.default_rng(seed)
    d = SIZE * SIZE
    W = (rng.standard_normal((d, s)) / sigma_kernel).astype(np.float32)
    b = (2 * math.pi * rng.random(s)).astype(np.float32)
    F = np.empty((len(C), s), dtype=np.float32)
    scale = np.float32(math.sqrt(2.0 / s))
    for i0 in range(0, len(C), block):
        Cb = C[i0:i0 + block]
        O = noisy_sorted_copies(Cb, r, noise, rng)             # (B r, d) float32
        Z = O @ W                                              # one matmul
        Z += b
        np.cos(Z, out=Z)
        F[i0:i0 + len(Cb)] = scale * Z.reshape(len(Cb), r, s).mean(axis=1)
    return F


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="?", default="/work/shared/data/qm7/qm7.extxyz")
    ap.add_argument("--settings", default="2000x10,10000x70", help="s x r pairs, comma-separated")
    ap.add_argument("--block", type=int, default=256, help="molecules per block")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    t0 = time.perf_counter()
    C = load_coulomb(args.data)
    load_seconds = time.perf_counter() - t0
    sigma = median_sigma(C.reshape(len(C), -1), np.random.default_rng(args.seed))
    result = {"data": args.data, "rows": int(len(C)), "load_seconds": load_seconds, "sigma": sigma,
              "numpy": np.__version__, "block": args.block, "runs": []}
    for setting in args.settings.split(","):
        s, r = (int(v) for v in setting.lower().split("x"))
        t0 = time.perf_counter()
        F = irf_features(C, s, r, sigma, args.seed, args.block)
        seconds = time.perf_counter() - t0
        assert F.shape == (len(C), s) and np.isfinite(F).all()
        result["runs"].append({"s": s, "r": r, "seconds": seconds, "rows": int(F.shape[0]), "dims": int(F.shape[1])})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
