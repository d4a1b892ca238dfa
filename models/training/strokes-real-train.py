"""Trains Folio's pen-strokes classifier on real pen strokes on the CPU and exports it to ONNX.

Run with Debian's python3 + torch:  /usr/bin/python3 models/training/strokes-real-train.py [--arch base] [--epochs N]
(`make models-strokes-cpu` runs it with its defaults after strokes-real-generate.ts with VALIDATION_FOLD=1
PER_CLASS=1000 MAX_COPIES=30).
Reads what strokes-real-generate.ts wrote under models/training/data/<data>: the training samples
(Detexify + UNIPEN training folds, traced fonts where no real drawing exists), <data>-val (a training
fold kept apart, unwarped: the epoch kept is the best there) and <data>-test (fold 0, held-out
writers: reported, never used to choose). The networks are strokes-gpu/nets.py's over the on-line
input (worker/engine/math/strokes/trajectory.ts: 32 points resampled along the pen's path with
position, direction and pen-up flag, plus aspect and size features). By default two 1-D CNNs trained
side by side, each on its own shuffle and warps, shipped as one network answering their mean
probabilities. AdamW with strokes-gpu/train.py's schedule (warm-up, cosine), label smoothing 0.05,
gradients clipped at 2, strokes-gpu/warp.py's affine warps on each batch.
Writes models/math-strokes.onnx, models/math-strokes.labels.json and models/training/out/strokes-metrics.json
(--no-write: report only).
"""
import argparse
import json
import math
import os
import sys
import time
from collections import Counter

# One BLAS thread too (torch.set_num_threads below does not reach OpenBLAS's own pool): on two shared cores a
# second thread spins more than it computes.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "strokes-gpu"))
from nets import CONFIGS, Ensemble, Exported, build  # noqa: E402
from samples import load_arrays  # noqa: E402
from warp import augment  # noqa: E402

MODELS = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
OUT = os.path.join(HERE, "out")
NETWORK_NAMES = {"base": "1-D CNNs", "base_sized": "1-D CNNs (size features at every point)"}


def load(prefix):
    """`<prefix>.bin` / `<prefix>.json` as tensors: meta, points, features, labels (int64)."""
    meta, points, feats, labels = load_arrays(prefix)
    return meta, torch.from_numpy(points.copy()), torch.from_numpy(feats.copy()), torch.from_numpy(labels.astype(np.int64))


@torch.no_grad()
def accuracies(net, points, feats, labels):
    """Accuracy with the size known and hidden (the front end's features without an em), and the predictions without it."""
    net.eval()
    hidden = feats.clone()
    hidden[:, 1:] = 0
    report, pred = {}, None
    for mode, f in (("size_known", feats), ("size_unknown", hidden)):
        pred = torch.cat([net(points[i:i + 2048], f[i:i + 2048]).argmax(1) for i in range(0, len(labels), 2048)])
        report[mode] = round((pred == labels).float().mean().item(), 4)
    return report, pred


def evaluate(net, points, feats, labels, classes):
    """The held-out writers' report: both accuracies and the commonest confusions with the size hidden."""
    report, pred = accuracies(net, points, feats, labels)
    wrong = Counter((classes[t], classes[p]) for t, p in zip(labels.tolist(), pred.tolist()) if t != p)
    report["confusions"] = [f"{t} -> {p} ({n})" for (t, p), n in wrong.most_common(25)]
    report["count"] = len(labels)
    print(f"held-out writers: {report['size_known']:.4f} (size known), {report['size_unknown']:.4f} (size unknown) on {len(labels)} symbols")
    print("  confusions:", ", ".join(report["confusions"][:15]))
    return report


