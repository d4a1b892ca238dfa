"""Trains the handwriting image classifier (models/math-handwriting.onnx) on the crops of
handwriting-symbols-generate.ts: the same network, inputs and export as the typeset classifier
(train_symbols.py), so the image pipeline loads either. Reports accuracy on the held-out writers
(fold 0, `<data>-test`), which are never trained on.

Run with Debian's python3 + torch (CPU):  /usr/bin/python3 models/training/train_handwriting_symbols.py
Writes models/math-handwriting.onnx, models/math-handwriting.labels.json and
models/training/out/handwriting-metrics.json.
"""
import argparse
import json
import os
import time

import numpy as np
import torch

from train_symbols import DATA, OUT, evaluate, export, load, train


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--data", default=os.path.join(DATA, "handwriting-symbols"))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    np.random.seed(11)
    os.makedirs(OUT, exist_ok=True)
    meta, crops, feats, labels, _ = load(args.data)
    test_meta, test_crops, test_feats, test_labels, _ = load(args.data + "-test")
    assert test_meta["classes"] == meta["classes"], "held-out set was generated for another vocabulary"
    classes = meta["classes"]
    started = time.time()
    print(f"training on {len(labels)} crops of writers folds 1-9, {args.epochs} epochs")
    net = train(crops, feats, labels, len(classes), args.epochs, seed=3)
    metrics = {
        "training_crops": len(labels),
        "epochs": args.epochs,
        "train_minutes": round((time.time() - started) / 60, 1),
        "held_out_writers": evaluate(net, test_crops, test_feats, test_labels, classes, "held-out writers (fold 0)"),
    }
    export(net, classes, feats, labels, meta, name="math-handwriting")
    json.dump(metrics, open(os.path.join(OUT, "handwriting-metrics.json"), "w"), indent=1)
    print(f"done in {(time.time() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
