#!/usr/bin/env bash
# Kill tests (issue 32): starts the real window (offscreen) on the bundled digits with a setting away
# from the defaults (r = 23, seed 777, von Mises kappa = 3.5), starts a learn (Learn locality) or a
# training run, and kills it (SIGKILL) at a random moment 1-9 s later; then reads what the autosave
# left in the per-user settings folder. Counts: starts that would offer recovery (the file says the
# exit was not clean), offers that hold the setting (data, kappa, r, seed), learns whose Undo or best
# point so far was kept, and files left unreadable (must be 0). Restoring an offered file is what
# tests/ui/window/shell/test_working_state checks.
# Usage: scripts/kill_runs.sh [RUNS_PER_MODE=25] [SEED=1]   (build/app/orbitlab must exist)
set -u -o pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-25}"
RANDOM="${2:-1}"
app="$root/build/app/orbitlab"
[ -x "$app" ] || { echo "kill_runs: build $app first"; exit 2; }
session_file=$(mktemp --suffix=.json)
trap 'rm -f "$session_file"' EXIT
python3 - "$root/resources/data/digits.png" >"$session_file" <<'PY'
import json, sys
print(json.dumps({"format": "orbitlab-session", "version": 1,
                  "data": {"path": sys.argv[1], "selected": 0},
                  "orbit": {"group": "rotation", "distribution": {"name": "vonmises", "kappa": 3.5}, "r": 23, "seed": "777"},
                  "training": {"subset": 600, "s": 300, "learn_evaluations": 400, "learn_landscape": 8},
                  "kernels": {"auto_apply": False}, "approximation": {"auto_apply": False}, "panel": "training"}))
PY
check=$(cat <<'PY'
import json, sys
try:
    w = json.load(open(sys.argv[1]))
    assert w["format"] == "orbitlab-working-state"
except Exception as e:
    print("corrupt"); sys.exit()
s = w["session"]; o = s["orbit"]
same = s["data"]["path"].endswith("digits.png") and o["r"] == 23 and o["seed"] == "777"
kappa = o["distribution"].get("kappa")
learn = "learn_undo" in w or "learned" in w
print(("clean" if w["clean_exit"] else "offered") + " " + ("same" if same else "other") + " " +
      ("learnkept" if learn else "nolearn") + " kappa=%s" % kappa)
PY
)
for mode in learn train; do
    offered=0; same=0; learnkept=0; corrupt=0; none=0
    for i in $(seq 1 "$runs"); do
        home=$(mktemp -d)
        wait_ms=$((1000 + RANDOM % 8000))
        QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$home/config" "$app" --session "$session_file" --run "$mode" >/dev/null 2>&1 &
        pid=$!
        sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
        kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
        f="$home/config/OrbitLab/Orbit Lab.state/working-state.json"
        if [ ! -f "$f" ]; then
            r="none"
        else
            r=$(python3 -c "$check" "$f")
        fi
        echo "$mode run $i: killed after ${wait_ms} ms: $r"
        case "$r" in none) none=$((none + 1));; corrupt*) corrupt=$((corrupt + 1));; esac
        case "$r" in offered*) offered=$((offered + 1));; esac
        case "$r" in offered\ same*) same=$((same + 1));; esac
        case "$r" in *learnkept*) learnkept=$((learnkept + 1));; esac
        rm -rf "$home"
    done
    echo "== $mode: $runs kills: recovery offered $offered, with the setting $same, learn's Undo/best kept $learnkept, no autosave yet $none, corrupt $corrupt"
done
