"""Trains Folio's strokes classifier on samples from strokes-generate.ts and exports it to ONNX.

Run with Debian's python3 + torch (CPU):  /usr/bin/python3 models/training/strokes-train.py [--epochs N]
Same network, training loop and evaluation as the image classifier (train_symbols.py); only the data
and the output files differ. Holds out one font's traced samples to report how well the classifier
generalises to letterforms it never saw, then trains on all and writes models/math-strokes.onnx,
models/math-strokes.labels.json and models/training/out/strokes-metrics.json.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_symbols import DATA, OUT, evaluate, export, load, train  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--data", default="strokes", help="prefix under models/training/data")
    parser.add_argument("--holdout", default="termes", help="font whose traced samples the generalisation run leaves out")
    parser.add_argument("--skip-holdout", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(2)
    np.random.seed(11)
    os.makedirs(OUT, exist_ok=True)
    meta, crops, feats, labels, sources = load(os.path.join(DATA, args.data))
    classes = meta["classes"]
    metrics = {"training_samples": len(labels), "fonts": meta["sources"], "epochs": args.epochs}
    started = time.time()
    if not args.skip_holdout:
        held = meta["sources"].index(args.holdout)
        keep = torch.from_numpy(sources != held)
        print(f"generalisation run: training without {args.holdout} ({int(keep.sum())} samples)")
        net = train(crops[keep], feats[keep], labels[keep], len(classes), args.epochs, seed=1)
        metrics["held_out_font"] = {"font": args.holdout, **evaluate(net, crops[~keep], feats[~keep], labels[~keep], classes, f"held-out {args.holdout}")}
    final_started = time.time()
    net = train(crops, feats, labels, len(classes), args.epochs, seed=2)
    metrics["final_train_minutes"] = round((time.time() - final_started) / 60, 1)
    export(net, classes, feats, labels, meta, name="math-strokes")
    json.dump(metrics, open(os.path.join(OUT, "strokes-metrics.json"), "w"), indent=1)
    print(f"done in {(time.time() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
