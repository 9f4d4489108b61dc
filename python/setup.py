"""The orbitlab wheel: the package's Python files from here and the compiled _orbitlab from an
existing CMake build of the project (pip does not build the C++ core).

The extension is taken from $ORBITLAB_BUILD_DIR (a CMake build directory, its python/ or its
python/orbitlab/), else from ../build (the README's build directory). It must be built for the
Python that runs pip (the same EXT_SUFFIX, e.g. .cpython-311-x86_64-linux-gnu.so)."""

import os
import shutil
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def built_extension():
    """The path of _orbitlab<EXT_SUFFIX> in the CMake build, or a SystemExit that says what to do."""
    given = os.environ.get("ORBITLAB_BUILD_DIR")
    root = Path(given).expanduser().resolve() if given else HERE.parent / "build"
    candidates = [root / "python" / "orbitlab", root / "orbitlab", root]
    for directory in candidates:
        path = directory / ("_orbitlab" + SUFFIX)
        if path.is_file():
            return path
    others = sorted(str(p) for d in candidates if d.is_dir() for p in d.glob("_orbitlab*.so"))
    where = f"ORBITLAB_BUILD_DIR={given}" if given else f"{root} (set ORBITLAB_BUILD_DIR to another build)"
    raise SystemExit(
        f"orbitlab: no _orbitlab{SUFFIX} in {where}. pip installs the module a CMake build made: "
        "cmake -S . -B build && cmake --build build --target _orbitlab, for this Python "
        f"({sysconfig.get_config_var('VERSION')}; -DORBIT_PYTHON_EXECUTABLE=... names it)"
        + (f"; found only {', '.join(others)}" if others else ""))


class BuildPyWithExtension(build_py):
    def run(self):
        super().run()
        if not self.dry_run:
            target = Path(self.build_lib) / "orbitlab"
            target.mkdir(parents=True, exist_ok=True)
            source = built_extension()
            shutil.copy2(source, target / source.name)


class BinaryDistribution(Distribution):
    """A wheel tagged for this interpreter and platform: it carries a compiled module."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithExtension}, distclass=BinaryDistribution)
