# Expert-choice routing (Zhou et al. 2022): each expert picks its top-c tokens (topk over the token
# dimension of the transposed softmax scores), gather into expert buffers, scatter_add_ results back,
# count how many experts chose each token with bincount, and a z-loss on the router logits.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
T, D, E, H = 8, 4, 3, 6
capacity = T * 2 // E   # capacity factor 2


class ExpertChoiceMoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(D, E, bias=False)
        self.w1 = nn.Parameter(torch.sin(torch.arange(E * D * H, dtype=torch.float32) * 0.31).view(E, D, H) * 0.5)
        self.w2 = nn.Parameter(torch.cos(torch.arange(E * H * D, dtype=torch.float32) * 0.23).view(E, H, D) * 0.5)

    def forward(self, x):
        logits = self.router(x)                              # [T, E]
        scores = F.softmax(logits, dim=-1)
        gates, token_idx = torch.topk(scores.t(), capacity, dim=-1)     # [E, C]
        xin = x[token_idx]                                   # [E, C, D]
        h = F.gelu(torch.bmm(xin, self.w1))
        yout = torch.bmm(h, self.w2) * gates.unsqueeze(-1)   # [E, C, D]
        out = torch.zeros_like(x)
        out = out.scatter_add(0, token_idx.reshape(-1, 1).expand(-1, D), yout.reshape(-1, D))
        z_loss = torch.logsumexp(logits, dim=-1).pow(2).mean()
        return out, token_idx, gates, z_loss


moe = ExpertChoiceMoE()
with torch.no_grad():
    moe.router.weight.copy_(torch.cos(torch.arange(E * D, dtype=torch.float32) * 2.1).view(E, D))
x = torch.sin(torch.arange(T * D, dtype=torch.float32) * 0.47).view(T, D)

out, token_idx, gates, z = moe(x)
print("capacity", capacity)
print("token_idx\n", token_idx)
print("gates\n", gates)
chosen = torch.bincount(token_idx.flatten(), minlength=T)
print("experts per token", chosen, "unrouted tokens", (chosen == 0).nonzero().flatten().tolist())
print("out\n", out)
print("z-loss", f"{z.item():.5f}", "grad_fn", out.grad_fn.name())

# same combine via index_add_ and via a dense one-hot dispatch tensor
alt = torch.zeros_like(x).index_add_(0, token_idx.flatten(), (torch.bmm(F.gelu(torch.bmm(x[token_idx], moe.w1)), moe.w2) * gates.unsqueeze(-1)).reshape(-1, D))
print("index_add_ matches:", torch.allclose(alt, out, atol=1e-6))
dispatch = F.one_hot(token_idx, T).float()              # [E, C, T]
print("dispatch sum over C,E", dispatch.sum(dim=(0, 1)))

target = torch.cos(torch.arange(T * D, dtype=torch.float32) * 0.3).view(T, D) * 0.2
opt = torch.optim.SGD(moe.parameters(), lr=0.2, momentum=0.9)
for step in range(10):
    opt.zero_grad()
    out, token_idx, gates, z = moe(x)
    loss = F.mse_loss(out, target) + 1e-3 * z
    loss.backward()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.5f} router grad {moe.router.weight.grad.abs().sum().item():.5f}")
    opt.step()
print("final token_idx\n", token_idx)
