"""`pip install ./python` as python/README.md says it: a fresh virtual environment that sees the
system's NumPy and scikit-learn, pip without network or build isolation, the extension taken from
the CMake build this suite runs on (ORBITLAB_BUILD_DIR); then, from a directory outside both trees
and without PYTHONPATH, the installed module fits and transforms the bits the build tree's does.
About 15 s (the virtual environment and pip)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import orbitlab
from orbitlab import _orbitlab

from conftest import SOURCE

PROGRAM = """
import json, sys
import numpy as np
import orbitlab
X = np.random.default_rng(0).uniform(size=(20, 6))
est = orbitlab.InvariantRBFSampler(n_components=8, random_state=3).fit(X)
print(json.dumps({"file": orbitlab.__file__, "version": orbitlab.__version__,
                  "features": est.transform(X).tolist()}))
"""


def run(args, **kwargs):
    r = subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)
    assert r.returncode == 0, f"{' '.join(map(str, args))} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r.stdout


def package_copy(tmp_path):
    """python/ without its tests and C++ sources: pip builds in place, and leaves the tree alone so."""
    src = tmp_path / "src"
    shutil.copytree(SOURCE / "python", src, ignore=shutil.ignore_patterns("tests", "bench", "src", "build", "*.egg-info",
                                                                          "__pycache__"))
    return src


def clean_env():
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def test_pip_install_outside_the_build_tree(tmp_path):
    pytest.importorskip("ensurepip", reason="venv needs ensurepip (apt install python3-venv)")
    src = package_copy(tmp_path)
    env = clean_env()
    env["ORBITLAB_BUILD_DIR"] = str(Path(_orbitlab.__file__).parent)  # the build this suite runs on
    venv = tmp_path / "env"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], env=env)
    run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "--disable-pip-version-check",
         str(src)], env=env, cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = json.loads(run([str(venv / "bin" / "python"), "-c", PROGRAM], env=env, cwd=elsewhere))
    assert Path(out["file"]).resolve().is_relative_to(venv.resolve())
    assert out["version"] == orbitlab.__version__
    X = np.random.default_rng(0).uniform(size=(20, 6))
    here = orbitlab.InvariantRBFSampler(n_components=8, random_state=3).fit(X).transform(X)
    assert np.array_equal(np.array(out["features"], dtype=np.float32), here)


def test_pip_says_where_the_extension_is_missing(tmp_path):
    """Without a built extension, the install stops with the command that builds one."""
    src = package_copy(tmp_path)
    env = clean_env()
    env["ORBITLAB_BUILD_DIR"] = str(tmp_path / "no-build")
    r = subprocess.run([sys.executable, "setup.py", "--quiet", "build_py"],
                       capture_output=True, text=True, env=env, cwd=src, timeout=120)
    assert r.returncode != 0 and "cmake --build build --target _orbitlab" in r.stderr
