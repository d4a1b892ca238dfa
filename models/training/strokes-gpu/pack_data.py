"""Packs strokes-real-generate.ts's float32 samples (train, val) into one compact npz:
x, y -> uint8 stored as deltas along the path, direction -> angle byte (255 = no direction) stored as
deltas, pen flag -> bits, aspect/height -> int16, labels uint8."""
import json, sys
import numpy as np
from samples import load_arrays as load


def delta(a):
    return np.diff(a.astype(np.int16), axis=1, prepend=0).astype(np.uint8)


def quantise(pts, feats, labels):
    xy = np.clip(np.round((pts[:, :, :2] + 0.5) * 255), 0, 255).astype(np.uint8)
    angle = np.round((np.arctan2(pts[:, :, 3], pts[:, :, 2]) % (2 * np.pi)) / (2 * np.pi) * 255).astype(np.int64) % 255
    angle[(np.abs(pts[:, :, 2]) + np.abs(pts[:, :, 3])) < 1e-6] = 255
    return {
        "dx": delta(xy[:, :, 0]),
        "dy": delta(xy[:, :, 1]),
        "dangle": delta(angle.astype(np.uint8)),
        "pen": np.packbits(pts[:, :, 4] > 0.5, axis=1),
        "feat": np.stack([np.round(feats[:, 0] * 10000), np.round(feats[:, 1] * 10000)], 1).astype(np.int16),
        "known": (feats[:, 2] > 0.5).astype(np.uint8),
        "label": labels.astype(np.uint8),
    }


prefix, out = sys.argv[1], sys.argv[2]
arrays = {}
meta = None
for part, suffix in (("train", ""), ("val", "-val")):
    meta_p, pts, feats, labels = load(prefix + suffix)
    meta = meta or meta_p
    assert labels.max() < 256
    for k, v in quantise(pts, feats, labels).items():
        arrays[f"{part}_{k}"] = v
    print(part, len(labels))
np.savez_compressed(out, classes=np.array(json.dumps(meta["classes"])), **arrays)
