"""Trains Folio's strokes classifier on real pen strokes and exports it to ONNX.

Run with Debian's python3 + torch (CPU):  /usr/bin/python3 models/training/strokes-real-train.py [--epochs N]
Reads what strokes-real-generate.ts wrote (Detexify + UNIPEN folds 1-9, traced fonts where no real
drawing exists; fold 0 of both, held-out writers, for the report), trains a small 1-D convolutional
network over the on-line input (worker/engine/math/strokes/trajectory.ts: 32 points resampled along
the pen's path with position, direction and pen-up flag, plus aspect and size features) and writes
models/math-strokes.onnx, models/math-strokes.labels.json and models/training/out/strokes-metrics.json.
"""
import argparse
import json
import os
import sys
import time
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from fit import fit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "strokes-gpu"))
# Three 1-D conv blocks along the pen's path (32 -> 16 -> 8 points), flattened in drawing order, joined
# by the aspect/size features, then an MLP: about 0.7 M multiply-adds per symbol (strokes-gpu/nets.py).
from nets import Base as TrajectoryNet  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
OUT = os.path.join(HERE, "out")


def load(prefix):
    """Reads `<prefix>.bin` / `<prefix>.json` as written by TrajectoryWriter (strokes-real-samples.ts)."""
    meta = json.load(open(prefix + ".json"))
    n, p, c, nf = meta["count"], meta["points"], meta["channels"], meta["featureCount"]
    raw = open(prefix + ".bin", "rb").read()
    at = 0
    points = np.frombuffer(raw, "<f4", n * p * c, at).reshape(n, p, c); at += n * p * c * 4
    feats = np.frombuffer(raw, "<f4", n * nf, at).reshape(n, nf); at += n * nf * 4
    labels = np.frombuffer(raw, "<u2", n, at).astype(np.int64)
    return meta, torch.from_numpy(points.copy()), torch.from_numpy(feats.copy()), torch.from_numpy(labels)


class Exported(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, points, features):
        return F.softmax(self.net(points, features), dim=1)


def train(points, feats, labels, classes, epochs, seed):
    torch.manual_seed(seed)
    net = TrajectoryNet(classes)

    def step(idx):
        logits = net(points[idx], feats[idx])
        loss = F.cross_entropy(logits, labels[idx], label_smoothing=0.05)
        return loss, (logits.argmax(1) == labels[idx]).sum().item()

    return fit(net, len(labels), epochs, 256, step)


@torch.no_grad()
def evaluate(net, points, feats, labels, classes):
    report = {}
    hidden = feats.clone()
    hidden[:, 1:] = 0
    for mode, f in (("size_known", feats), ("size_unknown", hidden)):
        pred = torch.cat([net(points[i:i + 2048], f[i:i + 2048]).argmax(1) for i in range(0, len(labels), 2048)])
        report[mode] = round((pred == labels).float().mean().item(), 4)
        if mode == "size_unknown":
            wrong = Counter((classes[t], classes[p]) for t, p in zip(labels.tolist(), pred.tolist()) if t != p)
            report["confusions"] = [f"{t} -> {p} ({n})" for (t, p), n in wrong.most_common(25)]
    report["count"] = len(labels)
    print(f"held-out writers: {report['size_known']:.4f} (size known), {report['size_unknown']:.4f} (size unknown) on {len(labels)} symbols")
    print("  confusions:", ", ".join(report["confusions"][:15]))
    return report


def export(net, meta, feats, labels):
    classes = meta["classes"]
    path = os.path.join(MODELS, "math-strokes.onnx")
    torch.onnx.export(
        Exported(net).eval(), (torch.zeros(1, meta["points"], meta["channels"]), torch.zeros(1, meta["featureCount"])), path,
        input_names=["points", "features"], output_names=["probabilities"], opset_version=13,
        dynamic_axes={"points": {0: "batch"}, "features": {0: "batch"}, "probabilities": {0: "batch"}},
    )
    # Median height in em per class, from the samples whose size is known: inference estimates a
    # formula's em from symbols it has recognised by shape, then classifies again with size known.
    known = feats[:, 2] > 0.5
    heights = [round(float(np.median(feats[known & (labels == k), 1].numpy())), 3) if (known & (labels == k)).any() else 0 for k in range(len(classes))]
    out = {"classes": classes, "points": meta["points"], "channels": meta["channels"], "featureCount": meta["featureCount"], "typicalHeightEm": heights}
    json.dump(out, open(os.path.join(MODELS, "math-strokes.labels.json"), "w"), ensure_ascii=False)
    print(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--data", default="strokes-real", help="prefix under models/training/data")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "2")))
    os.makedirs(OUT, exist_ok=True)
    meta, points, feats, labels = load(os.path.join(DATA, args.data))
    started = time.time()
    net = train(points, feats, labels, len(meta["classes"]), args.epochs, seed=2)
    metrics = {"training_samples": len(labels), "sources": meta["sources"], "epochs": args.epochs, "train_minutes": round((time.time() - started) / 60, 1)}
    _, tp, tf, tl = load(os.path.join(DATA, args.data + "-test"))
    metrics["held_out_writers"] = evaluate(net, tp, tf, tl, meta["classes"])
    export(net, meta, feats, labels)
    json.dump(metrics, open(os.path.join(OUT, "strokes-metrics.json"), "w"), indent=1)
    print(f"done in {(time.time() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
