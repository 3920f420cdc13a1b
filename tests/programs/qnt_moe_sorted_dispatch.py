# Top-2 MoE with sort-based token dispatch (Megablocks/DeepSpeed style): flatten (token, expert)
# assignments, argsort(stable=True) by expert id, bincount / unique(return_counts) for group sizes,
# split per expert, then index_add_ / index_put_(accumulate=True) to combine; checks grads and grad_fns.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
T, D, E, K = 6, 4, 4, 2


class MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, E, bias=False)
        self.experts = nn.ModuleList(nn.Linear(D, D) for _ in range(E))

    def route(self, x):
        probs = F.softmax(self.gate(x), dim=-1)
        topv, topi = torch.topk(probs, K, dim=-1)
        topv = topv / topv.sum(dim=-1, keepdim=True)
        return probs, topv, topi

    def forward(self, x, combine="index_add"):
        probs, topv, topi = self.route(x)
        flat_expert = topi.reshape(-1)                      # [T*K]
        flat_token = torch.arange(T).repeat_interleave(K)   # [T*K]
        order = torch.argsort(flat_expert, stable=True)
        sorted_expert = flat_expert[order]
        counts = torch.bincount(sorted_expert, minlength=E)
        chunks = torch.split(order, counts.tolist())
        out = torch.zeros_like(x)
        for e, idx in enumerate(chunks):
            if idx.numel() == 0:
                continue
            tok = flat_token[idx]
            y = self.experts[e](x[tok]) * topv.reshape(-1)[idx, None]
            if combine == "index_add":
                out = out.index_add(0, tok, y)
            else:
                out = out.index_put((tok,), y, accumulate=True)
        return out, probs, topi, counts


moe = MoE()
with torch.no_grad():
    moe.gate.weight.copy_(torch.sin(torch.arange(E * D, dtype=torch.float32) * 0.9).view(E, D))
    for e, ex in enumerate(moe.experts):
        ex.weight.copy_(torch.cos(torch.arange(D * D, dtype=torch.float32) * (0.3 + 0.1 * e)).view(D, D) * 0.5)
        ex.bias.fill_(0.1 * e)

x = torch.cos(torch.arange(T * D, dtype=torch.float32) * 0.55).view(T, D)
out, probs, topi, counts = moe(x)
print("topi\n", topi)
print("counts", counts, counts.dtype)
uniq, inverse, ucounts = torch.unique(topi.reshape(-1), return_inverse=True, return_counts=True)
print("unique", uniq, "inverse", inverse, "counts", ucounts)
print("sorted order", torch.argsort(topi.reshape(-1), stable=True))
print("descending stable", torch.sort(topi.reshape(-1), descending=True, stable=True))
print("out\n", out)
print("out grad_fn", type(out.grad_fn).__name__)

out2, *_ = moe(x, combine="index_put")
print("index_put same:", torch.allclose(out, out2, atol=1e-6), type(out2.grad_fn).__name__)

# auxiliary load-balancing loss (fraction of assignments x mean router prob)
frac = counts.float() / (T * K)
aux = E * (frac * probs.mean(dim=0)).sum()
print("aux", f"{aux.item():.5f}")

x_req = x.clone().requires_grad_()
out, probs, topi, counts = moe(x_req)
loss = out.pow(2).mean() + 0.1 * E * (counts.float() / (T * K) * probs.mean(0)).sum()
loss.backward()
print("loss", f"{loss.item():.5f}")
print("x grad\n", x_req.grad)
print("gate grad\n", moe.gate.weight.grad)
print("expert bias grads", [ex.bias.grad is None for ex in moe.experts])
print("expert 0 weight grad sum", f"{moe.experts[0].weight.grad.sum().item():.5f}")
