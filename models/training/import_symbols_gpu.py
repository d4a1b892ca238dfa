"""Exports a classifier trained by train_symbols_gpu.py (float32 state_dict arrays in an .npz) to
models/math-symbols.onnx and its labels file with this machine's torch, as train_symbols.py
exports, and writes its pdflatex accuracy into out/metrics.json (for update-manifest.ts):
`/usr/bin/python3 models/training/import_symbols_gpu.py WEIGHTS.npz --width 1 [--name math-symbols]`."""
import argparse
import os

import numpy as np
import torch

from train_symbols import DATA, OUT, SymbolNet, evaluate, export, load, save_metrics


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("weights")
    parser.add_argument("--width", type=float, default=1.0)
    parser.add_argument("--name", default="math-symbols")
    args = parser.parse_args()
    meta, crops, feats, labels, _ = load(os.path.join(DATA, "symbols"))
    net = SymbolNet(len(meta["classes"]), meta["featureCount"], args.width)
    arrays = np.load(args.weights)
    missing, unexpected = net.load_state_dict({k: torch.from_numpy(arrays[k]) for k in arrays.files}, strict=False)
    assert not unexpected and all(k.endswith("num_batches_tracked") for k in missing), (missing, unexpected)
    net.eval()
    metrics = {"training_crops": len(labels), "fonts": meta["sources"], "trained": f"train_symbols_gpu.py, width {args.width}", "held_out_font": None}
    for dpi in (150, 300):
        prefix = os.path.join(DATA, f"latex-{dpi}")
        if os.path.exists(prefix + ".json"):
            m, c, f, l, _ = load(prefix)
            metrics[f"pdflatex_{dpi}dpi"] = evaluate(net, c, f, l, meta["classes"], f"pdflatex Computer Modern {dpi} dpi")
    export(net, meta["classes"], feats, labels, meta, args.name)
    os.makedirs(OUT, exist_ok=True)
    save_metrics(metrics)


if __name__ == "__main__":
    main()
