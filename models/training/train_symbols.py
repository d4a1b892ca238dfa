"""Trains Folio's maths symbol classifier on crops from generate-symbols.ts and exports it to ONNX.

Run with Debian's python3 + torch (CPU):  /usr/bin/python3 models/training/train_symbols.py
First trains on every font but one and reports accuracy on the held-out font family (how well the
classifier generalises to a typeface it never saw), then trains the shipped model on all fonts,
evaluates it on the pdflatex renders (a renderer not used in training) and writes
models/math-symbols.onnx, models/math-symbols.labels.json and models/training/out/metrics.json.
"""
import argparse
import copy
import json
import os
import time
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from fit import fit
from onnx_weights import initializers

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
OUT = os.path.join(HERE, "out")


def load(prefix):
    """Reads `<prefix>.bin` / `<prefix>.json` as written by dataset.ts (CropWriter)."""
    meta = json.load(open(prefix + ".json"))
    n, side, nf = meta["count"], meta["cropSize"], meta["featureCount"]
    raw = open(prefix + ".bin", "rb").read()
    at = 0
    crops = np.frombuffer(raw, np.uint8, n * side * side, at).reshape(n, 1, side, side); at += n * side * side
    feats = np.frombuffer(raw, "<f4", n * nf, at).reshape(n, nf); at += n * nf * 4
    labels = np.frombuffer(raw, "<u2", n, at).astype(np.int64); at += n * 2
    sources = np.frombuffer(raw, np.uint8, n, at).astype(np.int64)
    return meta, torch.from_numpy(crops.copy()), torch.from_numpy(feats.copy()), torch.from_numpy(labels), sources


class SymbolNet(nn.Module):
    """Four 3x3 conv blocks (32x32 → 2x2), then the crop's aspect/size features join a small MLP.
    At width 1, ~4 M multiply-adds per crop, so that training fits in minutes on two CPU cores;
    `width` scales every layer (train_symbols_gpu.py tries wider networks on a GPU)."""

    def __init__(self, classes, features, width=1.0):
        super().__init__()
        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
        c1, c2, c3, c4, hidden = (round(n * width) for n in (16, 32, 64, 128, 256))
        self.conv = nn.Sequential(
            block(1, c1), nn.MaxPool2d(2),
            block(c1, c2), nn.MaxPool2d(2),
            block(c2, c3), nn.MaxPool2d(2),
            block(c3, c4), nn.MaxPool2d(2),
        )
        self.head = nn.Sequential(
            nn.Linear(c4 * 4 + features, hidden), nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(hidden, classes),
        )

    def forward(self, crops, features):
        x = self.conv(crops).flatten(1)
        return self.head(torch.cat([x, features], 1))


class Exported(nn.Module):
    """What ships: uint8-scaled crops in 0..1 → class probabilities."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, crops, features):
        return F.softmax(self.net(crops, features), dim=1)


def without_size(features):
    """The encoding of 'font size unknown' (normalise.ts cropFeatures without emPx): height 0, flag 0."""
    out = features.clone()
    out[:, 1:] = 0
    return out


@torch.no_grad()
def initialise_from(net, onnx_path, class_names, crops, feats):
    """Starts from an exported model (fine-tuning): its weights, and its output rows for the classes
    it knew (matched by name through its labels file); a class it lacked keeps a fresh row. The
    export folded each batch norm into its convolution, so each norm is set to add the folded bias
    back, given the batch statistics of the convolution's output on these crops."""
    weights = initializers(onnx_path)
    old = json.load(open(onnx_path.replace(".onnx", ".labels.json")))["classes"]
    folded = [v for k, v in weights.items() if not k.startswith("net.head")]
    convs = [m for m in net.conv.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.conv.modules() if isinstance(m, nn.BatchNorm2d)]
    kernels, biases = [v for v in folded if v.ndim == 4], [v for v in folded if v.ndim == 1]
    sample = torch.randperm(len(crops))[:4096]
    x, f = crops[sample].float() / 255, feats[sample]
    net.train()
    for conv, norm, kernel, bias in zip(convs, norms, kernels, biases):
        conv.weight.copy_(torch.from_numpy(kernel.copy()))
        norm.reset_running_stats()
        norm.momentum = None
        net(x, f)
        norm.weight.copy_(torch.sqrt(norm.running_var + norm.eps))
        norm.bias.copy_(norm.running_mean + torch.from_numpy(bias.copy()))
        norm.momentum = 0.1
    net.head[0].weight.copy_(torch.from_numpy(weights["net.head.0.weight"].copy()))
    net.head[0].bias.copy_(torch.from_numpy(weights["net.head.0.bias"].copy()))
    out_w, out_b = weights["net.head.3.weight"], weights["net.head.3.bias"]
    for k, name in enumerate(class_names):
        if name in old:
            net.head[3].weight[k] = torch.from_numpy(out_w[old.index(name)].copy())
            net.head[3].bias[k] = float(out_b[old.index(name)])
        else:
            net.head[3].bias[k] = float(out_b.mean())
    print(f"initialised from {onnx_path}: {sum(n in old for n in class_names)} of {len(class_names)} classes known")


