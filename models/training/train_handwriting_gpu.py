"""Trains the handwriting image classifier on a GPU within a fixed time: SymbolNet (train_symbols.py)
at a chosen width, the crops kept on the device as tensors, augmented there (small rotation, scale
and shift, pen made thicker or thinner, the size hidden half the time). The learning rate follows
a warm-up and cosine over max(step share, time share), so a run cut short still ends annealed.
Writers of one training fold (`--val-fold`, never fold 0) are held apart to choose between runs.

  python3 train_handwriting_gpu.py --data data.npz --out DIR --width 1.5 --seconds 240
Writes DIR/<tag>.npz (float32 state_dict, the best validation epoch), DIR/<tag>.json (metrics) and
tries DIR/<tag>.onnx. `... export DIR/<tag>.npz --data data.npz [--name math-handwriting]` writes
models/<name>.onnx and its labels with torch 1.13, as the shipped models were exported. pack: `python3 train_handwriting_gpu.py pack PREFIX... --out data.npz` turns
handwriting-symbols-generate.ts output (`.bin`/`.json`/`.folds`) into the npz.
"""
import argparse
import contextlib
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

# SymbolNet and Exported are the CPU trainer's (train_symbols.py; `width` scales every layer): a GPU
# folder gets train_symbols.py, fit.py and onnx_weights.py copied in beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_symbols import Exported, SymbolNet  # noqa: E402

SIDE, FEATURES = 32, 3


def read_crops(prefix):
    """dataset.ts CropWriter output plus the generator's `.folds` (one byte per training crop)."""
    meta = json.load(open(prefix + ".json"))
    n = meta["count"]
    raw = open(prefix + ".bin", "rb").read()
    at = 0
    crops = np.frombuffer(raw, np.uint8, n * SIDE * SIDE, at).reshape(n, SIDE, SIDE); at += n * SIDE * SIDE
    feats = np.frombuffer(raw, "<f4", n * FEATURES, at).reshape(n, FEATURES); at += n * FEATURES * 4
    labels = np.frombuffer(raw, "<u2", n, at); at += n * 2
    folds = np.fromfile(prefix + ".folds", np.uint8) if os.path.exists(prefix + ".folds") else np.zeros(n, np.uint8)
    return meta, crops, feats, labels, folds


def pack(prefixes, test_prefix, out):
    parts = [read_crops(p) for p in prefixes]
    meta = parts[0][0]
    arrays = {k: np.concatenate([p[i] for p in parts]) for i, k in ((1, "crops"), (2, "feats"), (3, "labels"), (4, "folds"))}
    if test_prefix:
        _, tc, tf, tl, _ = read_crops(test_prefix)
        arrays.update(test_crops=tc, test_feats=tf, test_labels=tl)
    arrays["classes"] = np.array(json.dumps(meta["classes"]))
    np.savez_compressed(out, **arrays)
    print(f"packed {len(arrays['labels'])} crops into {out} ({os.path.getsize(out) / 2**20:.1f} MiB)")


