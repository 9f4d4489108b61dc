"""LGIKA rows through the CLI and through Python, compared (docs/results.md, "Python").

    PYTHONPATH=build/python /usr/bin/python3 python/bench/rows.py digits          # the table's row
    PYTHONPATH=build/python /usr/bin/python3 python/bench/rows.py qm7 2000 20     # QM7 LGIKA RF at s, r
"""
import json, os, subprocess, sys, time
import orbitlab
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("ORBITLAB_CLI", os.path.join(ROOT, "build", "app", "orbitlab-cli"))
SHARED = os.environ.get("ORBIT_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
which = sys.argv[1]
if which == "digits":
    path = os.path.join(SHARED, "data", "digits", "digits.png")
    cli_args = ["train", "--data", path, "--rotate", "--pad", "28", "--eval", "holdout:0.5", "--seed", "0", "--learner", "ridge",
                "--grid", "lambda=1e-3,1e-2,1e-1;median=0.5,1,2", "--features", "irf:s=4000,r=32", "--group", "rotation",
                "--dist", "vonmises:kappa=0", "--json"]
    py = lambda: orbitlab.train(orbitlab.load(path, rotate=True, pad=28, seed=0), features="irf:s=4000,r=32", group="rotation",
                                dist="vonmises:kappa=0", learner="ridge", eval="holdout:0.5",
                                grid={"lambda": [1e-3, 1e-2, 1e-1], "median": [0.5, 1, 2]}, seed=0)
else:
    path = os.path.join(SHARED, "data", "qm7", "qm7.extxyz")
    s, r = sys.argv[2], sys.argv[3]
    cli_args = ["train", "--data", path, "--eval", "kfold:5", "--seed", "0", "--learner", "ridge", "--inner-folds", "3",
                "--grid", "lambda=1e-4,3e-4,1e-3,3e-3;median=1,1.5,2", "--features", f"irf:s={s},r={r}", "--group", "permutation",
                "--dist", "noisysort:sigma=1", "--json"]
    py = lambda: orbitlab.train(orbitlab.load(path), features=f"irf:s={s},r={r}", group="permutation", dist="noisysort:sigma=1",
                                learner="ridge", eval="kfold:5", inner_folds=3,
                                grid={"lambda": [1e-4, 3e-4, 1e-3, 3e-3], "median": [1, 1.5, 2]}, seed=0)
print("uptime:", open("/proc/loadavg").read().strip(), flush=True)
t = time.time(); out = subprocess.run(["nice", "-n", "5", CLI, *cli_args], capture_output=True, text=True, check=True).stdout
cli_wall = time.time() - t; j = json.loads(out)
print("cli:", j["metric"], repr(j["mean"]), [f["score"] for f in j["folds"]], [f["chosen"] for f in j["folds"]], f"{cli_wall:.1f} s", flush=True)
print("uptime:", open("/proc/loadavg").read().strip(), flush=True)
os.nice(5)
t = time.time(); run = py(); py_wall = time.time() - t
print("python:", run.metric, repr(run.mean), [f["score"] for f in run.folds], [f["chosen"] for f in run.folds], f"{py_wall:.1f} s", flush=True)
print("same:", run.mean == j["mean"] and [f["score"] for f in run.folds] == [f["score"] for f in j["folds"]], flush=True)
print("uptime:", open("/proc/loadavg").read().strip(), flush=True)
