#!/usr/bin/env bash
# Renders every picture of the README from the current build, so none of them is older than the code:
#   bash scripts/screenshots.sh [OUTDIR]     (default docs/screenshots; needs `bash scripts/setup.sh build`)
# Each picture is `orbitlab --screenshot` of one panel with the settings written below (sessions in a
# temporary folder), offscreen at 1400 x 900 unless a size is given. The two states only a click
# reaches (the inspector on a Kernels cell, a sweep's open range) come from the GUI suites that click
# them (tests/ui/window/inspect, tests/ui/window/sweep), which save their window when ORBIT_SCREENSHOTS is set.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ORBIT_BUILD_DIR:-$root/build}
out=$(realpath -m "${1:-$root/docs/screenshots}")
app="$build/app/orbitlab"
[ -x "$app" ] || { echo "screenshots: $app is missing; run bash scripts/setup.sh build" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export QT_QPA_PLATFORM=offscreen
# A settings folder of its own: the user's remembered geometry, presentation mode or recent files
# never change a picture.
export XDG_CONFIG_HOME="$tmp/config" XDG_RUNTIME_DIR="$tmp/run"
mkdir -m 700 "$tmp/run"
digits="$root/resources/data/digits.png"
g2="$root/resources/data/g2.extxyz"

# shot NAME ARGS...: one picture, with a line saying what it shows.
shot() {
    local name="$1"; shift
    echo "screenshots: $name"
    # (the offscreen platform's one warning, on every window, says nothing about the picture)
    "$app" --screenshot "$out/$name" "$@" 2> >(grep -v 'does not support propagateSizeHints' >&2)
}

# session FILE ORBIT TRAINING [PINNED]: a session file with these "orbit" and "training" objects (JSON).
session() {
    local pinned=""
    [ -n "${4:-}" ] && pinned=", \"pinned\": $4"
    printf '{"format": "orbitlab-session", "version": 1, "orbit": %s, "training": %s%s}\n' "$2" "$3" "$pinned" >"$tmp/$1"
}
vonmises() { printf '{"group": "rotation", "r": 16, "seed": "0", "distribution": {"name": "vonmises", "kappa": %s}}' "$1"; }
blr='"learner": "blr", "preset": "irf", "s": 500, "r": 16, "eval": "holdout", "holdout_fraction": 0.2, "subset": 1000'

shot data.png --panel data
shot group.png --panel group
shot orbits.png --panel orbits
shot orbits-g2.png --panel orbits --data "$g2"
shot kernels.png --panel kernels
shot kernels-g2.png --panel kernels --data "$g2"
shot kernels-1280x720-presentation.png --panel kernels --size 1280x720 --presentation
shot approximation.png --panel approximation

# Training: Bayesian linear regression on invariant features, the grid over κ with the evidence beside it.
session training.orbitlab "$(vonmises 1)" "{$blr, \"sweep_axis\": \"kappa\", \"sweep_values\": [0.03, 0.3, 3, 30]}"
shot training.png --session "$tmp/training.orbitlab" --data "$digits" --panel training --run train
# Learn locality: κ by the evidence from κ = 1; then a rotation window and a translation σ together.
session learn.orbitlab "$(vonmises 1)" "{$blr, \"learn\": [\"kappa\"]}"
shot learn-locality.png --session "$tmp/learn.orbitlab" --data "$digits" --panel training --run learn
session affine.orbitlab '{"group": "affine", "r": 8, "seed": "0",
    "rotation": {"name": "uniform", "a": 1.5}, "translation": {"name": "gaussian", "sigma": 1},
    "scale": {"name": "delta"}}' \
    '{"learner": "blr", "preset": "irf", "s": 300, "r": 8, "eval": "holdout", "holdout_fraction": 0.2, "subset": 600,
      "learn": ["rotation.a", "translation.sigma"], "learn_evaluations": 30, "learn_landscape": 10}'
shot learn-locality-affine.png --session "$tmp/affine.orbitlab" --data "$digits" --panel training --run learn
# Per-class locality: every digit's own κ, then the same on 1000 Fashion-MNIST test images.
session perclass.orbitlab "$(vonmises 1)" "{$blr, \"learn\": [\"kappa\"], \"learn_per_class\": true, \"learn_evaluations\": 12}"
shot learn-per-class.png --session "$tmp/perclass.orbitlab" --data "$digits" --panel training --run learn
fashion=/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz
[ -f "$fashion" ] && shot learn-per-class-fashion.png --session "$tmp/perclass.orbitlab" --data "$fashion" --panel training --run learn
# A refused setting: λ = −1 is named in the panel's words and its control is marked.
session refused.orbitlab "$(vonmises 1)" '{"learner": "ridge", "preset": "irf", "s": 500, "r": 16, "lambda": [-1, 0.01]}'
shot refused-setting.png --session "$tmp/refused.orbitlab" --data "$digits" --panel training --run train

# A/B: κ = 0 pinned as A, κ = 4 the current setting B.
pinned="{\"orbit\": $(vonmises 0), \"training\": {$blr}}"
session ab.orbitlab "$(vonmises 4)" "{$blr}" "$pinned"
for panel in group kernels approximation training; do
    shot "ab-$panel.png" --session "$tmp/ab.orbitlab" --data "$digits" --panel "$panel"
done

shot lesson-locality.png --lesson locality --step 3
# Lesson 2's reveal: the step's own per-class learn, run as its text asks (Learn locality).
shot lesson-per-class.png --lesson locality --step 6 --run learn

for suite in window/inspect/test_ui_inspect window/sweep/test_ui_sweep; do
    echo "screenshots: $suite (the clicked states)"
    ORBIT_SCREENSHOTS="$tmp/clicked" "$build/tests/ui/$suite" >"$tmp/suite.log" 2>&1 || { cat "$tmp/suite.log" >&2; exit 1; }
done
cp "$tmp/clicked/inspector.png" "$tmp/clicked/sweep.png" "$out/"
echo "screenshots: written to $out"
