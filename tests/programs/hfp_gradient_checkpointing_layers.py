# transformers-style gradient_checkpointing_enable(): each layer is run through
# torch.utils.checkpoint.checkpoint(..., use_reentrant=False) when self.training, with
# functools.partial for keyword args; grads must match the non-checkpointed model, and the
# "use_cache=True is incompatible with gradient checkpointing" warning path is taken.
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.dropout = nn.Dropout(0.0)

    def forward(self, x, scale=1.0, output_attentions=False):
        h = self.fc2(F.gelu(self.fc1(self.norm(x))))
        return (x + scale * self.dropout(h), h.mean() if output_attentions else None)


class Encoder(nn.Module):
    supports_gradient_checkpointing = True

    def __init__(self, d=8, n=3):
        super().__init__()
        self.layer = nn.ModuleList([Block(d) for _ in range(n)])
        self.gradient_checkpointing = False
        self._gradient_checkpointing_func = None

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        if gradient_checkpointing_kwargs is None:
            gradient_checkpointing_kwargs = {"use_reentrant": True}
        self._gradient_checkpointing_func = functools.partial(checkpoint, **gradient_checkpointing_kwargs)
        self.gradient_checkpointing = True

    def forward(self, x, use_cache=True, output_attentions=True):
        if self.gradient_checkpointing and self.training and use_cache:
            print("`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`.")
            use_cache = False
        extras = []
        for layer in self.layer:
            if self.gradient_checkpointing and self.training:
                out = self._gradient_checkpointing_func(layer.__call__, x, 0.5, output_attentions)
            else:
                out = layer(x, 0.5, output_attentions)
            x = out[0]
            extras.append(out[1])
        return x, extras


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.4)


x = torch.linspace(-1, 1, 2 * 4 * 8).view(2, 4, 8)
target = torch.sin(x * 3)

plain, ckpt = Encoder(), Encoder()
init(plain)
init(ckpt)
ckpt.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
print("gc flag:", ckpt.gradient_checkpointing, ckpt._gradient_checkpointing_func.keywords)

y1, e1 = plain(x)
y2, e2 = ckpt(x)
print("same forward:", torch.allclose(y1, y2))
print("grad_fn:", type(y2.grad_fn).__name__, [f"{t.item():.4f}" for t in e2])
F.mse_loss(y1, target).backward()
F.mse_loss(y2, target).backward()
for (n, p1), p2 in zip(plain.named_parameters(), ckpt.parameters()):
    if n.startswith("layer.0") or n.startswith("layer.2.fc2"):
        print(n, torch.allclose(p1.grad, p2.grad, atol=1e-6), f"{p2.grad.abs().sum().item():.5f}")

# input that requires grad (like enable_input_require_grads for PEFT)
xin = x.clone().requires_grad_(True)
ckpt.zero_grad()
out, _ = ckpt(xin, use_cache=False)
out.pow(2).sum().backward()
print("input grad:", tuple(xin.grad.shape), f"{xin.grad.norm().item():.4f}")

ckpt.eval()
with torch.no_grad():
    y3, _ = ckpt(x)
print("eval no checkpoint, requires_grad:", y3.requires_grad, torch.allclose(y3, y1))

opt = torch.optim.SGD(ckpt.parameters(), lr=0.1, momentum=0.9)
ckpt.train()
for step in range(8):
    opt.zero_grad()
    y, _ = ckpt(x, use_cache=False)
    loss = F.mse_loss(y, target)
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, f"{loss.item():.5f}")
