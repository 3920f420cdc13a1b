# Task-conditioned weights with torch.nn.utils.parametrize: a shared linear layer whose weight is
# reparametrized as W + A_t B_t (a low-rank adapter per task, switched by an attribute), with
# weight_norm on the head, cached parametrizations, state_dict keys and per-task gradient norms.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm


class LowRankAdapter(nn.Module):
    def __init__(self, out_f, in_f, n_tasks, rank=2):
        super().__init__()
        self.A = nn.Parameter(0.1 * torch.cos(torch.arange(n_tasks * out_f * rank, dtype=torch.float32)).view(n_tasks, out_f, rank))
        self.B = nn.Parameter(0.1 * torch.sin(torch.arange(n_tasks * rank * in_f, dtype=torch.float32)).view(n_tasks, rank, in_f))
        self.task = 0

    def forward(self, W):
        return W + self.A[self.task] @ self.B[self.task]


shared = nn.Linear(3, 5)
head = nn.Linear(5, 1)
with torch.no_grad():
    shared.weight.copy_(torch.linspace(-0.5, 0.5, 15).view(5, 3))
    shared.bias.fill_(0.05)
    head.weight.copy_(torch.linspace(0.3, -0.3, 5).view(1, 5))
    head.bias.zero_()
adapter = LowRankAdapter(5, 3, n_tasks=2)
P.register_parametrization(shared, "weight", adapter)
head = weight_norm(head)
print(P.is_parametrized(shared), P.is_parametrized(shared, "bias"), type(shared).__name__)
print(sorted(shared.state_dict().keys()))
print(sorted(head.state_dict().keys()))
print("g:", head.parametrizations.weight.original0.view(-1))

x = torch.stack([torch.linspace(-1, 1, 8), torch.cos(torch.arange(8.0)), torch.linspace(0, 1, 8)], 1)
targets = [x.sum(1), x[:, 0] - x[:, 2]]
params = list(shared.parameters()) + list(head.parameters())
print([tuple(p.shape) for p in params])
opt = torch.optim.SGD(params, lr=0.1)
for step in range(12):
    opt.zero_grad()
    total = 0.0
    norms = []
    for t in range(2):
        adapter.task = t
        loss = F.mse_loss(head(torch.relu(shared(x))).squeeze(1), targets[t])
        g = torch.autograd.grad(loss, shared.parametrizations.weight.original, retain_graph=True)[0]
        norms.append(round(g.norm().item(), 4))
        total = total + loss
    total.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step} total {total.item():.4f} per-task |dW| {norms} "
              f"|dA| {[round(v, 4) for v in adapter.A.grad.norm(dim=(1, 2)).tolist()]}")

with P.cached():
    adapter.task = 1
    w1 = shared.weight
    print("cached same object:", w1 is shared.weight)
adapter.task = 0
print("task weights differ:", not torch.allclose(shared.weight, w1))
print(shared.parametrizations.weight.original.shape, len(shared.parametrizations.weight))
P.remove_parametrizations(shared, "weight", leave_parametrized=True)
print(type(shared.weight).__name__, P.is_parametrized(shared), sorted(shared.state_dict().keys()))
try:
    P.remove_parametrizations(shared, "weight")
except ValueError as e:
    print("ValueError", e)
