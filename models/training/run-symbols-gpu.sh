#!/bin/bash
# The GPU run of the symbol classifier (train_symbols_gpu.py), self-contained in the folder it is
# copied to with its data: `bash run.sh OUT_DIR`. Writes OUT_DIR/sym16.tar (weights, metrics, ONNX
# attempt) and OUT_DIR/sym16.log. SMOKE=1 runs a few steps on the CPU; TRAIN_SECONDS sets the budget.
set -u
OUT_DIR="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
PY=${PY:-python3}
WORK="$(mktemp -d)"
ARGS=(--seconds "${TRAIN_SECONDS:-320}")
[ "${SMOKE:-0}" = 1 ] && ARGS+=(--smoke)
timeout 420 "$PY" "$HERE/train_symbols_gpu.py" "$HERE/data" "$WORK" "${ARGS[@]}" 2>"$WORK/stderr.txt" | tee "$WORK/stdout.txt"
echo "[sym16] trainer exit ${PIPESTATUS[0]}"
tail -n 5 "$WORK/stderr.txt" | sed 's/^/[sym16] stderr: /'
cat "$WORK/stdout.txt" "$WORK/stderr.txt" >"$WORK/sym16.log"
cp "$WORK/sym16.log" "$OUT_DIR/sym16.log"
rm -f "$WORK/stdout.txt" "$WORK/stderr.txt"
tar -cf "$OUT_DIR/sym16.tar" -C "$WORK" .
echo "[sym16] packed $(du -b "$OUT_DIR/sym16.tar" | cut -f1) bytes: $(ls "$WORK" | tr '\n' ' ')"
