"""The binding's overhead against orbitlab-cli on the same work, alternating, best of N each
(docs/results.md, "Python"):  /usr/bin/python3 python/bench/overhead.py 6
"""
import json, os, subprocess, sys, tempfile, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("ORBITLAB_CLI", os.path.join(ROOT, "build", "app", "orbitlab-cli"))
D = os.path.join(ROOT, "resources", "data", "digits.png")
TMP = tempfile.mkdtemp()
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5
feat_cli = [CLI, "features", "--data", D, "--features", "irf:s=2000,r=16", "--group", "rotation", "--dist", "vonmises:kappa=1",
            "--seed", "1", "--out", os.path.join(TMP, "f.npy"), "--json"]
feat_py = """
import time, sys; t0 = time.time()
import orbitlab
X, y = orbitlab.load("%s")
t1 = time.time()
F = orbitlab.InvariantRBFSampler(group="rotation", distribution="vonmises:kappa=1", n_components=2000, n_group_samples=16,
                                 image_shape=(20, 20), random_state=1).fit_transform(X)
import numpy as np; np.save("%s", F)
t2 = time.time()
print(t2 - t1, time.time() - t0)
""" % (D, os.path.join(TMP, "g.npy"))
train_cli = [CLI, "train", "--data", D, "--n", "2000", "--features", "irf:s=1000,r=16", "--group", "rotation", "--dist",
             "vonmises:kappa=1", "--learner", "ridge", "--eval", "holdout:0.5", "--grid", "lambda=1e-3,1e-2;median=0.5,1", "--json"]
train_py = """
import time; t0 = time.time()
import orbitlab
data = orbitlab.load("%s", n=2000)
t1 = time.time()
run = orbitlab.train(data, features="irf:s=1000,r=16", group="rotation", dist="vonmises:kappa=1", learner="ridge",
                     eval="holdout:0.5", grid="lambda=1e-3,1e-2;median=0.5,1")
print(run.seconds, time.time() - t0, run.mean)
""" % D
env = {"PYTHONPATH": os.path.join(ROOT, "build", "python"), "PATH": "/usr/bin:/bin"}
res = {"features": {"cli": [], "py": []}, "train": {"cli": [], "py": []}}
print("load before:", open("/proc/loadavg").read().strip(), flush=True)
for i in range(N):
    for name, cli, py in (("features", feat_cli, feat_py), ("train", train_cli, train_py)):
        t = time.time(); j = json.loads(subprocess.run(cli, capture_output=True, text=True, check=True).stdout); wall = time.time() - t
        res[name]["cli"].append((j["seconds"], wall))
        t = time.time(); out = subprocess.run(["/usr/bin/python3", "-c", py], capture_output=True, text=True, check=True, env=env).stdout.split()
        wall = time.time() - t
        res[name]["py"].append((float(out[0]), wall))
import numpy as np
print("features bit-identical:", np.array_equal(np.load(os.path.join(TMP, "f.npy")), np.load(os.path.join(TMP, "g.npy"))))
for name in res:
    c = min(x[0] for x in res[name]["cli"]); cw = min(x[1] for x in res[name]["cli"])
    p = min(x[0] for x in res[name]["py"]); pw = min(x[1] for x in res[name]["py"])
    print(f"{name}: compute cli {c:.3f} s, python {p:.3f} s, ratio {p / c:.3f}; whole process cli {cw:.3f} s, python {pw:.3f} s, ratio {pw / cw:.3f}")
print("load after:", open("/proc/loadavg").read().strip(), flush=True)
