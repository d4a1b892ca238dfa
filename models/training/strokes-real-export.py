"""Exports a pen-strokes network trained elsewhere (strokes-gpu/train.py: weights as an npz of
float32 arrays keyed by state_dict names) to models/math-strokes.onnx the way strokes-real-train.py
does, and reports its accuracy on the held-out writers (fold 0).

  /usr/bin/python3 models/training/strokes-real-export.py --arch rescnn --weights W.npz [--data PREFIX] [--no-write]
"""
import argparse
import importlib.util
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "strokes-gpu"))
_spec = importlib.util.spec_from_file_location("strokes_real_train", os.path.join(HERE, "strokes-real-train.py"))
srt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(srt)
from nets import build  # noqa: E402


NETWORKS = {"base": "1-D CNN", "base_noaug": "1-D CNN", "rescnn": "residual 1-D CNN", "rescnn_s": "residual 1-D CNN",
            "bigru": "bidirectional GRU", "transformer": "transformer encoder"}


def load_net(arch, weights, classes):
    net = build(arch, classes)
    z = np.load(weights)
    net.load_state_dict({k: torch.from_numpy(z[k]).to(v.dtype) for k, v in net.state_dict().items()})
    return net.eval()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", required=True)
    parser.add_argument("--weights", required=True)
    parser.add_argument("--data", default=os.path.join(srt.DATA, "strokes-real"), help="prefix of the training samples (typical heights) and <prefix>-test")
    parser.add_argument("--gpu-metrics", help="the GPU run's metrics.json (epochs, validation accuracy)")
    parser.add_argument("--no-write", action="store_true", help="report only")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
    meta, points, feats, labels = srt.load(args.data)
    net = load_net(args.arch, args.weights, len(meta["classes"]))
    _, tp, tf, tl = srt.load(args.data + "-test")
    report = srt.evaluate(net, tp, tf, tl, meta["classes"])
    if not args.no_write:
        srt.export(net, meta, feats, labels)
        os.makedirs(srt.OUT, exist_ok=True)
        gpu = json.load(open(args.gpu_metrics)) if args.gpu_metrics else {}
        metrics = {
            "training_samples": len(labels), "sources": meta["sources"], "arch": args.arch, "held_out_writers": report,
            "epochs": gpu.get("epochs"), "validation_fold_1": gpu.get("results", {}).get(args.arch, {}),
            "network": NETWORKS.get(args.arch, args.arch),
            "recipe": "models/training: strokes-real-generate.ts with VALIDATION_FOLD=1 PER_CLASS=1000 MAX_COPIES=30 (Detexify + UNIPEN folds 2-9, "
                      "warped copies, traced MathJax fonts for classes without real drawings; fold 1 for choosing the network) + "
                      f"strokes-gpu/ (pack_data.py, train.py on one GPU: {gpu.get('epochs')} epochs with affine warps of the trajectory) + "
                      "strokes-real-export.py (torch 1.13, ONNX opset 13)",
        }
        json.dump(metrics, open(os.path.join(srt.OUT, "strokes-metrics.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
