#!/usr/bin/env bash
# The QM7 table beside the field (docs/results.md, "QM7 against the field"): exact invariant kernel
# machines on 23 x 23 Coulomb matrices, 5 folds, everything fitted inside the training folds.
# Rows: sorted Coulomb matrices (noisy sort sigma = 0, one view), random Coulomb matrices (sigma =
# 1000: every view a random order of atoms of similar and dissimilar norm), and noisy sort with its
# sigma learned by the exact GP marginal likelihood; each with the Laplacian and the Gaussian kernel.
#   bash resources/experiments/qm7-field.sh [QM7.extxyz] [OUTDIR] [KERNELS]
# (defaults ../shared/data/qm7/qm7.extxyz, build/qm7-field, "laplacian gaussian"; ORBIT_QM7_ROWS picks
# rows: "sorted random learned"; ORBIT_QM7_MEAN=composition gives every row the exact machines'
# composition mean, fitted on each training part); one JSON per row and a summary table on stdout.
# The learned row takes about 20 minutes per kernel on a quiet 2-core machine, the others about 10.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
qm7=${1:-$root/../shared/data/qm7/qm7.extxyz}
out=${2:-$root/build/qm7-field}
kernels=${3:-laplacian gaussian}
cli=${ORBIT_CLI:-$root/build/app/orbitlab-cli}
mkdir -p "$out"
mean=${ORBIT_QM7_MEAN:-constant}
common=(--data "$qm7" --group permutation --eval kfold:5 --seed 0 --mean "$mean" --json)
tag=$([[ $mean == constant ]] && echo "" || echo "-$mean")
rows=${ORBIT_QM7_ROWS:-sorted random learned}
run() {  # NAME COMMAND...: a row that fails says so and the others still run
    local name=$1; shift
    local t0=$SECONDS
    if "$cli" "$@" "${common[@]}" >"$out/$name.json"; then
        echo "$name $((SECONDS - t0)) s" >&2
    else
        echo "$name FAILED after $((SECONDS - t0)) s" >&2
        rm -f "$out/$name.json"
    fi
}
for k in $kernels; do
    for row in $rows; do
        case $row in
        learned) run "$k-learned$tag" learn --learner gp --features exact:r=3 --dist noisysort:sigma=1 --kernel "$k:median=1" \
                     --learn sigma --bounds "sigma=0.05:20" --scan 4 --max-evals 7 --inner-evals 6 ;;
        sorted) run "$k-sorted$tag" train --learner gp --features exact:r=1 --dist noisysort:sigma=0 --kernel "$k:median=1" ;;
        random) run "$k-random$tag" train --learner gp --features exact:r=3 --dist noisysort:sigma=1000 --kernel "$k:median=1" ;;
        esac
    done
done
python3 - "$out" "$tag" $kernels <<'PY'
import json, os, statistics, sys
out, tag, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
print("| row | kernel | RMSE (mean ± sd) | MAE | sigma (noisy sort) | seconds |")
print("|---|---|---|---|---|---|")
for k in kernels:
    for row in ("sorted", "random", "learned"):
        path = os.path.join(out, f"{k}-{row}{tag}.json")
        if not os.path.exists(path):
            continue
        j = json.load(open(path))
        if row == "learned":
            rmse = [f["rmse"] for f in j["folds"]]
            sig = ", ".join("%.3g" % f["params"]["sigma"] for f in j["folds"])
            mae, secs = j["mae"], j["seconds"]
        else:
            rmse = [f["score"] for f in j["folds"]]
            sig = {"sorted": "0", "random": "1000"}[row]
            mae, secs = j["mae"], j["seconds"]
        print(f"| {row} | {k} | {statistics.mean(rmse):.2f} ± {statistics.stdev(rmse):.2f} | {mae:.2f} | {sig} | {secs:.0f} |")
PY
