# Sampling by optimising the inputs themselves: x is a leaf handed to torch.optim.SGD/Adam, the
# energy's gradient lands in x.grad via backward(), clip_grad_norm_ / clip_grad_value_ act on
# [x] (per-sample step control), and noise is added in place under torch.no_grad().
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 12), nn.GELU(approximate="tanh"), nn.Linear(12, 12),
                                  nn.Softplus(beta=2.0), nn.Linear(12, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


model = Energy()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.57 + i).view_as(p))
model.requires_grad_(False)
print([p.requires_grad for p in model.parameters()][:2])

for opt_name in ["sgd", "adam"]:
    x = torch.stack([torch.linspace(-2, 2, 8), torch.linspace(1, -1, 8) ** 3], 1).requires_grad_(True)
    opt = torch.optim.SGD([x], lr=0.1, momentum=0.5) if opt_name == "sgd" else torch.optim.Adam([x], lr=0.05)
    for k in range(15):
        opt.zero_grad(set_to_none=(k % 2 == 0))
        e = model(x)
        e.sum().backward()
        if k == 0:
            print(opt_name, x.grad.shape, x.grad.norm().item() > 0, e.requires_grad)
        total = torch.nn.utils.clip_grad_norm_([x], max_norm=1.0)
        torch.nn.utils.clip_grad_value_([x], 0.3)
        opt.step()
        with torch.no_grad():
            x.add_(0.01 * torch.sin(torch.arange(16.0).view(8, 2) * (k + 1.3)))
            x.clamp_(-2.5, 2.5)
        if k % 5 == 4:
            print(opt_name, k, f"E={e.mean().item():.4f} |g|={total.item():.4f}")
    print(x.detach()[:3], x.is_leaf, x.grad.abs().max().item() <= 0.3)
    print(opt.state_dict()["param_groups"][0]["params"], sorted(opt.state[x].keys()))

# per-sample gradient normalisation instead of a global clip
x = torch.stack([torch.linspace(-1, 1, 5), torch.zeros(5)], 1).requires_grad_()
(g,) = torch.autograd.grad(model(x).sum(), x)
g_norm = g.norm(dim=1, keepdim=True).clamp_min(1e-6)
step = g / g_norm
print(g_norm.squeeze(1), step.norm(dim=1).round(decimals=4))
try:
    torch.nn.utils.clip_grad_norm_([x], 1.0, error_if_nonfinite=True)
    print("no grad on x:", x.grad)
except RuntimeError as e:
    print(type(e).__name__, e)
