"""A random affine warp of resampled pen trajectories (points [N,32,5]: x, y in the symbol's box,
direction cos/sin, pen-up), vectorised over a batch: rotation, shear and anisotropic scale on 3 of 4
samples, directions mapped by the same matrix, the box re-normalised, aspect and height features
moved to match, small point noise. Used by train.py (on a GPU) and strokes-real-train.py (CPU)."""
import torch


def augment(pts, feats, strength=1.0):
    """Random affine of the normalised trajectory, vectorised over the batch."""
    n = pts.shape[0]
    g = lambda s: (torch.rand(n, device=pts.device) * 2 - 1) * s * strength
    rot, shear, sx, sy = g(0.14), g(0.2), torch.exp(g(0.18)), torch.exp(g(0.18))
    c, s = torch.cos(rot), torch.sin(rot)
    # A = R(rot) @ Shear @ diag(sx, sy)
    a11, a12 = c * sx, (c * shear - s) * sy
    a21, a22 = s * sx, (s * shear + c) * sy
    apply = torch.rand(n, device=pts.device) < 0.75
    one, zero = torch.ones_like(c), torch.zeros_like(c)
    a11, a12 = torch.where(apply, a11, one), torch.where(apply, a12, zero)
    a21, a22 = torch.where(apply, a21, zero), torch.where(apply, a22, one)
    x, y = pts[:, :, 0], pts[:, :, 1]
    w0 = (x.max(1).values - x.min(1).values).clamp_min(0.04)
    h0 = (y.max(1).values - y.min(1).values).clamp_min(0.04)
    nx = a11[:, None] * x + a12[:, None] * y
    ny = a21[:, None] * x + a22[:, None] * y
    nx = nx + torch.randn_like(nx) * 0.006 * strength
    ny = ny + torch.randn_like(ny) * 0.006 * strength
    x0, x1 = nx.min(1).values, nx.max(1).values
    y0, y1 = ny.min(1).values, ny.max(1).values
    w1, h1 = (x1 - x0).clamp_min(0.04), (y1 - y0).clamp_min(0.04)
    scale = 1 / torch.maximum(x1 - x0, y1 - y0).clamp_min(1e-6)
    nx = (nx - (x0 + x1)[:, None] / 2) * scale[:, None]
    ny = (ny - (y0 + y1)[:, None] / 2) * scale[:, None]
    dx, dy = pts[:, :, 2], pts[:, :, 3]
    ndx = a11[:, None] * dx + a12[:, None] * dy
    ndy = a21[:, None] * dx + a22[:, None] * dy
    norm = torch.sqrt(ndx * ndx + ndy * ndy)
    nonzero = norm > 1e-6
    ndx = torch.where(nonzero, ndx / norm.clamp_min(1e-6), ndx)
    ndy = torch.where(nonzero, ndy / norm.clamp_min(1e-6), ndy)
    out = torch.stack([nx, ny, ndx, ndy, pts[:, :, 4]], 2)
    f = feats.clone()
    f[:, 0] = (f[:, 0] + (torch.log2(w1 / w0) - torch.log2(h1 / h0)) / 4).clamp(-1.5, 1.5)
    f[:, 1] = (f[:, 1] * (h1 / h0).clamp(0.7, 1.45)).clamp(0, 3)
    return out, f
