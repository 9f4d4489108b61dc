#!/usr/bin/env bash
# Orbit Lab set-up: installs what is missing (Debian 12, as root), builds, then runs the app or the tests.
#   bash scripts/setup.sh app     install, build the two programs only (not the tests), start the GUI
#                                 on the bundled sample data
#   bash scripts/setup.sh test    install, build everything, run the whole test suite with ctest
#   bash scripts/setup.sh build   install and build everything only
#   bash scripts/setup.sh deps    install only (used by tests/sanitize.sh and tests/fuzz/run-fuzzers.sh)
# The large products go through OpenBLAS (libopenblas-openmp-dev), which picks its kernels for the CPU
# at run time, so the default binary runs on any x86-64 at the machine's speed
# (docs/design.md, "Products and portability"); ORBIT_NATIVE=1 also compiles everything else for this
# machine's CPU only (-march=native).
# pybind11 with Debian's Python 3, NumPy, scikit-learn and pytest build and test the Python module
# `orbitlab` (python/, python/README.md; pandas lets scikit-learn's estimator checks try data
# frames too); CMake turns ORBIT_PYTHON on when it finds them. venv, pip, setuptools and wheel make
# `pip install ./python` work as python/README.md says (python/tests/test_install.py).
# Open MPI (libopenmpi-dev, openmpi-bin) lets orbitlab-cli run under mpirun (docs/cli.md, "Many processes (MPI)");
# CMake turns ORBIT_MPI on when it finds it.
# lld links the programs (about 110 with the tests) five times faster than GNU ld (cmake/FastBuild.cmake).
# ORBIT_WERROR=1 (set by .ci/run) builds with warnings as errors; every target is built with
# -Wall -Wextra -Wpedantic either way.
set -euo pipefail

mode=${1:-app}
case "$mode" in app|test|build|deps) ;; *) echo "usage: setup.sh app|test|build|deps" >&2; exit 2 ;; esac
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ORBIT_BUILD_DIR:-$root/build}
jobs=${ORBIT_JOBS:-$(nproc)}

packages=(
  cmake ninja-build g++ pkg-config ccache lld
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libeigen3-dev libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev
  libmatio-dev liblinear-dev libspectra-dev libnlopt-cxx-dev nlohmann-json3-dev zlib1g-dev libomp-dev
  libopenmpi-dev openmpi-bin
  libopenblas-openmp-dev
  pybind11-dev python3-dev python3-numpy python3-sklearn python3-pytest python3-pandas
  python3-venv python3-pip python3-setuptools python3-wheel
  dataset-fashion-mnist
  libgif-dev
  xvfb xauth fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ "$mode" = deps ] && exit 0

# Passed every time (ON or OFF), so a build folder CI configured does not keep -Werror for a later
# `setup.sh app` and the other way round.
werror=OFF
[ "${ORBIT_WERROR:-0}" = 1 ] && werror=ON
native=OFF
[ "${ORBIT_NATIVE:-0}" = 1 ] && native=ON
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DORBIT_WERROR=$werror -DORBIT_NATIVE=$native
# The app needs orbitlab (and what it links: orbitcore, orbitui, the sample data) and orbitlab-cli;
# the test suites are most of the build, so they wait for `test` or `build`.
targets=()
[ "$mode" = app ] && targets=(--target orbitlab orbitlab-cli)
cmake --build "$build" -j "$jobs" "${targets[@]}"

case "$mode" in
  app)
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "setup: no display found; starting Orbit Lab under xvfb-run (set DISPLAY to see the window)"
      exec xvfb-run -a -s "-screen 0 1400x900x24" "$build/app/orbitlab" "${@:2}"
    fi
    exec "$build/app/orbitlab" "${@:2}"
    ;;
  test)
    cd "$build"
    exec ctest --output-on-failure -j "$jobs" --timeout 900
    ;;
  build) ;;
esac
