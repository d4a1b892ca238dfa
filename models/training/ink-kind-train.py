"""Trains Folio's handwritten-or-printed classifier and exports it to ONNX.

Run with Debian's python3 + torch (CPU):  /usr/bin/python3 models/training/ink-kind-train.py [--epochs N]
Reads the windows ink-kind-generate.ts wrote (data/ink-kind and data/ink-kind-test: 48 x 192 ink
windows of text rows, real pen strokes composed into lines and typeset renders of the same
content), trains a small CNN that gives each window the probability that it is handwriting, and
writes models/ink-kind.onnx and models/training/out/ink-kind-metrics.json. The held-out score is
per image, as the worker decides (worker/inference/ink-kind.ts): the ink-weighted mean of its
windows' probabilities, handwritten at 0.5 or more.
"""
import argparse
import json
import os
import time
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from fit import fit

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
OUT = os.path.join(HERE, "out")


def load(prefix):
    meta = json.load(open(prefix + ".json"))
    n, h, w = meta["count"], meta["height"], meta["width"]
    windows = np.frombuffer(open(prefix + ".bin", "rb").read(), np.uint8).reshape(n, 1, h, w)
    return meta, torch.from_numpy(windows.copy()), torch.tensor(meta["labels"], dtype=torch.float32)


class InkKindNet(nn.Module):
    """Four conv blocks (16-24-32-48 channels, 48 x 192 -> 3 x 12), global average and max pooling, one logit.
    About 15 M multiply-adds per window."""

    def __init__(self):
        super().__init__()
        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True), nn.MaxPool2d(2))
        self.conv = nn.Sequential(block(1, 16), block(16, 24), block(24, 32), block(32, 48))
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(96, 1))

    def forward(self, x):
        x = self.conv(x)
        return self.head(torch.cat([x.mean((2, 3)), x.amax((2, 3))], 1)).squeeze(1)


class Exported(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, windows):
        return torch.sigmoid(self.net(windows))


def as_float(windows, idx):
    return windows[idx].float() / 255


def train(windows, labels, epochs, seed):
    torch.manual_seed(seed)
    net = InkKindNet()

    def step(idx):
        # A few pixels' shift up or down: bands are not cut at exactly the same rows every time.
        x = torch.roll(as_float(windows, idx), int(torch.randint(-2, 3, ())), 2)
        logits = net(x)
        loss = F.binary_cross_entropy_with_logits(logits, labels[idx])
        return loss, ((logits > 0).float() == labels[idx]).sum().item()

    return fit(net, len(labels), epochs, 64, step)


@torch.no_grad()
def evaluate(net, meta, windows, labels):
    p = torch.cat([torch.sigmoid(net(as_float(windows, torch.arange(i, min(i + 256, len(labels)))))) for i in range(0, len(labels), 256)])
    per_image = defaultdict(lambda: [0.0, 0.0, 0, ""])
    for k, image in enumerate(meta["imageOf"]):
        entry = per_image[image]
        entry[0] += float(p[k]) * meta["weights"][k]
        entry[1] += meta["weights"][k]
        entry[2] = meta["labels"][k]
        entry[3] = meta["sources"][k]
    by_source = defaultdict(lambda: [0, 0])
    for score, weight, label, source in per_image.values():
        by_source[source][0] += int((score / max(weight, 1e-9) >= 0.5) == bool(label))
        by_source[source][1] += 1
    right = sum(r for r, _ in by_source.values())
    total = sum(n for _, n in by_source.values())
    report = {
        "images": total,
        "accuracy": round(right / total, 4),
        "by_source": {s: {"accuracy": round(r / n, 4), "images": n} for s, (r, n) in sorted(by_source.items())},
        "window_accuracy": round(((p >= 0.5).float() == labels).float().mean().item(), 4),
    }
    print(f"held out: {report['accuracy']:.4f} of {total} images; " + ", ".join(f"{s} {v['accuracy']:.3f} ({v['images']})" for s, v in report["by_source"].items()))
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--data", default="ink-kind", help="prefix under models/training/data")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "2")))
    os.makedirs(OUT, exist_ok=True)
    meta, windows, labels = load(os.path.join(DATA, args.data))
    started = time.time()
    net = train(windows, labels, args.epochs, seed=3)
    metrics = {"training_windows": len(labels), "training_images": meta["images"], "epochs": args.epochs, "train_minutes": round((time.time() - started) / 60, 1)}
    test_meta, test_windows, test_labels = load(os.path.join(DATA, args.data + "-test"))
    metrics["held_out"] = evaluate(net, test_meta, test_windows, test_labels)
    path = os.path.join(MODELS, "ink-kind.onnx")
    torch.onnx.export(
        Exported(net).eval(), torch.zeros(1, 1, meta["height"], meta["width"]), path,
        input_names=["windows"], output_names=["handwritten"], opset_version=13,
        dynamic_axes={"windows": {0: "batch"}, "handwritten": {0: "batch"}},
    )
    print(f"exported {path} ({os.path.getsize(path) / 1e3:.0f} kB)")
    json.dump(metrics, open(os.path.join(OUT, "ink-kind-metrics.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
