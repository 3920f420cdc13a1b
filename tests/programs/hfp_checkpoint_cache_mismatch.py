# Why HF forces use_cache=False under gradient checkpointing: a layer that appends to a KV cache
# during forward sees a longer cache when checkpoint recomputes it, and non-reentrant checkpoint
# raises CheckpointError; set_checkpoint_early_stop decides whether extra recomputed saves are an error.
import torch
import torch.nn as nn
from torch.utils.checkpoint import CheckpointError, checkpoint, set_checkpoint_early_stop


class CachedAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.kv = nn.Linear(d, d, bias=False)
        with torch.no_grad():
            self.kv.weight.copy_(torch.sin(torch.arange(d * d, dtype=torch.float32)).view(d, d) * 0.5)
        self.cache = []

    def forward(self, x, use_cache):
        k = self.kv(x)
        if use_cache:
            self.cache.append(k.detach())
            k = torch.cat(self.cache, dim=1)
        scores = x @ k.transpose(-1, -2)
        return scores.softmax(-1) @ k


layer = CachedAttention(4)
x = torch.linspace(-1, 1, 12).view(1, 3, 4).requires_grad_()


def run(use_cache, **kw):
    layer.cache.clear()
    x.grad = None
    out = checkpoint(layer, x, use_cache, use_reentrant=False, **kw)
    try:
        out.sum().backward()
        print("ok", tuple(out.shape), f"{x.grad.abs().sum().item():.5f}")
    except CheckpointError as e:
        lines = str(e).splitlines()
        print(type(e).__name__, isinstance(e, RuntimeError))
        print(lines[0])


run(use_cache=False)
run(use_cache=True)


class Extra(nn.Module):
    """Saves one more tensor on the second call (a data-dependent branch flipping)."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, t):
        self.calls += 1
        y = t.exp()
        if self.calls > 1:
            y = y * t.sin()
        return y


for early in (True, False):
    extra = Extra()
    z = torch.tensor([0.1, 0.2], requires_grad=True)
    with set_checkpoint_early_stop(early):
        out = checkpoint(extra, z, use_reentrant=False)
    try:
        out.sum().backward()
        print("early_stop", early, "grad", z.grad)
    except CheckpointError as e:
        print("early_stop", early, str(e).splitlines()[0])
