"""After training (or after a kill): ONNX export attempt of every checkpoint, then one tar."""
import json, os, sys, tarfile, time
import numpy as np
import torch
from nets import CONFIGS, Exported, build, POINTS, CHANNELS, FEATURES

OUT = sys.argv[1]
NAME = "strokes17"


def log(msg):
    print(f"[{NAME}] {time.strftime('%H:%M:%S')} {msg}", flush=True)


cfg = json.load(open(os.path.join(OUT, "config.json")))
classes = len(cfg["classes"])
files = ["config.json"] + [f for f in ("metrics.json", "progress.json") if os.path.exists(os.path.join(OUT, f))]
LIMIT = 15 * 2**20 - 200_000


def best_name():
    """The best by validation accuracy (final metrics, else the last checkpoint's evaluation)."""
    try:
        return json.load(open(os.path.join(OUT, "metrics.json")))["best"]
    except Exception:
        pass
    try:
        h = json.load(open(os.path.join(OUT, "progress.json")))["history"]
        return max((n for n in h if h[n]), key=lambda n: h[n][-1]["size_known"] + h[n][-1]["size_unknown"])
    except Exception:
        return None


def ranked():
    try:
        r = json.load(open(os.path.join(OUT, "metrics.json")))["results"]
        return sorted(r, key=lambda n: r[n]["size_known"] + r[n]["size_unknown"], reverse=True)
    except Exception:
        try:
            h = json.load(open(os.path.join(OUT, "progress.json")))["history"]
            return sorted((n for n in h if h[n]), key=lambda n: h[n][-1]["size_known"] + h[n][-1]["size_unknown"], reverse=True)
        except Exception:
            return list(CONFIGS)


BEST = best_name()
notes = []
for name in CONFIGS:
    npz = os.path.join(OUT, f"{name}.npz")
    if not os.path.exists(npz):
        continue
    files.append(f"{name}.npz")
    try:
        net = build(name, classes)
        z = np.load(npz)
        sd = {k: torch.from_numpy(z[k]).to(v.dtype) for k, v in net.state_dict().items()}
        net.load_state_dict(sd)
        try:
            import inspect
            kw = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
        except Exception:
            kw = {"dynamo": False} if int(torch.__version__.split(".")[0]) >= 2 else {}
        path = os.path.join(OUT, f"{name}.onnx")
        torch.onnx.export(Exported(net).eval(), (torch.zeros(1, POINTS, CHANNELS), torch.zeros(1, FEATURES)), path,
                          input_names=["points", "features"], output_names=["probabilities"], opset_version=13,
                          dynamic_axes={"points": {0: "batch"}, "features": {0: "batch"}, "probabilities": {0: "batch"}}, **kw)
        try:
            import onnxruntime as ort
            s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
            p = torch.rand(64, POINTS, CHANNELS) - 0.5
            f = torch.rand(64, FEATURES)
            got = s.run(None, {"points": p.numpy(), "features": f.numpy()})[0]
            with torch.no_grad():
                want = Exported(net).eval()(p, f).numpy()
            notes.append(f"{name} onnx ok, max diff {np.abs(got - want).max():.2e}")
        except ImportError:
            notes.append(f"{name} onnx exported (no onnxruntime)")
    except Exception as e:  # keep packing the rest
        notes.append(f"{name} export failed: {type(e).__name__}: {str(e)[:200]}")
# Keep under the size limit: drop the weakest models' weights first (never the best's).
size = lambda: sum(os.path.getsize(os.path.join(OUT, f)) for f in files) + 20_000
for name in reversed(ranked()):
    if size() <= LIMIT:
        break
    if name != BEST and f"{name}.npz" in files:
        files.remove(f"{name}.npz")
        notes.append(f"{name}.npz left out (size)")
notes.append(f"best {BEST}")
if BEST and os.path.exists(os.path.join(OUT, f"{BEST}.onnx")) and size() + os.path.getsize(os.path.join(OUT, f"{BEST}.onnx")) <= LIMIT:
    files.append(f"{BEST}.onnx")
open(os.path.join(OUT, "export.txt"), "w").write("\n".join(notes) + "\n")
files.append("export.txt")
with tarfile.open(os.path.join(OUT, f"{NAME}.tar"), "w") as tar:
    for f in files:
        tar.add(os.path.join(OUT, f), arcname=f)
log("; ".join(notes))
log(f"packed {os.path.getsize(os.path.join(OUT, NAME + '.tar')) / 1e6:.2f} MB: {' '.join(files)}")
