"""Reads the pen-strokes samples strokes-real-generate.ts writes (TrajectoryWriter in
strokes-real-samples.ts): `<prefix>.json` (count, points, channels, featureCount, classes, ...) and
`<prefix>.bin` (float32 points [N,points,channels], float32 features [N,featureCount], uint16 labels).
Shared by strokes-real-train.py, strokes-real-export.py and pack_data.py (this folder travels alone to a GPU)."""
import json

import numpy as np


def load_arrays(prefix):
    """The samples as numpy arrays: meta, points, features, labels (uint16)."""
    meta = json.load(open(prefix + ".json"))
    n, p, c, nf = meta["count"], meta["points"], meta["channels"], meta["featureCount"]
    raw = open(prefix + ".bin", "rb").read()
    at = 0
    points = np.frombuffer(raw, "<f4", n * p * c, at).reshape(n, p, c)
    at += n * p * c * 4
    feats = np.frombuffer(raw, "<f4", n * nf, at).reshape(n, nf)
    at += n * nf * 4
    labels = np.frombuffer(raw, "<u2", n, at)
    return meta, points, feats, labels
