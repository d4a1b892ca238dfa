"""A small Latin text-line recogniser distilled from text-recognition-cpu-latin (the teacher).

Offline only. Same input and output as the teacher, so it can stand in for it with no change to
worker/engine/text: [N, 3, 48, W] BGR planes normalised as (v / 255 - 0.5) / 0.5, W a multiple
of 8, zero padding on the right; out [N, W / 8, 224] softmax over the Latin classes (CTC blank,
the 222 characters of models/text-recognition-cpu-latin.txt in order, the space).

The student is a MobileNet-like stack of depthwise-separable convolutions (stride 8 in width, 48
in height) and a head of dilated depthwise convolutions along the line, about a tenth of the
teacher's multiply-adds. Loss: per CTC step, cross-entropy to the teacher's top-K classes
(renormalised) plus CTC on the text. Data: text-rec-student-data.ts (TeX Live documentation
lines, the teacher's top-K per step), read by pack().

  python3 text_rec_student.py train DATA_DIR OUT_DIR      (SMOKE=1: a few steps on the CPU)
  python3 text_rec_student.py export WEIGHTS.npz OUT.onnx  (torch 1.13 here, as shipped)
  python3 text_rec_student.py pack SRC_DIR DATA_DIR [max crops]   (text-rec-student-data.ts's output -> data.npz)
"""
import io
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = 224
HEIGHT = 48
STEP = 8
NAME = os.environ.get('NAME', 'textrec18')


def log(msg):
    print(f'[{NAME}] {msg}', flush=True)


class SepConv(nn.Module):
    """Depthwise k×k (stride s) + BN + hard-swish, then pointwise + BN + hard-swish."""

    def __init__(self, cin, cout, stride=1, k=3):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, k, stride, k // 2, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        y = F.hardswish(self.bn1(self.dw(x)))
        y = F.hardswish(self.bn2(self.pw(y)))
        return x + y if self.res else y


