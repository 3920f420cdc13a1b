# timm checkpoint_seq: activation checkpointing over chunks of blocks that contain DropPath
# (random per-sample masks). With preserve_rng_state the recomputed masks equal the forward's, so
# gradients match a plain run from the same seed; checkpoint_sequential and use_reentrant=False.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


def drop_path(x, drop_prob=0.0, training=False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = keep_prob + torch.rand(shape, dtype=x.dtype, device=x.device)
    random_tensor.floor_()
    return x.div(keep_prob) * random_tensor


class Block(nn.Module):
    def __init__(self, dim, dp):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.dp = dp

    def forward(self, x):
        return x + drop_path(torch.tanh(self.fc(x)), self.dp, self.training)


def checkpoint_seq(functions, x, every=1, flatten=False, skip_last=False, preserve_rng_state=True):
    def run_function(start, end, functions):
        def forward(_x):
            for j in range(start, end + 1):
                _x = functions[j](_x)
            return _x
        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = functions.children()
    if flatten:
        functions = torch.nn.Sequential(*functions)
    functions = list(functions)
    num_checkpointed = len(functions)
    if skip_last:
        num_checkpointed -= 1
    end = -1
    for start in range(0, num_checkpointed, every):
        end = min(start + every - 1, num_checkpointed - 1)
        x = checkpoint(run_function(start, end, functions), x, use_reentrant=False,
                       preserve_rng_state=preserve_rng_state)
    if skip_last:
        return run_function(end + 1, len(functions) - 1, functions)(x)
    return x


dpr = torch.linspace(0, 0.5, 6).tolist()
blocks = nn.Sequential(*[Block(5, d) for d in dpr])
with torch.no_grad():
    for i, p in enumerate(blocks.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).reshape(p.shape) * 0.4)
x = torch.cos(torch.arange(16 * 5, dtype=torch.float32) * 0.3).reshape(16, 5)


def grads(run):
    blocks.zero_grad()
    torch.manual_seed(123)
    out = run(x)
    out.pow(2).sum().backward()
    return out.detach(), [p.grad.clone() for p in blocks.parameters()]


blocks.train()
ref_out, ref_g = grads(blocks)
for every, skip_last in [(1, False), (2, False), (4, True), (6, False)]:
    out, g = grads(lambda inp: checkpoint_seq(blocks, inp, every=every, skip_last=skip_last))
    print(every, skip_last, torch.allclose(out, ref_out, atol=1e-6),
          all(torch.allclose(a, b, atol=1e-5) for a, b in zip(g, ref_g)))
out, g = grads(lambda inp: checkpoint_sequential(blocks, 3, inp, use_reentrant=False))
print("sequential", torch.allclose(out, ref_out, atol=1e-6), all(torch.allclose(a, b, atol=1e-5) for a, b in zip(g, ref_g)))

blocks.eval()
e_out, e_g = grads(blocks)
c_out, c_g = grads(lambda inp: checkpoint_seq(blocks, inp, every=2, preserve_rng_state=False))
print(torch.allclose(e_out, c_out, atol=1e-6), e_out[0])
print([f"{t.norm().item():.5f}" for t in e_g[:4]])

torch.manual_seed(0)
mask = 0.7 + torch.rand(1000, 1)
mask.floor_()
print(mask.unique().tolist(), 500 < int(mask.sum()) < 900)
y = checkpoint(lambda t: t.sin() * 2, x.requires_grad_(), use_reentrant=False)
print(y.grad_fn is not None, y.requires_grad)
