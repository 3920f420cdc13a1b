# MoE bookkeeping with boolean and integer tensors: which experts received any token
# (scatter_reduce amax on bools, include_self=False), per-expert token counts via index_put_
# accumulate and histc, first-come capacity with cumsum over a one-hot mask, dropped-token masks,
# and the router gradient when dropped tokens fall back to the residual path.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
T, D, E, CAP = 12, 4, 6, 2
x = torch.sin(torch.arange(T * D, dtype=torch.float32) * 0.37).view(T, D)
router = nn.Linear(D, E, bias=False)
with torch.no_grad():
    router.weight.copy_(torch.cos(torch.arange(E * D, dtype=torch.float32) * 1.1).view(E, D))

disabled = torch.tensor([False, False, False, False, True, True])  # pruned experts
logits = router(x).masked_fill(disabled, float("-inf"))
probs = F.softmax(logits, dim=-1)
gate, expert = probs.max(dim=-1)
print("expert", expert)

used = torch.zeros(E, dtype=torch.bool).scatter_reduce(
    0, expert, torch.ones(T, dtype=torch.bool), "amax", include_self=False)
print("expert used", used)
all_idle = torch.ones(E, dtype=torch.bool).scatter_reduce(
    0, expert, torch.zeros(T, dtype=torch.bool), "amin", include_self=False)
print("amin over assigned (False where any token)", all_idle)

counts = torch.zeros(E, dtype=torch.long).index_put_((expert,), torch.tensor(1), accumulate=True)
print("counts via index_put_", counts)
print("counts via histc", torch.histc(expert.float(), bins=E, min=0, max=E - 1))
print("counts via bincount", torch.bincount(expert, minlength=E))

mask = F.one_hot(expert, E).bool()
position = (torch.cumsum(mask.int(), dim=0) - 1).masked_fill(~mask, -1).amax(dim=-1)
print("position in expert", position, position.dtype)
kept = position < CAP
print("kept", kept.int(), "dropped tokens", (~kept).nonzero().flatten().tolist())
per_expert_dropped = torch.zeros(E, dtype=torch.int32).scatter_add(0, expert, (~kept).int())
print("dropped per expert", per_expert_dropped)

try:
    torch.zeros(E, dtype=torch.bool).scatter_reduce(0, expert, kept, "mean")
except NotImplementedError as e:
    print(type(e).__name__, e)

# experts: one scalar weight each; dropped tokens pass through the residual only
expert_scale = nn.Parameter(torch.tensor([0.5, 1.5, -1.0, 2.0, 0.25, -0.5]))
y = torch.where(kept[:, None], x + gate[:, None] * expert_scale[expert][:, None] * x, x)
loss = y.pow(2).mean()
loss.backward()
print("loss", f"{loss.item():.5f}")
print("router grad\n", router.weight.grad)
print("expert_scale grad", expert_scale.grad)
print("tokens contributing per expert", torch.bincount(expert[kept], minlength=E).tolist())
