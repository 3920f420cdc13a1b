# BinaryConnect / XNOR-style binarized weights trained with a straight-through
# estimator (custom autograd.Function with gradient clipping at |w| > 1).
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w):
        ctx.save_for_backward(w)
        return torch.where(w >= 0, torch.ones_like(w), -torch.ones_like(w))

    @staticmethod
    def backward(ctx, grad_out):
        (w,) = ctx.saved_tensors
        return grad_out * (w.abs() <= 1).to(grad_out.dtype)


class BinaryLinear(nn.Linear):
    def forward(self, x):
        alpha = self.weight.abs().mean(dim=1, keepdim=True)  # XNOR-Net scaling
        wb = BinarizeSTE.apply(self.weight) * alpha
        return F.linear(x, wb, self.bias)


model = nn.Sequential(BinaryLinear(5, 8), nn.Hardtanh(), BinaryLinear(8, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + 0.5 * i).reshape(p.shape) * 1.2)

x = torch.cos(torch.arange(60, dtype=torch.float32) * 0.45).reshape(12, 5)
y = torch.arange(12) % 3

w = model[0].weight
out = BinarizeSTE.apply(w)
print(out[0], out.grad_fn.__class__.__name__)
out.sum().backward()
print(w.grad[0])
print("clipped grads:", int((w.grad == 0).sum()), "where |w|>1:", int((w.abs() > 1).sum()))
model.zero_grad(set_to_none=True)

opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(25):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for m in model:
            if isinstance(m, BinaryLinear):
                m.weight.clamp_(-1, 1)  # keep latent weights in range
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    wb = torch.sign(model[0].weight)
    print("unique binary values:", torch.unique(wb).tolist())
    print("sign counts:", (wb > 0).sum().item(), (wb < 0).sum().item())
    print("latent range:", f"{model[0].weight.min().item():.3f}", f"{model[0].weight.max().item():.3f}")
bits_fp = sum(p.numel() * p.element_size() * 8 for p in model.parameters())
bits_bin = sum(m.weight.numel() + m.bias.numel() * 32 for m in model if isinstance(m, BinaryLinear))
print(f"float32 size {bits_fp / 8:.0f} bytes, binarized {bits_bin / 8:.1f} bytes, ratio {bits_fp / bits_bin:.2f}x")
# gradcheck of the STE backward against its own definition (not the true gradient)
t = torch.tensor([-1.5, -0.5, 0.0, 0.5, 1.5], requires_grad=True)
BinarizeSTE.apply(t).backward(torch.arange(5.0))
print(t.grad)
