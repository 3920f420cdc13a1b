# Per-sample gradients with torch.func, as in the PyTorch tutorial: functional_call + grad,
# vmapped over the batch with in_dims=(None, None, 0, 0), checked against a Python loop, then
# DP-SGD-style clipping of each example's gradient norm.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = SimpleMLP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view(p.shape) * 0.5)

batch_size = 10
data = torch.cos(torch.arange(batch_size * 6, dtype=torch.float32).view(batch_size, 6) * 0.3)
targets = torch.arange(batch_size) % 3

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

for name, g in ft_per_sample_grads.items():
    print(name, tuple(g.shape), g.requires_grad)


def compute_grad(sample, target):
    loss = F.cross_entropy(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))


loop_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
loop_grads = [torch.stack(shards) for shards in zip(*loop_grads)]
for (name, g), ref in zip(ft_per_sample_grads.items(), loop_grads):
    print(name, "matches loop:", torch.allclose(g, ref, atol=1e-6))

print("fc2.bias grads:\n", ft_per_sample_grads["fc2.bias"].round(decimals=4))
print("mean over batch equals batch gradient:",
      torch.allclose(ft_per_sample_grads["fc1.weight"].mean(0),
                     torch.autograd.grad(F.cross_entropy(model(data), targets), model.fc1.weight)[0],
                     atol=1e-6))

# DP-SGD: clip every example's full gradient to norm <= C, then average
C = 0.5
flat = torch.cat([g.reshape(batch_size, -1) for g in ft_per_sample_grads.values()], dim=1)
norms = flat.norm(dim=1)
print("per-sample norms:", [f"{n:.4f}" for n in norms.tolist()])
factors = (C / (norms + 1e-6)).clamp(max=1.0)
clipped = {k: (g * factors.view(-1, *([1] * (g.dim() - 1)))).mean(0) for k, g in ft_per_sample_grads.items()}
print("clipped norms <= C:", bool(((flat * factors[:, None]).norm(dim=1) <= C + 1e-5).all()))
with torch.no_grad():
    for name, p in model.named_parameters():
        p -= 0.1 * clipped[name]
print(f"loss after one DP-SGD step: {F.cross_entropy(model(data), targets).item():.4f}")