class SeqBlock(nn.Module):
    """Along the line: depthwise 1×k (dilated) + pointwise, residual."""

    def __init__(self, c, dilation):
        super().__init__()
        self.dw = nn.Conv2d(c, c, (1, 5), 1, (0, 2 * dilation), dilation=(1, dilation), groups=c, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.pw = nn.Conv2d(c, c, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.hardswish(self.bn1(self.dw(x)))
        return x + F.hardswish(self.bn2(self.pw(y)))


class Student(nn.Module):
    def __init__(self, width=1.0):
        super().__init__()
        c = [int(round(v * width)) for v in (16, 32, 48, 64, 96, 128, 160)]
        self.stem = nn.Sequential(nn.Conv2d(3, c[0], 3, 2, 1, bias=False), nn.BatchNorm2d(c[0]), nn.Hardswish())
        self.body = nn.Sequential(
            SepConv(c[0], c[1]),  # 24 x W/2
            SepConv(c[1], c[2], 2),  # 12 x W/4
            SepConv(c[2], c[3]),
            SepConv(c[3], c[4], 2),  # 6 x W/8
            SepConv(c[4], c[4], 1, 5),
            SepConv(c[4], c[5], (2, 1)),  # 3 x W/8
            SepConv(c[5], c[5], 1, 5),
        )
        self.collapse = nn.Sequential(nn.Conv2d(c[5], c[6], (3, 1), bias=False), nn.BatchNorm2d(c[6]), nn.Hardswish())  # 1 x W/8
        self.seq = nn.Sequential(SeqBlock(c[6], 1), SeqBlock(c[6], 2), SeqBlock(c[6], 4))
        self.fc = nn.Conv2d(c[6], CLASSES, 1)

    def logits(self, x):
        x = self.collapse(self.body(self.stem(x)))
        x = self.fc(self.seq(x))  # N, C, 1, T
        return x.squeeze(2).transpose(1, 2)  # N, T, C

    def forward(self, x):
        return F.softmax(self.logits(x), dim=2)


# ---------------------------------------------------------------- data


def pack(src, dst, limit=None):
    """text-rec-student-data.ts's output -> one npz: WebP bytes, widths, labels, teacher top-K."""
    rows = [json.loads(l) for l in open(os.path.join(src, 'index.jsonl'), encoding='utf8') if l.strip()]
    if limit:
        rows = rows[: int(limit)]
    dictionary = [c for c in open(os.path.join(os.path.dirname(__file__), '..', 'text-recognition-cpu-latin.txt'), encoding='utf8').read().split('\n') if c]
    index = {ch: i + 1 for i, ch in enumerate(dictionary)}
    index[' '] = CLASSES - 1
    n = len(rows)
    blob = np.fromfile(os.path.join(src, 'crops.bin'), dtype=np.uint8)
    topk = np.fromfile(os.path.join(src, 'topk.bin'), dtype=np.uint8)
    steps = np.array([math.ceil(max(64, r['width']) / STEP) for r in rows], dtype=np.int32)
    k = 4
    need = int(steps.sum()) * 2 * k
    topk = topk[:need].reshape(-1, 2 * k)
    labels = [np.array([index[ch] for ch in r['text']], dtype=np.uint8) for r in rows]
    # Crops the teacher reads less than half right: mostly a lone full stop or bullet cut out of
    # its line, which the detector never boxes alone, or a wrong text layer.
    keep, frames, at = [], [], 0
    for i, r in enumerate(rows):
        ids = topk[at : at + steps[i], 0]
        at += steps[i]
        read = [int(c) for j, c in enumerate(ids) if c != 0 and (j == 0 or c != ids[j - 1])]
        if edit(read, labels[i].tolist()) <= 0.5 * len(labels[i]):
            keep.append(i)
            frames.append(topk[at - steps[i] : at])
    log(f'{n - len(keep)} of {n} crops dropped: the teacher reads them less than half right')
    starts = np.concatenate([[0], np.cumsum([r['bytes'] for r in rows])])
    blob = np.concatenate([blob[starts[i] : starts[i + 1]] for i in keep])
    topk = np.concatenate(frames)
    rows = [rows[i] for i in keep]
    labels = [labels[i] for i in keep]
    steps = steps[keep]
    n = len(rows)
    byte_len = np.array([r['bytes'] for r in rows], dtype=np.int64)
    np.savez_compressed(
        os.path.join(dst, 'data.npz'),
        webp=blob[: int(byte_len.sum())],
        byte_len=byte_len.astype(np.int32),
        stored=np.array([r['stored'] for r in rows], dtype=np.int16),
        width=np.array([r['width'] for r in rows], dtype=np.int16),
        noisy=np.array([r['noisy'] for r in rows], dtype=np.uint8),
        doc=np.array([r.get('doc', -1) for r in rows], dtype=np.int32),
        label=np.concatenate(labels),
        label_len=np.array([len(l) for l in labels], dtype=np.int16),
        topk_ids=topk[:, :k],
        topk_p=topk[:, k:],
        steps=steps.astype(np.int16),
    )
    log(f'packed {n} crops, {int(steps.sum())} steps')


def load(data_dir, device, limit=None):
    from PIL import Image

    with np.load(os.path.join(data_dir, 'data.npz')) as npz:
        z = {k: npz[k] for k in npz.files}  # each npz[k] decompresses anew
    n = len(z['width']) if not limit else min(limit, len(z['width']))
    width = z['width'][:n].astype(np.int64)
    maxw = int(math.ceil(max(64, width.max()) / STEP) * STEP)
    images = np.zeros((n, HEIGHT, maxw), dtype=np.uint8)
    offsets = np.concatenate([[0], np.cumsum(z['byte_len'].astype(np.int64))])
    blob = z['webp']
    for i in range(n):
        img = Image.open(io.BytesIO(blob[offsets[i] : offsets[i + 1]].tobytes())).convert('L')
        img = img.resize((int(width[i]), HEIGHT), Image.LANCZOS)
        images[i, :, : width[i]] = np.asarray(img)
    steps = z['steps'][:n].astype(np.int64)
    maxt = maxw // STEP
    so = np.concatenate([[0], np.cumsum(z['steps'].astype(np.int64))])
    k = z['topk_ids'].shape[1]
    tids = np.zeros((n, maxt, k), dtype=np.int64)
    tp = np.zeros((n, maxt, k), dtype=np.float32)
    for i in range(n):
        tids[i, : steps[i]] = z['topk_ids'][so[i] : so[i + 1]]
        tp[i, : steps[i]] = z['topk_p'][so[i] : so[i + 1]] / 255.0
    tp /= np.maximum(tp.sum(2, keepdims=True), 1e-6)
    lo = np.concatenate([[0], np.cumsum(z['label_len'].astype(np.int64))])
    labels = [z['label'][lo[i] : lo[i + 1]].astype(np.int64) for i in range(n)]
    return {
        'images': torch.from_numpy(images).to(device),
        'width': torch.from_numpy(width).to(device),
        'steps': torch.from_numpy(steps).to(device),
        'tids': torch.from_numpy(tids).to(device),
        'tp': torch.from_numpy(tp).to(device),
        'labels': labels,
        'width_np': width,
        'doc': z['doc'][:n] if 'doc' in z else None,
        'steps_np': steps,
    }


def batches(width, idx, size, rng):
    """Index lists of crops of similar width, each about `size` crops × 400 columns or fewer."""
    order = idx[np.argsort(width[idx] + rng.uniform(0, 40, len(idx)))]
    out, cur = [], []
    for i in order:
        cur.append(i)
        if len(cur) * max(320, width[i]) >= size * 400:
            out.append(np.array(cur))
            cur = []
    if cur:
        out.append(np.array(cur))
    rng.shuffle(out)
    return out


def make_input(d, b, augment, gen):
    """Normalised [B, 3, 48, Wb] and the crops' steps; augmentation on the device."""
    device = d['images'].device
    bt = torch.from_numpy(b).to(device)
    wb = int(math.ceil(max(64, int(d['width_np'][b].max())) / STEP) * STEP)
    x = d['images'][bt, :, :wb].float().div(255).unsqueeze(1)  # B,1,48,Wb
    cols = torch.arange(wb, device=device)
    inside = (cols[None, :] < d['width'][bt][:, None]).float()[:, None, None, :]  # B,1,1,Wb
    if augment:
        B = x.shape[0]
        r = lambda *s: torch.rand(*s, device=device)
        # vertical scale and shift only (the teacher's steps stay aligned)
        sy = 1 + (r(B) - 0.5) * 0.16
        ty = (r(B) - 0.5) * 0.12
        theta = torch.zeros(B, 2, 3, device=device)
        theta[:, 0, 0] = 1
        theta[:, 1, 1] = sy
        theta[:, 1, 2] = ty
        grid = F.affine_grid(theta, list(x.shape), align_corners=False)
        x = F.grid_sample(x - 1, grid, mode='bilinear', padding_mode='zeros', align_corners=False) + 1
        # blur for some, sharpen none
        sigma = float(r(1)) * 1.2
        if sigma > 0.3:
            k = torch.arange(-2, 3, device=device).float()
            k = torch.exp(-(k**2) / (2 * sigma**2))
            k = k / k.sum()
            blurred = F.conv2d(F.pad(x, (2, 2, 2, 2), mode='replicate'), (k[:, None] * k[None, :])[None, None])
            m = (r(B) < 0.5).float()[:, None, None, None]
            x = m * blurred + (1 - m) * x
        # contrast and brightness
        c = 0.6 + r(B, 1, 1, 1) * 0.5
        bright = (r(B, 1, 1, 1) - 0.5) * 0.2
        x = (x - 0.5) * c + 0.5 + bright
        # sensor noise, partly at a coarser grain as after enlarging a low-dpi scan
        amp = r(B, 1, 1, 1) * 0.1 * (r(B, 1, 1, 1) < 0.6).float()
        fine = torch.randn_like(x)
        coarse = F.interpolate(torch.randn(x.shape[0], 1, HEIGHT // 2, wb // 2, device=device), size=(HEIGHT, wb), mode='bilinear', align_corners=False)
        mix = r(B, 1, 1, 1)
        x = x + amp * (mix * fine + (1 - mix) * coarse * 1.5)
        # dust
        x = torch.where(r(*x.shape) < 0.001, x - 0.5, x)
        x = x.clamp(0, 1)
    x = (x - 0.5) / 0.5 * inside
    x = x.expand(-1, 3, -1, -1)
    # channels-last: oneDNN's depthwise convolutions on the CPU take about half the time
    return x.contiguous(memory_format=torch.channels_last if device.type == 'cpu' else torch.contiguous_format), bt


def losses(model, d, b, augment, gen, use_amp):
    x, bt = make_input(d, b, augment, gen)
    device = x.device
    if use_amp:
        with torch.autocast('cuda', dtype=torch.bfloat16):
            logits = model.logits(x)
    else:
        logits = model.logits(x)
    logp = F.log_softmax(logits.float(), dim=2)  # B,T,C
    T = logp.shape[1]
    steps = d['steps'][bt].clamp(max=T)
    mask = (torch.arange(T, device=device)[None, :] < steps[:, None]).float()
    tids = d['tids'][bt, :T]
    tp = d['tp'][bt, :T]
    kd = -(tp * logp.gather(2, tids)).sum(2)
    kd = (kd * mask).sum() / mask.sum()
    labels = [d['labels'][i] for i in b]
    target = torch.from_numpy(np.concatenate(labels)).to(device)
    tl = torch.tensor([len(l) for l in labels], device=device)
    ctc = F.ctc_loss(logp.transpose(0, 1), target, steps, tl, blank=0, reduction='mean', zero_infinity=True)
    return kd, ctc, logp


def greedy(logp_row, steps):
    ids = logp_row[:steps].argmax(1).tolist()
    out, prev = [], 0
    for i in ids:
        if i != prev and i != 0:
            out.append(i)
        prev = i
    return out


def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def evaluate(model, d, idx, use_amp):
    model.eval()
    errs = chars = agree = terrs = 0
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for b in batches(d['width_np'], idx, 64, rng):
            _, _, logp = losses(model, d, b, False, None, use_amp)
            for n, i in enumerate(b):
                got = greedy(logp[n], int(d['steps_np'][i]))
                want = d['labels'][i].tolist()
                teacher = greedy(torch.log(torch.zeros(int(d['steps_np'][i]), CLASSES, device=logp.device).scatter_(1, d['tids'][i, : d['steps_np'][i], :1], 1.0) + 1e-9), int(d['steps_np'][i]))
                errs += edit(got, want)
                terrs += edit(teacher, want)
                chars += len(want)
                agree += got == teacher
    model.train()
    return {'cer': errs / max(1, chars), 'teacher_cer': terrs / max(1, chars), 'agree_teacher': agree / max(1, len(idx)), 'crops': int(len(idx))}


def save_npz(model, path):
    sd = {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items() if v.dtype.is_floating_point}
    np.savez(path + '.tmp.npz', **sd)
    os.replace(path + '.tmp.npz', path)


def train(data_dir, out_dir):
    smoke = os.environ.get('SMOKE') == '1'
    torch.set_num_threads(int(os.environ.get('THREADS', '4')))
    torch.manual_seed(18)
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    use_amp = device == 'cuda'
    budget = float(os.environ.get('TRAIN_SECONDS', '360'))
    t0 = time.time()
    d = load(data_dir, device, 300 if smoke else None)
    n = len(d['width_np'])
    rng = np.random.default_rng(18)
    if d['doc'] is not None and (d['doc'] >= 0).all():
        # held out by document: crops of one PDF share its fonts and often its words
        docs = rng.permutation(np.unique(d['doc']))
        held = np.isin(d['doc'], docs[: max(1, len(docs) // 30)])
        val, tr = np.flatnonzero(held), np.flatnonzero(~held)
    else:
        perm = rng.permutation(n)
        val = np.sort(perm[: max(8, n // 30)])
        tr = np.sort(perm[max(8, n // 30) :])
    log(f'{n} crops loaded in {time.time() - t0:.0f}s on {device}; {len(val)} held out')
    model = Student(float(os.environ.get('WIDTH', '1.0')))
    if os.environ.get('INIT'):
        load_npz(model, os.environ['INIT'])  # go on from an earlier run's weights
        log(f"started from {os.environ['INIT']}")
    model = model.to(device)
    if device == 'cpu':
        model = model.to(memory_format=torch.channels_last)
    log(f'{sum(p.numel() for p in model.parameters()) / 1e6:.2f} M parameters')
    peak = float(os.environ.get('LR', '3e-3'))  # lower when going on from INIT
    warmup = int(os.environ.get('WARMUP', '300'))
    snapshot = float(os.environ.get('SNAPSHOT_SECONDS', '0'))  # keep student-<step>.npz this often
    opt = torch.optim.AdamW(model.parameters(), lr=peak, weight_decay=1e-4)
    batch = 8 if smoke else int(os.environ.get('BATCH', '160'))
    max_steps = 6 if smoke else 10**9
    step, last_save, last_log, last_snapshot = 0, time.time(), time.time(), time.time()
    start = time.time()
    done = False
    epoch = 0
    while not done:
        for b in batches(d['width_np'], tr, batch, rng):
            frac = min(1.0, (time.time() - start) / budget)
            lr = peak * min(1.0, (step + 1) / warmup) * (0.5 * (1 + math.cos(math.pi * frac)) * 0.97 + 0.03)
            for g in opt.param_groups:
                g['lr'] = lr
            kd, ctc, _ = losses(model, d, b, True, None, use_amp)
            loss = kd + 0.3 * ctc
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            step += 1
            if time.time() - last_log > 20 or smoke:
                log(f'step {step} epoch {epoch} kd {kd.item():.3f} ctc {ctc.item():.3f} lr {lr:.2e} t {time.time() - start:.0f}s')
                last_log = time.time()
            if time.time() - last_save > 45:
                save_npz(model, os.path.join(out_dir, 'student.npz'))
                last_save = time.time()
            if snapshot and time.time() - last_snapshot > snapshot:
                save_npz(model, os.path.join(out_dir, f'student-{step}.npz'))
                last_snapshot = time.time()
            if step >= max_steps or time.time() - start > budget:
                done = True
                break
        epoch += 1
    save_npz(model, os.path.join(out_dir, 'student.npz'))
    metrics = {'steps': step, 'epochs': epoch, 'seconds': time.time() - start, 'train_crops': int(len(tr))}
    metrics.update(evaluate(model, d, val, use_amp))
    log(f'done: {json.dumps(metrics)}')
    json.dump(metrics, open(os.path.join(out_dir, 'metrics.json'), 'w'), indent=1)


def load_npz(model, weights):
    z = np.load(weights)
    sd = model.state_dict()
    for k in sd:
        if k in z.files:
            sd[k] = torch.from_numpy(z[k]).to(sd[k].dtype)
    model.load_state_dict(sd)


def export(weights, out, width=None):
    model = Student(float(width or os.environ.get('WIDTH', '1.0')))
    load_npz(model, weights)
    model.eval()
    x = torch.zeros(1, 3, HEIGHT, 320)
    kwargs = dict(input_names=['x'], output_names=['softmax'], dynamic_axes={'x': {0: 'n', 3: 'w'}, 'softmax': {0: 'n', 1: 't'}}, opset_version=14)
    try:
        torch.onnx.export(model, x, out, dynamo=False, **kwargs)
    except TypeError:
        torch.onnx.export(model, x, out, **kwargs)
    log(f'exported {out}')


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'train':
        train(sys.argv[2], sys.argv[3])
    elif cmd == 'export':
        export(sys.argv[2], sys.argv[3])
    elif cmd == 'pack':
        pack(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        raise SystemExit(__doc__)
