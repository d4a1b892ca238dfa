"""Packs the crops written by generate-symbols.ts, generate-fused.ts and generate-latex-heldout.ts
(data/*.bin + .json) into .npz.xz files (an .npz compressed by lzma: a third smaller than
np.savez_compressed on these coverage crops) for train_symbols_gpu.py, which runs where there is no
node: `/usr/bin/python3 models/training/pack_symbols_data.py OUT_DIR [--per-class N]`."""
import argparse
import io
import lzma
import os
import shutil

import numpy as np

from train_symbols import DATA, load


def pack(prefix, out, keep=None):
    meta, crops, feats, labels, sources = load(os.path.join(DATA, prefix))
    idx = np.arange(len(labels)) if keep is None else keep(labels.numpy())
    buffer = io.BytesIO()
    np.savez(
        buffer,
        crops=crops.numpy()[idx, 0], feats=feats.numpy()[idx], labels=labels.numpy()[idx].astype(np.uint16), sources=sources[idx].astype(np.uint8),
    )
    path = os.path.join(out, prefix + ".npz.xz")
    with open(path, "wb") as file:
        file.write(lzma.compress(buffer.getvalue(), preset=6))
    shutil.copy(os.path.join(DATA, prefix + ".json"), os.path.join(out, prefix + ".json"))
    print(f"{prefix}: {len(idx)} crops, {os.path.getsize(path) / 2**20:.2f} MiB", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--per-class", type=int, help="keep at most this many crops of each class (folder size)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(16)

    def per_class(labels):
        if not args.per_class:
            return np.arange(len(labels))
        return np.sort(np.concatenate([rng.permutation(np.flatnonzero(labels == k))[: args.per_class] for k in np.unique(labels)]))

    pack("symbols", args.out, per_class)
    for prefix in ("fused", "latex-150", "latex-300"):
        if os.path.exists(os.path.join(DATA, prefix + ".json")):
            pack(prefix, args.out)


if __name__ == "__main__":
    main()
