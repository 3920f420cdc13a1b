# Lottery-ticket style: global magnitude pruning with importance scores, then
# rewinding to the initial weights and re-applying the saved masks with custom_from_mask.
import copy
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.9 + 0.2 * i)).reshape(p.shape) * 0.5)
init_state = copy.deepcopy(net.state_dict())

x = torch.linspace(-1, 1, 40).reshape(10, 4)
y = torch.stack([x.sum(1), (x * x).sum(1)], dim=1)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for _ in range(15):
    loss = nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("trained loss", f"{loss.item():.4f}")

params = [(net[0], "weight"), (net[2], "weight"), (net[4], "weight")]
scores = {net[0]: net[0].weight.detach().abs() * 2.0}
prune.global_unstructured(
    params,
    pruning_method=prune.L1Unstructured,
    importance_scores={(m, "weight"): scores.get(m, m.weight.detach().abs()) for m, _ in params},
    amount=0.4,
)
masks = {i: net[i].weight_mask.clone() for i in (0, 2, 4)}
for i, m in masks.items():
    print(i, m.dtype, int(m.sum().item()), m.shape)
total = sum(m.numel() for m in masks.values())
kept = sum(int(m.sum()) for m in masks.values())
print(f"kept {kept}/{total} = {kept / total:.3f}")

# rewind: fresh network with initial weights and saved masks
ticket = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 2))
ticket.load_state_dict(init_state)
for i, m in masks.items():
    prune.custom_from_mask(ticket[i], name="weight", mask=m)
print(sorted(ticket.state_dict().keys()))
print(torch.equal(ticket[0].weight, init_state["0.weight"] * masks[0]))
print(ticket[2].weight_orig.requires_grad, ticket[2].weight_mask.requires_grad, ticket[2].weight.is_leaf)

opt = torch.optim.SGD(ticket.parameters(), lr=0.05)
for step in range(15):
    loss = nn.functional.mse_loss(ticket(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}")
print("masked stay zero:", bool((ticket[2].weight[masks[2] == 0] == 0).all()))

# state_dict round trip of a pruned model into another pruned model
clone = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 2))
for i in (0, 2, 4):
    prune.identity(clone[i], "weight")
res = clone.load_state_dict(ticket.state_dict())
print(res)
print(torch.allclose(clone(x), ticket(x)))
try:
    nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 2)).load_state_dict(ticket.state_dict())
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    copy.deepcopy(ticket)
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])
for i in (0, 2, 4):
    prune.remove(ticket[i], "weight")
pruned_copy = copy.deepcopy(ticket)
print(prune.is_pruned(pruned_copy), len(pruned_copy[0]._forward_pre_hooks))