def train(crops, feats, labels, class_names, epochs, seed, init=None, lr=3e-3, keep_old=False):
    torch.manual_seed(seed)
    net = SymbolNet(len(class_names), feats.shape[1])
    if init:
        initialise_from(net, init, class_names, crops, feats)
    teacher, known = (copy.deepcopy(net).eval(), known_classes(init, class_names)) if init and keep_old else (None, None)

    def step(idx):
        x = crops[idx].float() / 255
        f = feats[idx].clone()
        # Half the time the size is hidden, so the model also works before the em is estimated.
        hide = torch.rand(len(idx)) < 0.5
        f[hide, 1:] = 0
        # A pixel of shift either way: real crops are not centred as exactly as renders.
        dx, dy = np.random.randint(-1, 2, 2)
        x = torch.roll(x, shifts=(int(dy), int(dx)), dims=(2, 3))
        logits = net(x, f)
        loss = F.cross_entropy(logits, labels[idx], label_smoothing=0.05)
        if teacher is not None:
            loss = loss + remembered(teacher, logits, x, f, known)
        return loss, (logits.argmax(1) == labels[idx]).sum().item()

    return fit(net, len(labels), epochs, 256, step, lr=lr)


def known_classes(init, class_names):
    old = json.load(open(init.replace(".onnx", ".labels.json")))["classes"]
    return torch.tensor([name in old for name in class_names])


def remembered(teacher, logits, x, f, known, temperature=2.0):
    """Learning without forgetting: how far the network's choice among the classes the exported
    model knew has moved from that model's, on every crop (new classes' crops included), as the KL
    divergence of the softened distributions over those classes alone."""
    with torch.no_grad():
        target = F.softmax(teacher(x, f)[:, known] / temperature, dim=1)
    return F.kl_div(F.log_softmax(logits[:, known] / temperature, dim=1), target, reduction="batchmean") * temperature ** 2


@torch.no_grad()
def predict(net, crops, feats):
    out = []
    for i in range(0, len(crops), 1024):
        out.append(net(crops[i:i + 1024].float() / 255, feats[i:i + 1024]))
    return torch.cat(out).argmax(1)


