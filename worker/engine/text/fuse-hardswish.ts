/**
 * PP-OCR's ONNX exports (Paddle2ONNX, opset 9) spell each hard-swish activation as four
 * elementwise passes, `Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)`, which onnxruntime does not fuse:
 * on the recogniser they were a fifth of its time. This rewrites each into the two passes
 * `Mul(x, HardSigmoid(x; α = 1/6, β = 0.5))`, the same function, in the model's bytes before the
 * session is made (the file on disk, checked against the manifest, is unchanged). The ONNX
 * protobuf is walked by hand: only the graph's node list changes; every other field is copied.
 */

interface Field {
  no: number;
  /** Byte range of the whole field, key included. */
  start: number;
  end: number;
  /** Payload of a length-delimited field. */
  body?: [number, number];
  varint?: number;
  /** Offset of a 32-bit payload. */
  fixed32?: number;
}

function fields(b: Buffer, from = 0, to = b.length): Field[] {
  const out: Field[] = [];
  let p = from;
  const varint = () => {
    let r = 0;
    let mul = 1;
    for (;;) {
      const x = b[p++]!;
      r += (x & 127) * mul;
      mul *= 128;
      if (!(x & 128)) return r;
    }
  };
  while (p < to) {
    const start = p;
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) out.push({ no, start, varint: varint(), end: p });
    else if (wire === 2) {
      const len = varint();
      out.push({ no, start, body: [p, p + len], end: (p += len) });
    } else if (wire === 5) out.push({ no, start, fixed32: p, end: (p += 4) });
    else if (wire === 1) out.push({ no, start, end: (p += 8) });
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const text = (b: Buffer, f: Field) => b.toString('utf8', f.body![0], f.body![1]);

function varintBytes(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

const lengthField = (no: number, body: Buffer) => Buffer.concat([Buffer.from([...varintBytes(no * 8 + 2), ...varintBytes(body.length)]), body]);
const stringField = (no: number, s: string) => lengthField(no, Buffer.from(s, 'utf8'));
function floatAttribute(name: string, value: number): Buffer {
  const f = Buffer.alloc(4);
  f.writeFloatLE(value);
  // AttributeProto: name = 1, f = 2 (fixed32), type = 20 (FLOAT = 1)
  return lengthField(5, Buffer.concat([stringField(1, name), Buffer.from([2 * 8 + 5]), f, Buffer.from([...varintBytes(20 * 8), 1])]));
}

interface Node {
  field: Field;
  op: string;
  inputs: string[];
  outputs: string[];
  /** Float attributes (Clip's min and max) and a Constant's scalar value. */
  floats: Map<string, number>;
}

function readNode(b: Buffer, field: Field): Node {
  const node: Node = { field, op: '', inputs: [], outputs: [], floats: new Map() };
  for (const f of fields(b, ...field.body!)) {
    if (f.no === 1) node.inputs.push(text(b, f));
    else if (f.no === 2) node.outputs.push(text(b, f));
    else if (f.no === 4) node.op = text(b, f);
    else if (f.no === 5) {
      const attr = fields(b, ...f.body!);
      const name = attr.find((a) => a.no === 1);
      const value = attr.find((a) => a.no === 2 && a.fixed32 !== undefined);
      const tensor = attr.find((a) => a.no === 5 && a.body);
      if (name && value) node.floats.set(text(b, name), b.readFloatLE(value.fixed32!));
      if (name && tensor) {
        const scalar = tensorScalar(b, tensor);
        if (scalar !== undefined) node.floats.set(text(b, name), scalar);
      }
    }
  }
  return node;
}

/** The value of a one-element float32 TensorProto (dims 1, data_type 2, float_data 4, raw_data 9). */
function tensorScalar(b: Buffer, tensor: Field): number | undefined {
  const parts = fields(b, ...tensor.body!);
  const type = parts.find((p) => p.no === 2)?.varint;
  if (type !== 1) return undefined;
  const raw = parts.find((p) => p.no === 9 || p.no === 4);
  if (!raw) return undefined;
  if (raw.fixed32 !== undefined) return b.readFloatLE(raw.fixed32);
  if (raw.body && raw.body[1] - raw.body[0] === 4) return b.readFloatLE(raw.body[0]);
  return undefined;
}

/** The model with every hard-swish found rewritten; the same bytes when none is. */
export function fuseHardSwish(model: Buffer): Buffer {
  const top = fields(model);
  const graphField = top.find((f) => f.no === 7 && f.body);
  if (!graphField) return model;
  const graph = fields(model, ...graphField.body!);
  const nodes = graph.filter((f) => f.no === 1).map((f) => readNode(model, f));
  const producer = new Map<string, Node>();
  const consumers = new Map<string, number>();
  for (const n of nodes) {
    n.outputs.forEach((o) => producer.set(o, n));
    n.inputs.forEach((i) => consumers.set(i, (consumers.get(i) ?? 0) + 1));
  }
  const constant = (name: string | undefined, value: number) => {
    const n = name === undefined ? undefined : producer.get(name);
    return n?.op === 'Constant' && n.floats.get('value') === value;
  };
  const only = (name: string) => consumers.get(name) === 1;
  const removed = new Set<Node>();
  const replaced = new Map<Node, Buffer>();
  const fusedInputs: string[] = [];
  for (const div of nodes) {
    if (div.op !== 'Div' || !constant(div.inputs[1], 6)) continue;
    const mul = producer.get(div.inputs[0]!);
    if (mul?.op !== 'Mul' || !only(mul.outputs[0]!)) continue;
    const clipAt = mul.inputs.findIndex((i) => producer.get(i)?.op === 'Clip');
    const clip = producer.get(mul.inputs[clipAt]!);
    if (!clip || clip.floats.get('min') !== 0 || clip.floats.get('max') !== 6 || clip.inputs.length !== 1 || !only(clip.outputs[0]!)) continue;
    const x = mul.inputs[1 - clipAt]!;
    const add = producer.get(clip.inputs[0]!);
    if (add?.op !== 'Add' || !only(add.outputs[0]!)) continue;
    const xAt = add.inputs.indexOf(x);
    if (xAt < 0 || !constant(add.inputs[1 - xAt], 3)) continue;
    const out = div.outputs[0]!;
    const gate = `${out}__hardsigmoid`;
    const hardSigmoid = Buffer.concat([
      stringField(1, x),
      stringField(2, gate),
      stringField(3, gate),
      stringField(4, 'HardSigmoid'),
      floatAttribute('alpha', 1 / 6),
      floatAttribute('beta', 0.5),
    ]);
    const times = Buffer.concat([stringField(1, x), stringField(1, gate), stringField(2, out), stringField(3, `${out}__hardswish`), stringField(4, 'Mul')]);
    [add, clip, mul].forEach((n) => removed.add(n));
    fusedInputs.push(x);
    replaced.set(div, Buffer.concat([lengthField(1, hardSigmoid), lengthField(1, times)]));
  }
  if (!replaced.size) return model;
  // the constants 3 and 6 the rewritten activations used, now read by nothing
  const stillRead = new Set(nodes.filter((n) => !removed.has(n) && !replaced.has(n)).flatMap((n) => n.inputs));
  fusedInputs.forEach((x) => stillRead.add(x));
  for (const n of nodes) if (n.op === 'Constant' && n.outputs.every((o) => !stillRead.has(o))) removed.add(n);
  const byField = new Map(nodes.map((n) => [n.field, n]));
  const graphBody = Buffer.concat(
    graph.map((f) => {
      const node = byField.get(f);
      if (node && removed.has(node)) return Buffer.alloc(0);
      return (node && replaced.get(node)) ?? model.subarray(f.start, f.end);
    }),
  );
  return Buffer.concat(top.map((f) => (f === graphField ? lengthField(7, graphBody) : model.subarray(f.start, f.end))));
}

/** The op type of each node of the model's graph, in order. */
export function opTypes(model: Buffer): string[] {
  const graphField = fields(model).find((f) => f.no === 7 && f.body);
  return graphField
    ? fields(model, ...graphField.body!)
        .filter((f) => f.no === 1)
        .map((f) => readNode(model, f).op)
    : [];
}
