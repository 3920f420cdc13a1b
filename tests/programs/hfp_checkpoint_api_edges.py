# Corners of torch.utils.checkpoint that HF modeling code hits: kwargs through use_reentrant=False,
# tuple outputs with None, checkpoint_sequential on an nn.Sequential, reentrant checkpoint whose
# inputs need no grad (warning + no grads), context_fn only allowed with use_reentrant=False.
import warnings
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Layer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, hidden_states, attention_mask=None, output_attentions=False):
        h = torch.tanh(self.lin(hidden_states))
        if attention_mask is not None:
            h = h * attention_mask[..., None]
        attn = h.softmax(-1) if output_attentions else None
        return h, attn, "extra"


def init(m, shift=0.0):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i + shift).view_as(p) * 0.5)


layer = Layer(4)
init(layer)
x = torch.linspace(-2, 2, 12).view(1, 3, 4).requires_grad_()
mask = torch.tensor([[1.0, 1.0, 0.0]])

h, attn, tag = checkpoint(layer, x, attention_mask=mask, output_attentions=False, use_reentrant=False)
print(type(h.grad_fn).__name__ if h.grad_fn else None, attn, tag)
h.sum().backward()
g_ckpt = x.grad.clone()
x.grad = None
h2, _, _ = layer(x, attention_mask=mask)
h2.sum().backward()
print("grads equal:", torch.allclose(g_ckpt, x.grad), torch.round(x.grad[0, 2], decimals=4))

try:
    checkpoint(layer, x, attention_mask=mask, use_reentrant=True)
except ValueError as e:
    print("ValueError:", e)

try:
    checkpoint(layer, x, use_reentrant=True, context_fn=lambda: (torch.no_grad(), torch.no_grad()))
except ValueError as e:
    print("ValueError:", e)

# reentrant with inputs that do not require grad: parameters get no gradient
layer.zero_grad()
plain = torch.ones(1, 3, 4)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out = checkpoint(lambda t: layer(t)[0], plain, use_reentrant=True)
    print([str(m.message) for m in w])
print("requires_grad:", out.requires_grad)
out_nr = checkpoint(lambda t: layer(t)[0], plain, use_reentrant=False)
print("non-reentrant requires_grad:", out_nr.requires_grad)
out_nr.sum().backward()
print("param grad:", torch.round(layer.lin.bias.grad, decimals=4))

seq = nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.GELU()) for _ in range(4)])
init(seq, 1.0)
inp = torch.linspace(0, 1, 8).view(2, 4).requires_grad_()
y = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
y.pow(2).mean().backward()
gs = [p.grad.norm().item() for p in seq.parameters()]
seq.zero_grad()
gi = inp.grad.clone()
inp.grad = None
seq(inp).pow(2).mean().backward()
print("sequential equal:", all(abs(a - p.grad.norm().item()) < 1e-6 for a, p in zip(gs, seq.parameters())),
      torch.allclose(gi, inp.grad))
print([f"{g:.5f}" for g in gs[:4]])

calls = []
def counted(t):
    calls.append(1)
    return (t * 2).sin()
z = torch.tensor([0.5, 1.0], requires_grad=True)
r = checkpoint(counted, z, use_reentrant=False)
print("calls after forward:", len(calls))
r.sum().backward()
print("calls after backward:", len(calls), z.grad)
