"""Candidate pen-strokes symbol networks. All take points [N,32,5] (x, y, cos, sin, pen-up) and
features [N,3] (log aspect, height in em, size known) and return logits [N,classes].
Plain ops only (conv, GRU, matmul, softmax, layer norm) so torch 1.13 exports them to ONNX opset 13."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

POINTS, CHANNELS, FEATURES = 32, 5, 3


class Base(nn.Module):
    """Three 1-D conv blocks along the pen's path (32 -> 16 -> 8 points), flattened in drawing order, joined by the
    aspect/size features, then an MLP: about 0.8 M multiply-adds per symbol (strokes-real-train.py's default)."""

    def __init__(self, classes, sized=False):
        super().__init__()
        def block(cin, cout, k, stride):
            return nn.Sequential(nn.Conv1d(cin, cout, k, stride=stride, padding=k // 2, bias=False), nn.BatchNorm1d(cout), nn.ReLU(inplace=True))
        # sized: the aspect/size features also join every point's channels, so the first filters can weigh shape by size.
        self.sized = sized
        self.conv = nn.Sequential(block(CHANNELS + (FEATURES if sized else 0), 64, 5, 1), block(64, 64, 5, 2), block(64, 96, 3, 2))
        self.head = nn.Sequential(nn.Linear(96 * (POINTS // 4) + FEATURES, 256), nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(256, classes))

    def forward(self, points, features):
        x = points.transpose(1, 2)
        if self.sized:
            x = torch.cat([x, features[:, :, None].expand(-1, -1, x.shape[2])], 1)
        x = self.conv(x).flatten(1)
        return self.head(torch.cat([x, features], 1))


class Exported(nn.Module):
    """What ships: the network with softmax, inputs `points`, `features`, output `probabilities`."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, points, features):
        return F.softmax(self.net(points, features), dim=1)


class Ensemble(nn.Module):
    """Several networks read together: the mean of their log probabilities, so Exported's softmax gives their
    normalised geometric mean (strokes-real-train.py --members K). On fold 1 it is as accurate as the plain
    mean of the probabilities and surer (mean top probability 0.81 against 0.80 with the size known), as one
    network's probabilities are, which the strokes confidence reads."""

    def __init__(self, members):
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, points, features):
        return torch.stack([F.log_softmax(m(points, features), dim=1) for m in self.members]).mean(0)


class ResBlock(nn.Module):
    def __init__(self, c, k):
        super().__init__()
        self.c1 = nn.Conv1d(c, c, k, padding=k // 2, bias=False)
        self.b1 = nn.BatchNorm1d(c)
        self.c2 = nn.Conv1d(c, c, k, padding=k // 2, bias=False)
        self.b2 = nn.BatchNorm1d(c)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(y)))


class ResCNN(nn.Module):
    """Deeper/wider residual 1-D CNN: 32 points at `w1`, 16 at `w2`, 8 at `w3`, flattened in order."""

    def __init__(self, classes, w1=96, w2=128, w3=192, hidden=384):
        super().__init__()
        def down(cin, cout):
            return nn.Sequential(nn.Conv1d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm1d(cout), nn.ReLU(inplace=True))
        self.stem = nn.Sequential(nn.Conv1d(CHANNELS, w1, 5, padding=2, bias=False), nn.BatchNorm1d(w1), nn.ReLU(inplace=True))
        self.conv = nn.Sequential(ResBlock(w1, 5), down(w1, w2), ResBlock(w2, 3), ResBlock(w2, 3), down(w2, w3), ResBlock(w3, 3))
        self.head = nn.Sequential(nn.Linear(w3 * (POINTS // 4) + FEATURES, hidden), nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(hidden, classes))

    def forward(self, points, features):
        x = self.conv(self.stem(points.transpose(1, 2))).flatten(1)
        return self.head(torch.cat([x, features], 1))


class BiGRU(nn.Module):
    """A conv stem, then a two-layer bidirectional GRU along the pen's path; mean and max pooled."""

    def __init__(self, classes, stem=64, hidden=96):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(CHANNELS, stem, 3, padding=1, bias=False), nn.BatchNorm1d(stem), nn.ReLU(inplace=True))
        self.gru = nn.GRU(stem, hidden, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1)
        self.head = nn.Sequential(nn.Linear(4 * hidden + FEATURES, 256), nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(256, classes))

    def forward(self, points, features):
        x = self.stem(points.transpose(1, 2)).transpose(1, 2)
        y, _ = self.gru(x)
        pooled = torch.cat([y.mean(1), y.max(1).values], 1)
        return self.head(torch.cat([pooled, features], 1))


class Attention(nn.Module):
    def __init__(self, d, heads, ff, drop):
        super().__init__()
        self.heads = heads
        self.n1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.n2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        n, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.n1(x)).reshape(n, t, 3, h, d // h).permute(2, 0, 3, 1, 4)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // h), dim=-1)
        y = torch.matmul(a, v).transpose(1, 2).reshape(n, t, d)
        x = x + self.drop(self.proj(y))
        return x + self.drop(self.ff(self.n2(x)))


class Transformer(nn.Module):
    """A pre-norm transformer encoder over the 32 points (learned positions), mean pooled plus the
    flattened final tokens at quarter resolution."""

    def __init__(self, classes, d=96, layers=3, heads=4, ff=192):
        super().__init__()
        self.embed = nn.Sequential(nn.Conv1d(CHANNELS, d, 3, padding=1))
        self.pos = nn.Parameter(torch.zeros(1, POINTS, d))
        nn.init.normal_(self.pos, std=0.02)
        self.blocks = nn.Sequential(*[Attention(d, heads, ff, 0.1) for _ in range(layers)])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Sequential(nn.Linear(d * 2 + FEATURES, 256), nn.GELU(), nn.Dropout(0.3), nn.Linear(256, classes))

    def forward(self, points, features):
        x = self.embed(points.transpose(1, 2)).transpose(1, 2) + self.pos
        x = self.norm(self.blocks(x))
        pooled = torch.cat([x.mean(1), x.max(1).values], 1)
        return self.head(torch.cat([pooled, features], 1))


CONFIGS = {
    "base": {"lr": 3e-3, "wd": 1e-4},
    "base_noaug": {"lr": 3e-3, "wd": 1e-4, "augment": False},
    "base_sized": {"lr": 3e-3, "wd": 1e-4, "sized": True},
    "rescnn": {"lr": 3e-3, "wd": 5e-4},
    "rescnn_s": {"lr": 3e-3, "wd": 5e-4, "w1": 64, "w2": 96, "w3": 128, "hidden": 256},
    "bigru": {"lr": 3e-3, "wd": 1e-4},
    "transformer": {"lr": 1e-3, "wd": 0.05},
}


def build(name, classes):
    kind = {"base": Base, "base_noaug": Base, "base_sized": Base, "rescnn": ResCNN, "rescnn_s": ResCNN, "bigru": BiGRU, "transformer": Transformer}[name]
    sizes = {k: v for k, v in CONFIGS[name].items() if k not in ("lr", "wd", "augment")}
    return kind(classes, **sizes)


def macs(name, classes):
    """Multiply-adds per symbol (weights of linear/conv/GRU layers times positions, plus attention)."""
    net = build(name, classes)
    counts = []

    def hook(m, inp, out):
        if isinstance(m, nn.Conv1d):
            counts.append(m.weight.numel() * out.shape[-1])
        elif isinstance(m, nn.Linear):
            counts.append(m.weight.numel() * (out.numel() // out.shape[-1]))
        elif isinstance(m, nn.GRU):
            for name_, p in m.named_parameters():
                if name_.startswith("weight"):
                    counts.append(p.numel() * POINTS)
        elif isinstance(m, Attention):
            counts.append(2 * POINTS * POINTS * m.qkv.in_features)

    hooks = [m.register_forward_hook(hook) for m in net.modules()]
    net.eval()
    with torch.no_grad():
        net(torch.zeros(1, POINTS, CHANNELS), torch.zeros(1, FEATURES))
    for h in hooks:
        h.remove()
    return int(sum(counts))