def evaluate(net, crops, feats, labels, class_names, name):
    """Accuracy with the size known and unknown, and the commonest confusions (size known)."""
    report = {}
    for mode, f in (("size_known", feats), ("size_unknown", without_size(feats))):
        pred = predict(net, crops, f)
        report[mode] = round((pred == labels).float().mean().item(), 4)
        if mode == "size_known":
            wrong = Counter((class_names[t], class_names[p]) for t, p in zip(labels.tolist(), pred.tolist()) if t != p)
            report["confusions"] = [f"{t} -> {p} ({n})" for (t, p), n in wrong.most_common(25)]
    report["count"] = len(labels)
    print(f"{name}: {report['size_known']:.4f} (size known), {report['size_unknown']:.4f} (size unknown) on {len(labels)} crops")
    print("  confusions:", ", ".join(report["confusions"][:15]))
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--holdout", default="termes", help="font family left out of the generalisation run")
    parser.add_argument("--skip-holdout", action="store_true", help="only train and export the shipped model")
    parser.add_argument("--holdout-only", action="store_true", help="only the generalisation run; adds to metrics.json")
    parser.add_argument("--init", help="fine-tune from this exported model (e.g. models/math-symbols.onnx) instead of from scratch")
    parser.add_argument("--keep-old", action="store_true", help="with --init: also hold the classes it knew to the exported model's choice among them (learning without forgetting)")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (fine-tuning: 1e-3)")
    parser.add_argument("--scanned", action="store_true", help="add the scanned crops of data/symbols-scan (generate-symbols.ts with SCAN_SHARE=1)")
    parser.add_argument("--name", default="math-symbols", help="writes models/<name>.onnx and .labels.json (math-symbols-scan: the scans' classifier) and its metrics")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("THREADS", 2)))
    np.random.seed(7)
    os.makedirs(OUT, exist_ok=True)
    meta, crops, feats, labels, sources = load(os.path.join(DATA, "symbols"))
    classes = meta["classes"]
    # The em heights inference estimates a formula's size from come from the sharp renders alone:
    # blur makes a glyph's ink taller than the glyph.
    sharp_feats, sharp_labels = feats, labels
    if args.scanned:
        scan = os.path.join(DATA, "symbols-scan")
        scan_meta, scan_crops, scan_feats, scan_labels, scan_sources = load(scan)
        assert scan_meta["classes"] == classes, "scanned crops were generated for another vocabulary"
        crops, feats = torch.cat([crops, scan_crops]), torch.cat([feats, scan_feats])
        labels, sources = torch.cat([labels, scan_labels]), np.concatenate([sources, scan_sources])
        print(f"with {len(scan_labels)} scanned crops (symbols-scan)")
    metrics = {"training_crops": len(labels), "scanned_crops": len(labels) - len(sharp_labels), "fonts": meta["sources"], "epochs": args.epochs, "init": args.init, "lr": args.lr}
    started = time.time()

    if not args.skip_holdout:
        held = meta["sources"].index(args.holdout)
        keep = torch.from_numpy(sources != held)
        print(f"generalisation run: training without {args.holdout} ({int(keep.sum())} crops)")
        net = train(crops[keep], feats[keep], labels[keep], classes, args.epochs, seed=1)
        metrics["held_out_font"] = {"font": args.holdout, **evaluate(net, crops[~keep], feats[~keep], labels[~keep], classes, f"held-out font {args.holdout}")}
        if args.holdout_only:
            save_metrics(metrics, args.name)
            return

    print(f"final run: all fonts ({len(labels)} crops)")
    final_started = time.time()
    net = train(crops, feats, labels, classes, args.epochs, seed=2, init=args.init, lr=args.lr, keep_old=args.keep_old)
    metrics["final_train_minutes"] = round((time.time() - final_started) / 60, 1)
    for dpi in (150, 300):
        prefix = os.path.join(DATA, f"latex-{dpi}")
        if os.path.exists(prefix + ".json"):
            m, c, f, l, _ = load(prefix)
            assert m["classes"] == classes, "pdflatex set was generated for another vocabulary"
            metrics[f"pdflatex_{dpi}dpi"] = evaluate(net, c, f, l, classes, f"pdflatex Computer Modern {dpi} dpi")

    export(net, classes, sharp_feats, sharp_labels, meta, args.name)
    save_metrics(metrics, args.name)
    print(f"done in {(time.time() - started) / 60:.1f} min")


def save_metrics(metrics, name="math-symbols"):
    """Merges into out/metrics.json (out/<name>-metrics.json for another model), so the two runs can be made by separate invocations."""
    path = os.path.join(OUT, "metrics.json" if name == "math-symbols" else f"{name}-metrics.json")
    merged = json.load(open(path)) if os.path.exists(path) else {}
    merged.update(metrics)
    json.dump(merged, open(path, "w"), indent=1)


def export(net, classes, feats, labels, meta, name="math-symbols"):
    """Writes models/<name>.onnx and models/<name>.labels.json (the strokes classifier shares this)."""
    side = meta["cropSize"]
    model = Exported(net).eval()
    path = os.path.join(MODELS, f"{name}.onnx")
    torch.onnx.export(
        model, (torch.zeros(1, 1, side, side), torch.zeros(1, meta["featureCount"])), path,
        input_names=["crops", "features"], output_names=["probabilities"], opset_version=13,
        dynamic_axes={"crops": {0: "batch"}, "features": {0: "batch"}, "probabilities": {0: "batch"}},
    )
    # Median height in em per class (from crops whose size is known): lets inference estimate a
    # formula's em from symbols it has recognised by shape, then classify again with size known.
    heights = [round(float(np.median(feats[labels == k, 1].numpy())), 3) if (labels == k).any() else 0 for k in range(len(classes))]
    labels_json = {"classes": classes, "cropSize": side, "featureCount": meta["featureCount"], "typicalHeightEm": heights}
    json.dump(labels_json, open(os.path.join(MODELS, f"{name}.labels.json"), "w"), ensure_ascii=False)
    print(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
