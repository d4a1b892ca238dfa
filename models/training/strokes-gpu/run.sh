#!/bin/bash
# strokes17: trains 5 pen-strokes symbol classifiers at once, picks on a training-writer fold, packs $1/strokes17.tar.
# Smoke test: SMOKE=1 PY=/usr/bin/python3 CUDA_VISIBLE_DEVICES= bash run.sh /tmp/strokes17-smoke
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$1"; OUTDIR="$(cd "$1" && pwd)"
PY=${PY:-python3}
cd "$HERE"
timeout 420 "$PY" train.py "$OUTDIR" 2>&1
echo "[strokes17] train exit $?"
timeout 50 "$PY" pack.py "$OUTDIR" 2>&1 | grep -v Warning | tail -n 6
ls -la "$OUTDIR" | sed 's/^/[strokes17] /' | tail -n 4
