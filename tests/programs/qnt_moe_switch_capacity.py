# Switch-Transformer top-1 routing with expert capacity (GShard-style dispatch): one_hot masks,
# cumsum for the position of each token inside its expert's buffer, dropped tokens beyond capacity,
# einsum dispatch/combine tensors, the load-balancing auxiliary loss, and a few SGD steps.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwitchMoE(nn.Module):
    def __init__(self, d_model=4, d_ff=8, num_experts=3, capacity_factor=1.0):
        super().__init__()
        self.num_experts = num_experts
        self.capacity_factor = capacity_factor
        self.router = nn.Linear(d_model, num_experts, bias=False)
        self.w_in = nn.Parameter(torch.empty(num_experts, d_model, d_ff))
        self.w_out = nn.Parameter(torch.empty(num_experts, d_ff, d_model))

    def forward(self, x):
        tokens, _ = x.shape
        capacity = math.ceil(self.capacity_factor * tokens / self.num_experts)
        logits = self.router(x)
        probs = F.softmax(logits, dim=-1, dtype=torch.float32)
        gate, expert_idx = probs.max(dim=-1)
        mask = F.one_hot(expert_idx, self.num_experts)                      # [T, E] int64
        position = torch.cumsum(mask, dim=0) * mask - 1                      # [T, E]
        keep = (position < capacity) & (mask.bool())
        mask = mask * keep
        position = (position * mask).sum(dim=-1)                             # [T]
        pos_onehot = F.one_hot(position, capacity)                           # [T, C]
        dispatch = mask.unsqueeze(-1) * pos_onehot.unsqueeze(1)              # [T, E, C]
        combine = gate[:, None, None] * dispatch.float()

        expert_in = torch.einsum("tec,td->ecd", dispatch.float(), x)
        h = F.relu(torch.bmm(expert_in, self.w_in))
        expert_out = torch.bmm(h, self.w_out)
        y = torch.einsum("tec,ecd->td", combine, expert_out)

        density = mask.float().mean(dim=0)
        density_proxy = probs.mean(dim=0)
        aux = (density * density_proxy).sum() * self.num_experts
        stats = dict(capacity=capacity, expert_idx=expert_idx, position=position,
                     kept=mask.sum(dim=-1), tokens_per_expert=torch.bincount(expert_idx, minlength=self.num_experts))
        return y, aux, stats


moe = SwitchMoE()
with torch.no_grad():
    moe.router.weight.copy_(torch.cos(torch.arange(12, dtype=torch.float32) * 1.3).view(3, 4))
    moe.w_in.copy_(torch.sin(torch.arange(96, dtype=torch.float32) * 0.21).view(3, 4, 8) * 0.5)
    moe.w_out.copy_(torch.cos(torch.arange(96, dtype=torch.float32) * 0.17).view(3, 8, 4) * 0.5)

x = torch.sin(torch.arange(36, dtype=torch.float32) * 0.73).view(9, 4)
target = torch.cos(torch.arange(36, dtype=torch.float32) * 0.4).view(9, 4) * 0.3

y, aux, st = moe(x)
print("capacity", st["capacity"])
print("expert_idx", st["expert_idx"])
print("position", st["position"])
print("kept", st["kept"], st["kept"].dtype)
print("tokens per expert", st["tokens_per_expert"])
print("y", y.shape, y.round(decimals=4))
print("aux", f"{aux.item():.5f}")

opt = torch.optim.SGD(moe.parameters(), lr=0.1)
for step in range(12):
    opt.zero_grad()
    y, aux, st = moe(x)
    loss = F.mse_loss(y, target) + 0.01 * aux
    loss.backward()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.5f} aux {aux.item():.4f} "
              f"router grad norm {moe.router.weight.grad.norm().item():.5f} dropped {(st['kept'] == 0).sum().item()}")
    opt.step()
print("final per-expert counts", st["tokens_per_expert"].tolist())
print("w_in grad zero for unused expert slots:", [bool(g.abs().sum() == 0) for g in moe.w_in.grad])