def train(members, data, validation, args):
    """AdamW over `args.epochs` with strokes-gpu/train.py's schedule (linear warm-up over `args.warmup` of the steps,
    then cosine to zero; gradients clipped at 2), each member on its own shuffle and warps; keeps the epoch whose
    ensemble does best on the validation fold."""
    points, feats, labels = data
    count = len(labels)
    steps = args.epochs * ((count + args.batch - 1) // args.batch)
    net = Ensemble(members) if len(members) > 1 else members[0]

    def rate(step):
        frac = step / steps
        return frac / args.warmup if frac < args.warmup else max(0.5 * (1 + math.cos(math.pi * (frac - args.warmup) / (1 - args.warmup))), 0.002)

    opts = [torch.optim.AdamW(m.parameters(), lr=args.lr, weight_decay=CONFIGS[args.arch]["wd"]) for m in members]
    scheds = [torch.optim.lr_scheduler.LambdaLR(o, rate) for o in opts]
    best, history = None, []
    for epoch in range(args.epochs):
        net.train()
        started, cpu = time.time(), time.process_time()
        orders = [torch.randperm(count) for _ in members]
        correct = 0
        for i in range(0, count, args.batch):
            for member, opt, sched, order in zip(members, opts, scheds, orders):
                idx = order[i:i + args.batch]
                p, f = (augment(points[idx], feats[idx]) if args.warp else (points[idx], feats[idx]))
                logits = member(p, f)
                loss = F.cross_entropy(logits, labels[idx], label_smoothing=0.05)
                opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(member.parameters(), 2.0)
                opt.step()
                sched.step()
                correct += (logits.argmax(1) == labels[idx]).sum().item()
        row = {"epoch": epoch + 1, "train": round(correct / count / len(members), 4), "seconds": round(time.time() - started), "cpu_seconds": round(time.process_time() - cpu)}
        if validation is not None:
            row.update(accuracies(net, *validation)[0])
            if len(members) > 1:
                row["members"] = [list(accuracies(m, *validation)[0].values()) for m in members]
            score = row["size_known"] + row["size_unknown"]
            if best is None or score > best[0]:
                best = (score, epoch + 1, {k: v.clone() for k, v in net.state_dict().items()})
        history.append(row)
        print("  " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    if best is not None:
        net.load_state_dict(best[2])
    net.eval()
    return net, {"kept_epoch": best[1] if best else args.epochs, "history": history}


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
    parser.add_argument("--arch", default="base_sized", choices=sorted(CONFIGS))
    parser.add_argument("--members", type=int, default=2, help="networks trained side by side and shipped as one (their mean probabilities)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--warmup", type=float, default=0.04, help="share of the steps the learning rate rises")
    parser.add_argument("--no-warp", dest="warp", action="store_false", help="without strokes-gpu/warp.py's affine warps on every batch")
    parser.add_argument("--data", default="strokes-real", help="prefix under models/training/data")
    parser.add_argument("--no-write", action="store_true", help="report only: leave models/ as they are")
    args = parser.parse_args()
    # One thread: on two shared cores a second one spun more than it computed (4.6 times the CPU
    # seconds a sample for the 1-D CNN under load).
    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
    torch.manual_seed(2)
    prefix = os.path.join(DATA, args.data)
    meta, points, feats, labels = load(prefix)
    validation = load(prefix + "-val")[1:] if os.path.exists(prefix + "-val.json") else None
    members = [build(args.arch, len(meta["classes"])) for _ in range(args.members)]
    started, cpu = time.time(), time.process_time()
    net, fitted = train(members, (points, feats, labels), validation, args)
    metrics = {
        "training_samples": len(labels), "sources": meta["sources"], "arch": args.arch, "epochs": args.epochs, "batch": args.batch, "members": args.members,
        "lr": args.lr, "warp": args.warp, "train_minutes": round((time.time() - started) / 60, 1),
        "train_cpu_minutes": round((time.process_time() - cpu) / 60, 1), **fitted,
    }
    if args.members > 1:
        metrics["network"] = f"geometric mean of {args.members} {NETWORK_NAMES.get(args.arch, args.arch + ' networks')}"
    _, tp, tf, tl = load(prefix + "-test")
    metrics["held_out_writers"] = evaluate(net, tp, tf, tl, meta["classes"])
    print(f"trained in {metrics['train_minutes']} min ({metrics['train_cpu_minutes']} CPU min); kept epoch {fitted['kept_epoch']}")
    if args.no_write:
        return
    export(net, meta, feats, labels)
    os.makedirs(OUT, exist_ok=True)
    np.savez(os.path.join(OUT, f"strokes-{args.arch}.npz"), **{k: v.numpy() for k, v in net.state_dict().items()})
    json.dump(metrics, open(os.path.join(OUT, "strokes-metrics.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
