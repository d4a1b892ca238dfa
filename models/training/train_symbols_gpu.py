"""Trains the maths symbol classifier from scratch on a GPU, several configurations at once, and
picks one by a validation split of the rendered crops (never by the evaluation formulas).

    python3 train_symbols_gpu.py DATA_DIR OUT_DIR [--seconds 300] [--smoke]

DATA_DIR holds pack_symbols_data.py's files: symbols.npz.xz (generate-symbols.ts), fused.npz
(generate-fused.ts: letter pairs the raster fused into one blob, trained towards a flat output so
that split.ts cuts them) and latex-{150,300}.npz.xz (pdflatex crops, reported only). Every
configuration sees the same batches; the learning rate follows a one-cycle schedule over a time
budget, so the run ends on time however busy the GPU is. OUT_DIR gets <config>.npz (float32
state_dict arrays; import_symbols_gpu.py exports ONNX from them with the local torch), a
checkpoint of each every minute, metrics.json and an ONNX export attempt of the chosen one.
Runs on torch 1.13 (CPU smoke test) and 2.x (CUDA).
"""
import argparse
import contextlib
import inspect
import io
import lzma
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_symbols import Exported, SymbolNet  # noqa: E402

# name: (width multiplier, weight of the flat target on fused pairs)
CONFIGS = {"w1": (1.0, 1.0), "w1.5": (1.5, 1.0), "w1-nofused": (1.0, 0.0)}
BATCH, FUSED_BATCH = 512, 64
VALIDATION = 0.04
# A config is preferred to a wider one unless the wider one is this much more accurate.
WIDER_MARGIN = 0.002
# split.ts cuts a blob the classifier gives less than this (SPLIT_BELOW).
SPLIT_BELOW = 0.7


def log(message):
    print(f"[sym16] {message}", flush=True)


def load(path, device):
    z = np.load(io.BytesIO(lzma.decompress(open(path, "rb").read())))
    return {k: torch.from_numpy(z[k].astype(np.int64 if k == "labels" else z[k].dtype)).to(device) for k in ("crops", "feats", "labels")}


def batches(data, idx, f=None):
    x = data["crops"][idx].float().unsqueeze(1) / 255
    return x, (data["feats"][idx] if f is None else f)


def shifted(x):
    """Each crop moved by up to a pixel either way (real crops are not centred as exactly as renders)."""
    n = len(x)
    d = torch.randint(-1, 2, (n, 2), device=x.device).float() * (2 / x.shape[-1])
    theta = torch.zeros(n, 2, 3, device=x.device)
    theta[:, 0, 0] = theta[:, 1, 1] = 1
    theta[:, :, 2] = d
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="nearest", padding_mode="zeros", align_corners=False)


def hide_size(f, p=0.5):
    f = f.clone()
    hide = torch.rand(len(f), device=f.device) < p
    f[hide, 1:] = 0
    return f


@torch.no_grad()
def probabilities(net, data, idx=None, hide=False):
    net.eval()
    idx = torch.arange(len(data["labels"]), device=data["labels"].device) if idx is None else idx
    out = []
    for i in range(0, len(idx), 4096):
        x, f = batches(data, idx[i:i + 4096])
        if hide:
            f = f.clone()
            f[:, 1:] = 0
        out.append(F.softmax(net(x, f).float(), 1))
    return torch.cat(out)


def accuracy(net, data, idx=None):
    labels = data["labels"] if idx is None else data["labels"][idx]
    known = (probabilities(net, data, idx).argmax(1) == labels).float().mean().item()
    unknown = (probabilities(net, data, idx, hide=True).argmax(1) == labels).float().mean().item()
    return round(known, 4), round(unknown, 4)


