"""Trains several pen-strokes symbol classifiers at once on the GPU (same input/output as Folio's
models/math-strokes.onnx: points [N,32,5], features [N,3] -> logits [N,classes]) and picks by the
accuracy on a validation fold of TRAINING writers (fold 1; fold 0 is never here).

Samples are strokes-real-generate.ts's (warped copies, stroke order/direction changes), packed by
pack_data.py. On top, each batch gets a random affine warp of the resampled trajectory (rotation,
shear, anisotropic scale; directions mapped by the same matrix; box re-normalised; aspect and
height features moved to match) and small point noise.

  python3 train.py OUTDIR   (env: SMOKE=1 for a few CPU steps, BUDGET=seconds of training)
"""
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from nets import CONFIGS, build, macs
from warp import augment

OUT = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
SMOKE = os.environ.get("SMOKE") == "1"
BUDGET = float(os.environ.get("BUDGET", "25" if SMOKE else "350"))
BATCH = 1024
DEV = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_num_threads(4)
torch.manual_seed(17)
if DEV == "cuda":
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cudnn.benchmark = True


def log(msg):
    print(f"[strokes17] {time.strftime('%H:%M:%S')} {msg}", flush=True)


def unpack(z, part, limit=None):
    n = len(z[f"{part}_label"]) if limit is None else limit
    undelta = lambda a: np.cumsum(a.astype(np.int64), axis=1) % 256
    x = undelta(z[f"{part}_dx"][:n]).astype(np.float32) / 255 - 0.5
    y = undelta(z[f"{part}_dy"][:n]).astype(np.float32) / 255 - 0.5
    code = undelta(z[f"{part}_dangle"][:n])
    angle = code.astype(np.float32) / 255 * 2 * np.pi
    none = code == 255
    xy = torch.from_numpy(np.stack([x, y], 2))
    d = torch.from_numpy(np.stack([np.where(none, 0, np.cos(angle)), np.where(none, 0, np.sin(angle))], 2).astype(np.float32))
    pen = torch.from_numpy(np.unpackbits(z[f"{part}_pen"][:n], axis=1)[:, :32].astype(np.float32))
    f = z[f"{part}_feat"][:n].astype(np.float32) / 10000
    known = z[f"{part}_known"][:n].astype(np.float32)
    feats = torch.from_numpy(np.stack([f[:, 0], f[:, 1] * known, known], 1))
    pts = torch.cat([xy, d, pen[:, :, None]], 2)
    return pts.to(DEV), feats.to(DEV), torch.from_numpy(z[f"{part}_label"][:n].astype(np.int64)).to(DEV)


@torch.no_grad()
def evaluate(net, pts, feats, labels):
    net.eval()
    hidden = feats.clone()
    hidden[:, 1:] = 0
    res = {}
    for mode, f in (("size_known", feats), ("size_unknown", hidden)):
        pred = torch.cat([net(pts[i:i + 4096], f[i:i + 4096]).argmax(1) for i in range(0, len(labels), 4096)])
        res[mode] = round((pred == labels).float().mean().item(), 4)
    net.train()
    return res


def save_npz(net, path):
    sd = {k: v.detach().float().cpu().numpy() for k, v in net.state_dict().items()}
    np.savez(path + ".tmp.npz", **sd)
    os.replace(path + ".tmp.npz", path)


def main():
    os.makedirs(OUT, exist_ok=True)
    started = time.time()
    z = np.load(os.path.join(HERE, "data.npz"))
    classes = json.loads(str(z["classes"]))
    limit = int(os.environ.get("LIMIT", "3000")) if SMOKE else None
    tp, tf, tl = unpack(z, "train", limit)
    vp, vf, vl = unpack(z, "val", 1000 if SMOKE else None)
    log(f"device {DEV} ({torch.cuda.get_device_name(0) if DEV == 'cuda' else 'cpu'}), torch {torch.__version__}, "
        f"{len(tl)} train / {len(vl)} val samples, {len(classes)} classes, budget {BUDGET:.0f} s")
    names = list(CONFIGS)
    nets, opts = {}, {}
    for name in names:
        torch.manual_seed(17)
        nets[name] = build(name, len(classes)).to(DEV)
        cfg = CONFIGS[name]
        opts[name] = torch.optim.AdamW(nets[name].parameters(), lr=cfg["lr"], weight_decay=cfg["wd"])
    log("models: " + ", ".join(f"{n} {macs(n, len(classes)) / 1e6:.1f}M MACs" for n in names))
    json.dump({"classes": classes, "configs": CONFIGS}, open(os.path.join(OUT, "config.json"), "w"))

    history = {n: [] for n in names}
    t0 = time.time()
    last_ckpt = t0
    step = 0
    count = len(tl)
    order = torch.randperm(count, device=DEV)
    at = 0
    while True:
        frac = (time.time() - t0) / BUDGET
        if frac >= 1:
            break
        warm = 0.04
        mult = frac / warm if frac < warm else 0.5 * (1 + math.cos(math.pi * (frac - warm) / (1 - warm)))
        if at + BATCH > count:
            order = torch.randperm(count, device=DEV)
            at = 0
        idx = order[at:at + BATCH]
        at += BATCH
        p, f = augment(tp[idx], tf[idx])
        y = tl[idx]
        for name in names:
            if CONFIGS[name].get("augment", True):
                bp, bf = p, f
            else:
                bp, bf = tp[idx], tf[idx]
            for group in opts[name].param_groups:
                group["lr"] = CONFIGS[name]["lr"] * max(mult, 0.002)
            logits = nets[name](bp, bf)
            loss = F.cross_entropy(logits.float(), y, label_smoothing=0.05)
            opts[name].zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(nets[name].parameters(), 2.0)
            opts[name].step()
        step += 1
        if time.time() - last_ckpt > (8 if SMOKE else 55):
            last_ckpt = time.time()
            parts = []
            for name in names:
                save_npz(nets[name], os.path.join(OUT, f"{name}.npz"))
                r = evaluate(nets[name], vp, vf, vl)
                history[name].append({"step": step, "seconds": round(time.time() - t0), **r})
                parts.append(f"{name} {r['size_known']:.3f}/{r['size_unknown']:.3f}")
            json.dump({"step": step, "history": history}, open(os.path.join(OUT, "progress.json"), "w"))
            log(f"step {step} ({step * BATCH / count:.1f} ep, lr x{mult:.2f}) val known/unknown: " + ", ".join(parts))
    results = {}
    for name in names:
        save_npz(nets[name], os.path.join(OUT, f"{name}.npz"))
        r = evaluate(nets[name], vp, vf, vl)
        results[name] = {**r, "macs": macs(name, len(classes)), "history": history[name]}
    best = max(names, key=lambda n: results[n]["size_known"] + results[n]["size_unknown"])
    metrics = {"steps": step, "epochs": round(step * BATCH / count, 2), "train_samples": count, "val_samples": len(vl),
               "seconds": round(time.time() - started), "best": best, "results": results}
    json.dump(metrics, open(os.path.join(OUT, "metrics.json"), "w"), indent=1)
    log(f"done {step} steps ({metrics['epochs']} epochs) in {time.time() - t0:.0f} s; final val known/unknown: "
        + ", ".join(f"{n} {results[n]['size_known']:.4f}/{results[n]['size_unknown']:.4f}" for n in names) + f"; best {best}")


if __name__ == "__main__":
    main()
