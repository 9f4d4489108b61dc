"""Shared fixtures of the orbitlab pytest suite (run by ctest: python/CMakeLists.txt sets the paths)."""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

SOURCE = Path(os.environ.get("ORBIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DIGITS = SOURCE / "resources" / "data" / "digits.png"
G2 = SOURCE / "resources" / "data" / "g2.extxyz"


def qm7_path():
    """QM7 from $ORBIT_QM7, the CMake setting, or ../shared beside the repository; None when absent."""
    for candidate in (os.environ.get("ORBIT_QM7"), os.environ.get("ORBIT_QM7_FILE"),
                      os.path.join(os.environ.get("ORBIT_SHARED_DIR", str(SOURCE.parent / "shared")), "data", "qm7",
                                   "qm7.extxyz")):
        if candidate and os.path.isfile(candidate):
            return candidate
    return None


def cli_path():
    path = os.environ.get("ORBITLAB_CLI") or str(SOURCE / "build" / "app" / "orbitlab-cli")
    if not os.path.isfile(path):
        pytest.skip(f"orbitlab-cli not built ({path}): the CLI comparisons need it")
    return path


class Cli:
    """orbitlab-cli as a subprocess."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, check=True):
        r = subprocess.run([self.path, *map(str, args)], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"orbitlab-cli {' '.join(map(str, args))} failed ({r.returncode}): {r.stderr}")
        return r

    def json(self, *args):
        return json.loads(self.run(*args, "--json").stdout)


@pytest.fixture(scope="session")
def cli():
    return Cli(cli_path())


@pytest.fixture(scope="session")
def digits():
    import orbitlab
    return orbitlab.load(DIGITS)


@pytest.fixture(scope="session")
def g2():
    import orbitlab
    return orbitlab.load(G2)


def read_predictions(path):
    """orbitlab-cli predict --out: (predictions as text, scores as float64)."""
    lines = Path(path).read_text().splitlines()
    rows = [line.split(",") for line in lines[1:]]
    scores = np.array([[float(v) for v in r[2:]] for r in rows]) if len(rows[0]) > 2 else None
    return [r[1] for r in rows], scores