def save(net, path):
    arrays = {k: v.detach().float().cpu().numpy() for k, v in net.state_dict().items() if v.is_floating_point()}
    np.savez(path, **arrays)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--smoke", action="store_true", help="a handful of steps on a sample (CPU check)")
    args = parser.parse_args()
    torch.set_num_threads(4)
    torch.manual_seed(16)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    os.makedirs(args.out, exist_ok=True)
    meta = json.load(open(os.path.join(args.data, "symbols.json")))
    classes = meta["classes"]
    sym = load(os.path.join(args.data, "symbols.npz.xz"), device)
    fused = load(os.path.join(args.data, "fused.npz.xz"), device)
    n, nf = len(sym["labels"]), len(fused["labels"])
    g = torch.Generator().manual_seed(1127)
    order, forder = torch.randperm(n, generator=g).to(device), torch.randperm(nf, generator=g).to(device)
    val, train = order[: int(n * VALIDATION)], order[int(n * VALIDATION):]
    fval, ftrain = forder[: int(nf * 0.1)], forder[int(nf * 0.1):]
    if args.smoke:
        train, val, ftrain, fval = train[:2048], val[:1024], ftrain[:256], fval[:128]
    log(f"{device}; {len(train)} train / {len(val)} validation crops, {len(ftrain)} / {len(fval)} fused, {len(classes)} classes")

    nets, opts = {}, {}
    for name, (width, _) in CONFIGS.items():
        nets[name] = SymbolNet(len(classes), sym["feats"].shape[1], width).to(device)
        opts[name] = torch.optim.AdamW(nets[name].parameters(), lr=args.lr, weight_decay=1e-4)
        log(f"{name}: {sum(p.numel() for p in nets[name].parameters()) / 1e6:.2f} M parameters")

    started = last_ckpt = last_log = time.time()
    step, epoch_at, budget = 0, 0, (20 if args.smoke else args.seconds)
    perm = train[torch.randperm(len(train), device=device)]
    while True:
        fraction = (time.time() - started) / budget
        if fraction >= 1 or (args.smoke and step >= 6):
            break
        # One cycle over the time budget: 20 % warm-up, then cosine down to lr / 1000.
        lr = args.lr * (0.04 + 0.96 * fraction / 0.2 if fraction < 0.2 else 0.001 + 0.999 * 0.5 * (1 + math.cos(math.pi * (fraction - 0.2) / 0.8)))
        if epoch_at + BATCH > len(perm):
            perm, epoch_at = train[torch.randperm(len(train), device=device)], 0
        idx = perm[epoch_at: epoch_at + BATCH]
        epoch_at += BATCH
        fidx = ftrain[torch.randint(0, len(ftrain), (FUSED_BATCH,), device=device)]
        x, f = batches(sym, idx)
        fx, ff = batches(fused, fidx)
        x, fx, f, ff, y = shifted(x), shifted(fx), hide_size(f), hide_size(ff), sym["labels"][idx]
        for name, net in nets.items():
            net.train()
            for group in opts[name].param_groups:
                group["lr"] = lr
            with torch.autocast("cuda", dtype=torch.bfloat16) if device == "cuda" else contextlib.nullcontext():
                logits = net(torch.cat([x, fx]), torch.cat([f, ff])).float()
            loss = F.cross_entropy(logits[:BATCH], y, label_smoothing=0.05)
            weight = CONFIGS[name][1]
            if weight:
                # Fused pairs are no class: push their output towards the flat distribution.
                loss = loss - weight * F.log_softmax(logits[BATCH:], 1).mean()
            opts[name].zero_grad(set_to_none=True)
            loss.backward()
            opts[name].step()
        step += 1
        if time.time() - last_log > 30:
            last_log = time.time()
            log(f"step {step}, {time.time() - started:.0f} s, epoch {step * BATCH / len(train):.1f}, lr {lr:.5f}, loss ({name}) {loss.item():.3f}")
        if time.time() - last_ckpt > 60:
            for name, net in nets.items():
                save(net, os.path.join(args.out, f"{name}.npz"))
            last_ckpt = time.time()
    log(f"trained {step} steps ({step * BATCH / len(train):.1f} epochs) in {time.time() - started:.0f} s")

    metrics = {"steps": step, "epochs": round(step * BATCH / len(train), 2), "seconds": round(time.time() - started), "configs": {}}
    for name, net in nets.items():
        save(net, os.path.join(args.out, f"{name}.npz"))
        fp = probabilities(net, fused, fval).max(1).values
        m = {
            "width": CONFIGS[name][0],
            "fused_weight": CONFIGS[name][1],
            "validation": accuracy(net, sym, val),
            "fused_unsure": round((fp < SPLIT_BELOW).float().mean().item(), 4),
        }
        for dpi in (150, 300):
            path = os.path.join(args.data, f"latex-{dpi}.npz.xz")
            if os.path.exists(path):
                m[f"pdflatex_{dpi}"] = accuracy(net, load(path, device))
        metrics["configs"][name] = m
        log(f"{name}: validation (size known, unknown) {m['validation']}, fused unsure {m['fused_unsure']}, pdflatex 150 {m.get('pdflatex_150')}, 300 {m.get('pdflatex_300')}")
    # The choice: among configs trained with fused pairs, the best validation accuracy (size known
    # and unknown averaged); a narrower one wins unless a wider is WIDER_MARGIN better.
    score = {k: sum(v["validation"]) / 2 for k, v in metrics["configs"].items() if v["fused_weight"] > 0}
    best = max(score.values())
    chosen = min((k for k in score if score[k] >= best - WIDER_MARGIN), key=lambda k: CONFIGS[k][0])
    metrics["chosen"] = chosen
    json.dump(metrics, open(os.path.join(args.out, "metrics.json"), "w"), indent=1)
    log(f"chosen: {chosen}")
    try:
        net = nets[chosen].float().cpu().eval()
        kwargs = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
        torch.onnx.export(
            Exported(net), (torch.zeros(1, 1, 32, 32), torch.zeros(1, sym["feats"].shape[1])), os.path.join(args.out, f"{chosen}.onnx"),
            input_names=["crops", "features"], output_names=["probabilities"], opset_version=13,
            dynamic_axes={"crops": {0: "batch"}, "features": {0: "batch"}, "probabilities": {0: "batch"}}, **kwargs,
        )
        log("onnx export done")
    except Exception as error:  # the npz weights are what matters; ONNX is re-exported locally
        log(f"onnx export failed: {error}")


if __name__ == "__main__":
    main()
