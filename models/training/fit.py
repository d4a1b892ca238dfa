"""The training loop Folio's classifiers share: AdamW with a one-cycle learning rate, shuffled
mini-batches, one line of progress per epoch. Each trainer supplies its network and a `step`
that turns a batch's sample indices into (loss, number of correct predictions)."""
import time

import torch


def fit(net, count, epochs, batch, step, lr=3e-3):
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = max(1, epochs * ((count + batch - 1) // batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.2)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(count)
        started, seen, correct = time.time(), 0, 0
        for i in range(0, count, batch):
            idx = order[i:i + batch]
            loss, right = step(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(idx)
            correct += right
        print(f"  epoch {epoch + 1}/{epochs}: train accuracy {correct / seen:.4f}, {time.time() - started:.0f} s", flush=True)
    net.eval()
    return net
