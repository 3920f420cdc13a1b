# Leaderboard ranking with ties: stable sort (descending), rank via double argsort, dense ranks via
# unique(return_inverse), topk/kthvalue/median/mode on tied scores with their indices, cummax best-so-far.
import torch

scores = torch.tensor([88.0, 92.0, 75.0, 92.0, 60.0, 88.0, 92.0, 75.0])
names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]

vals, order = torch.sort(scores, descending=True, stable=True)
print(vals, order)
print([names[i] for i in order.tolist()])
vals_a, order_a = scores.sort(stable=True)
print(order_a)

ordinal_rank = torch.argsort(torch.argsort(-scores, stable=True), stable=True) + 1
print("ordinal", ordinal_rank)
uniq, dense = torch.unique(-scores, return_inverse=True)
print("dense", dense + 1)
# competition ("1224") rank: count of strictly better scores + 1
comp = (scores.unsqueeze(0) > scores.unsqueeze(1)).sum(1) + 1
print("competition", comp, comp.dtype)

top = torch.topk(scores, 3)
print(top.values, top.indices)
low = scores.topk(3, largest=False)
print(low)
print(torch.kthvalue(scores, 3), torch.kthvalue(scores, 8))
print(scores.median(), torch.median(scores, 0))
print(torch.mode(scores))
print(torch.mode(torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]]), dim=1))

# 2-d: per-round medians with NaN (did-not-finish)
rounds = torch.tensor([[3.0, float("nan"), 1.0, 2.0], [5.0, 5.0, float("nan"), float("nan")]])
print(torch.nanmedian(rounds, dim=1))
print(torch.median(rounds, dim=1))
print(rounds.nanmedian(), rounds.median())

# best-so-far curve
history = torch.tensor([0.3, 0.5, 0.5, 0.4, 0.7, 0.7, 0.2])
best, when = torch.cummax(history, 0)
print(best, when)
worst, wwhen = torch.cummin(history, 0)
print(worst, wwhen)

# argsort descending on ties without stable, on a 2-d batch
batch = torch.tensor([[1, 3, 3, 2], [0, 0, 0, 0]])
print(torch.argsort(batch, dim=1, descending=True, stable=True))
print(torch.sort(batch, dim=0, descending=True, stable=True))

# gradients: topk and sort route gradients to the chosen entries
x = scores.clone().requires_grad_(True)
v, i = x.topk(2)
(v * torch.tensor([1.0, 10.0])).sum().backward()
print(x.grad)
x.grad = None
m = x.median()
m.backward()
print(x.grad)
x.grad = None
kv, ki = torch.kthvalue(x, 2)
(kv * 3).backward()
print(x.grad, ki)

# top 25% of players: k computed as a float is a classic mistake
k = 0.25 * len(scores)
try:
    torch.topk(scores, k)
except Exception as e:
    print(type(e).__name__, e)
print(scores.topk(int(k)).indices, scores.topk(torch.tensor(2)).values)
try:
    torch.median(scores.view(2, 4), keepdim=True)
except Exception as e:
    print(type(e).__name__, e)
print(torch.median(scores.view(2, 4), 1, True))
