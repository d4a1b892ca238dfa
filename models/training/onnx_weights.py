"""Reads the float initializers (weights) of an ONNX model with a minimal protobuf reader, since
Debian has no python3-onnx: ModelProto.graph (field 7) → GraphProto.initializer (field 5) →
TensorProto dims (1), name (8), raw_data (9). Used to fine-tune a classifier from the model it
replaces (train_symbols.py --init)."""
import numpy as np


def varint(data, at):
    """The base-128 varint at data[at]; returns (value, index after it)."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data):
    """(field number, wire type, value) of each field of a serialised message."""
    at = 0
    while at < len(data):
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 1:
            value, at = data[at:at + 8], at + 8
        elif wire == 5:
            value, at = data[at:at + 4], at + 4
        elif wire == 2:
            length, at = varint(data, at)
            value, at = data[at:at + length], at + length
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def initializers(path):
    """{name: float32 array} of a model's initializers (raw_data, as torch.onnx.export writes them)."""
    model = open(path, "rb").read()
    graph = next(value for number, _, value in fields(model) if number == 7)
    out = {}
    for number, _, tensor in fields(graph):
        if number != 5:
            continue
        dims, name, raw = [], None, b""
        for field, wire, value in fields(tensor):
            if field == 1 and wire == 0:
                dims.append(value)
            elif field == 1:  # packed dims
                at = 0
                while at < len(value):
                    dim, at = varint(value, at)
                    dims.append(dim)
            elif field == 8:
                name = value.decode()
            elif field == 9:
                raw = value
        out[name] = np.frombuffer(raw, "<f4").reshape(dims)
    return out
