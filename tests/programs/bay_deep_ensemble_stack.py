# Deep ensembles: M independently initialised MLPs, torch.stack of per-member log-probabilities,
# mixture log-likelihood via logsumexp - log(M), plus the torch.func vmap-over-members variant.
import math
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap


def make_member(k):
    m = nn.Sequential(nn.Linear(2, 10), nn.ReLU(), nn.Linear(10, 3))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + 0.1 * k) + i + k).reshape(p.shape))
    return m


t = torch.linspace(0, 2 * math.pi, 36)
x = torch.stack([torch.cos(t), torch.sin(2 * t)], dim=1)
y = torch.arange(36) // 12

M = 4
members = [make_member(k) for k in range(M)]
opts = [torch.optim.SGD(m.parameters(), lr=0.2, momentum=0.9) for m in members]
for epoch in range(15):
    losses = []
    for m, opt in zip(members, opts):
        loss = F.cross_entropy(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    if epoch % 5 == 4:
        print(f"epoch {epoch} " + " ".join(f"{l:.4f}" for l in losses))

with torch.no_grad():
    log_probs = torch.stack([F.log_softmax(m(x), dim=-1) for m in members])  # M x N x C
print("stacked", log_probs.shape)
ens_log_prob = torch.logsumexp(log_probs, dim=0) - math.log(M)
print("ensemble nll", f"{F.nll_loss(ens_log_prob, y).item():.4f}")
print("member nll", [f"{F.nll_loss(lp, y).item():.4f}" for lp in log_probs.unbind(0)])
probs = log_probs.exp()
mean_probs = probs.mean(0)
print("same as mean of probs", torch.allclose(mean_probs.log(), ens_log_prob, atol=1e-6))
acc = (mean_probs.argmax(1) == y).float().mean()
print("ensemble acc", f"{acc.item():.4f}")
disagree = (probs.argmax(-1) != mean_probs.argmax(-1)).float().mean(0)
print("disagreement", disagree[::6])
entropy = -(mean_probs * ens_log_prob).sum(1)
print("entropy", entropy[::6].round(decimals=4))
print("var of probs", probs.var(dim=0).sum(-1)[::9].round(decimals=4))

# vectorised ensemble
params, buffers = stack_module_state(members)
print({k: tuple(v.shape) for k, v in params.items()})
base = copy.deepcopy(members[0])  # stateless template


def call_one(p, b, inp):
    return functional_call(base, (p, b), (inp,))


with torch.no_grad():
    out = vmap(call_one, in_dims=(0, 0, None))(params, buffers, x)
print("vmap matches loop", out.shape, torch.allclose(F.log_softmax(out, -1), log_probs, atol=1e-6))

# weighted ensemble (e.g. by validation performance)
w = torch.tensor([0.1, 0.2, 0.3, 0.4])
weighted = torch.logsumexp(log_probs + w.log().view(-1, 1, 1), dim=0)
print("weighted nll", f"{F.nll_loss(weighted, y).item():.4f}")
print(torch.logsumexp(torch.tensor([[-1.0, float("-inf")], [float("-inf"), float("-inf")]]), dim=1))
