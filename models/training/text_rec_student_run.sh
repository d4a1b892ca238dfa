#!/bin/bash
# The GPU run for text_rec_student.py: two students (width 2.0 and 2.5) trained side by side on
# data.npz (text-rec-student-data.ts, packed by `text_rec_student.py pack`), each within a fixed
# time, then exported and packed as OUT/textrec18.tar. Lays beside text_rec_student.py and
# data.npz; `bash run.sh OUT_DIR`. SMOKE=1 PY=/usr/bin/python3: a few steps on the CPU.
set -u
OUT=$1
D=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3}
export NAME=textrec18 THREADS=2 TRAIN_SECONDS=${TRAIN_SECONDS:-320}
mkdir -p "$OUT/w20" "$OUT/w25"
start=$(date +%s)
(cd "$D" && WIDTH=2.0 timeout 400 $PY text_rec_student.py train "$D" "$OUT/w20" 2>"$OUT/w20/err.txt") &
p1=$!
(cd "$D" && WIDTH=2.5 timeout 400 $PY text_rec_student.py train "$D" "$OUT/w25" 2>"$OUT/w25/err.txt" | grep -E 'loaded|parameters|done' | sed 's/^\[textrec18\]/[textrec18] w2.5/') &
p2=$!
wait $p1; echo "[textrec18] w2.0 exit $?"
wait $p2; echo "[textrec18] w2.5 exit $?"
for w in 20 25; do
  width=${w:0:1}.${w:1:1}
  [ -s "$OUT/w$w/err.txt" ] && tail -n 3 "$OUT/w$w/err.txt" | sed "s/^/[textrec18] w$width stderr: /"
  if [ -f "$OUT/w$w/student.npz" ]; then
    (cd "$D" && WIDTH=$width timeout 40 $PY text_rec_student.py export "$OUT/w$w/student.npz" "$OUT/w$w/student.onnx" 2>>"$OUT/w$w/err.txt")
  fi
done
rm -f "$OUT/w25/student.onnx"  # the tar stays under 15 MiB; re-exported from the npz here anyway
tar -cf "$OUT/textrec18.tar" -C "$OUT" w20 w25
rm -rf "$OUT/w20" "$OUT/w25"
echo "[textrec18] packed $(du -b "$OUT/textrec18.tar" | cut -f1) bytes in $(( $(date +%s) - start ))s"