def augment(x, g):
    """x: [B,1,32,32] ink coverage 0..1 on the device. A small affine warp and a pen width change."""
    b = x.shape[0]
    angle = (torch.rand(b, device=x.device, generator=g) * 2 - 1) * math.radians(8)
    scale = 1 + (torch.rand(b, 2, device=x.device, generator=g) * 2 - 1) * 0.08
    shift = (torch.rand(b, 2, device=x.device, generator=g) * 2 - 1) * (1.5 * 2 / SIDE)
    cos, sin = torch.cos(angle), torch.sin(angle)
    theta = torch.stack([
        torch.stack([cos / scale[:, 0], -sin / scale[:, 0], shift[:, 0]], 1),
        torch.stack([sin / scale[:, 1], cos / scale[:, 1], shift[:, 1]], 1),
    ], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    # Half the crops stay unwarped: resampling softens edges that inference crops keep sharp.
    warp = torch.rand(b, 1, 1, 1, device=x.device, generator=g) < 0.5
    x = torch.where(warp, F.grid_sample(x, grid, align_corners=False, padding_mode="zeros"), x)
    # Pen width: blend towards a one-pixel dilation (thicker) or erosion (thinner).
    amount = torch.rand(b, 1, 1, 1, device=x.device, generator=g)
    kind = torch.rand(b, 1, 1, 1, device=x.device, generator=g)
    thick = F.max_pool2d(x, 3, 1, 1)
    thin = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where(kind < 0.3, x + amount * (thick - x), torch.where(kind < 0.45, x - 0.5 * amount * (x - thin), x))
    return x.clamp(0, 1)


@torch.no_grad()
def accuracy(net, crops, feats, labels, hide_size):
    net.eval()
    right = 0
    for i in range(0, len(labels), 4096):
        f = feats[i:i + 4096].clone()
        if hide_size:
            f[:, 1:] = 0
        logits = net(crops[i:i + 4096].float().unsqueeze(1) / 255, f)
        right += (logits.argmax(1) == labels[i:i + 4096]).sum().item()
    net.train()
    return right / max(1, len(labels))


def save_weights(net, path):
    np.savez(path, **{k: v.detach().float().cpu().numpy() for k, v in net.state_dict().items()})


def export_onnx(net, path):
    model = Exported(net).eval().cpu()
    kwargs = dict(input_names=["crops", "features"], output_names=["probabilities"], opset_version=13,
                  dynamic_axes={"crops": {0: "batch"}, "features": {0: "batch"}, "probabilities": {0: "batch"}})
    if "dynamo" in torch.onnx.export.__code__.co_varnames:
        kwargs["dynamo"] = False
    torch.onnx.export(model, (torch.zeros(1, 1, SIDE, SIDE), torch.zeros(1, FEATURES)), path, **kwargs)


def log(tag, text):
    print(f"[hwimg17] {tag} {text}", flush=True)


def export_here(weights, data, name):
    """Ships a run's weights as models/<name>.onnx + labels with train_symbols.py's export (torch 1.13
    here, as the shipped models were exported); typical heights come from the training crops."""
    from train_symbols import export
    state = {k: torch.from_numpy(v) for k, v in np.load(weights).items()}
    d = np.load(data)
    classes = json.loads(str(d["classes"]))
    net = SymbolNet(len(classes), FEATURES, state["conv.0.0.weight"].shape[0] / 16)
    net.load_state_dict(state)
    net.eval()
    meta = {"cropSize": SIDE, "featureCount": FEATURES}
    export(net, classes, torch.from_numpy(d["feats"]), torch.from_numpy(d["labels"].astype(np.int64)), meta, name=name)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "export":
        p = argparse.ArgumentParser()
        p.add_argument("cmd")
        p.add_argument("weights")
        p.add_argument("--data", required=True)
        p.add_argument("--name", default="math-handwriting")
        a = p.parse_args()
        return export_here(a.weights, a.data, a.name)
    if len(sys.argv) > 1 and sys.argv[1] == "pack":
        p = argparse.ArgumentParser()
        p.add_argument("cmd")
        p.add_argument("prefixes", nargs="+")
        p.add_argument("--test")
        p.add_argument("--out", required=True)
        a = p.parse_args()
        return pack(a.prefixes, a.test, a.out)
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--tag", default="run")
    p.add_argument("--width", type=float, default=1.0)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--seconds", type=float, default=240)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--val-fold", type=int, default=1)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--save-every", type=float, default=30)
    p.add_argument("--smoke", action="store_true", help="a few steps, then the whole save/export path")
    a = p.parse_args()
    assert a.val_fold != 0, "fold 0 is the held-out writers: never chosen on"
    started = time.time()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    d = np.load(a.data)
    classes = json.loads(str(d["classes"]))
    folds = d["folds"]
    train_mask, val_mask = folds != a.val_fold, folds == a.val_fold
    if a.smoke:
        train_mask &= np.arange(len(folds)) % 50 == 0
    t = lambda arr, m, dtype: torch.from_numpy(np.ascontiguousarray(arr[m]).astype(np.int64 if arr.dtype == np.uint16 else arr.dtype)).to(dev, dtype)
    crops, feats, labels = t(d["crops"], train_mask, torch.uint8), t(d["feats"], train_mask, torch.float32), t(d["labels"], train_mask, torch.long)
    vc, vf, vl = t(d["crops"], val_mask, torch.uint8), t(d["feats"], val_mask, torch.float32), t(d["labels"], val_mask, torch.long)
    all_ = np.ones(len(d["test_labels"]), bool) if "test_labels" in d else None
    test = (t(d["test_crops"], all_, torch.uint8), t(d["test_feats"], all_, torch.float32), t(d["test_labels"], all_, torch.long)) if all_ is not None else None
    n = len(labels)
    net = SymbolNet(len(classes), FEATURES, a.width).to(dev)
    params = sum(v.numel() for v in net.parameters())
    log(a.tag, f"width {a.width} ({params} parameters) on {dev}: {n} training crops, {len(vl)} validation (fold {a.val_fold}), loaded in {time.time() - started:.0f} s")
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-4)
    steps_per_epoch = (n + a.batch - 1) // a.batch
    total = a.epochs * steps_per_epoch if not a.smoke else 5
    g = torch.Generator(device=dev)
    g.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    weights = os.path.join(a.out, f"{a.tag}.npz")
    train_started = time.time()
    last_save, step, best, history = time.time(), 0, -1.0, []
    done = False
    for epoch in range(a.epochs):
        order = torch.randperm(n, device=dev)
        right = 0
        for i in range(0, n, a.batch):
            progress = max(step / total, (time.time() - train_started) / a.seconds)
            if progress >= 1:
                done = True
                break
            lr = a.lr * (progress / 0.08 if progress < 0.08 else 0.5 * (1 + math.cos(math.pi * (progress - 0.08) / 0.92)))
            for group in opt.param_groups:
                group["lr"] = lr
            idx = order[i:i + a.batch]
            x = augment(crops[idx].float().unsqueeze(1) / 255, g)
            f = feats[idx].clone()
            hide = torch.rand(len(idx), device=dev, generator=g) < 0.5
            f[hide, 1:] = 0
            with torch.autocast("cuda", dtype=torch.bfloat16) if dev == "cuda" else contextlib.nullcontext():
                logits = net(x, f)
            loss = F.cross_entropy(logits.float(), labels[idx], label_smoothing=0.05)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            right += (logits.argmax(1) == labels[idx]).sum().item() if step % 20 == 0 else 0
            step += 1
        val = {"size_unknown": accuracy(net, vc, vf, vl, True), "size_known": accuracy(net, vc, vf, vl, False)}
        score = (val["size_unknown"] + val["size_known"]) / 2
        history.append({"epoch": epoch + 1, "step": step, "seconds": round(time.time() - train_started), "lr": lr, **val})
        if score > best or progress > 0.9:
            # Late epochs (annealed) win ties; the best so far is what a timeout leaves.
            if score > best:
                best = score
                save_weights(net, weights)
                last_save = time.time()
        if time.time() - last_save > a.save_every:
            save_weights(net, os.path.join(a.out, f"{a.tag}-last.npz"))
            last_save = time.time()
        log(a.tag, f"epoch {epoch + 1} step {step}/{total} {time.time() - train_started:.0f}s lr {lr:.2e} val {val['size_unknown']:.4f}/{val['size_known']:.4f}")
        if done or a.smoke:
            break
    net.load_state_dict({k: torch.from_numpy(v).to(dev) for k, v in np.load(weights).items()})
    metrics = {"tag": a.tag, "width": a.width, "parameters": params, "training_crops": n, "val_fold": a.val_fold,
               "best_val": best, "epochs_run": len(history), "steps": step, "history": history,
               "train_seconds": round(time.time() - train_started)}
    if test is not None:
        metrics["held_out_writers_report_only"] = {"size_unknown": accuracy(net, *test, True), "size_known": accuracy(net, *test, False)}
    json.dump(metrics, open(os.path.join(a.out, f"{a.tag}.json"), "w"), indent=1)
    log(a.tag, f"best val {best:.4f}; held-out (report only) {metrics.get('held_out_writers_report_only')}")
    try:
        export_onnx(net, os.path.join(a.out, f"{a.tag}.onnx"))
    except Exception as e:  # the npz is what matters; the export is redone with torch 1.13
        log(a.tag, f"onnx export failed: {e}")


if __name__ == "__main__":
    main()
