# PCGrad / gradient surgery (Yu et al. 2020): per-task flat gradients of the shared parameters via
# torch.autograd.grad(retain_graph=True), projection of conflicting gradients onto each other's
# normal plane, and writing the merged vector back into p.grad before optimizer.step().
import torch
import torch.nn as nn
import torch.nn.functional as F

trunk = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 4))
heads = nn.ModuleList([nn.Linear(4, 1), nn.Linear(4, 1)])
with torch.no_grad():
    for i, p in enumerate(list(trunk.parameters()) + list(heads.parameters())):
        p.copy_(0.6 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 2.1 + i).reshape(p.shape))

shared = list(trunk.parameters())
x = torch.stack([torch.linspace(-2, 2, 20), torch.sin(torch.linspace(0, 6, 20))], 1)
ys = [x[:, 0] * 1.5 + x[:, 1], -x[:, 0] + 0.3 * x[:, 1] ** 2]


def flatten_grads(grads):
    return torch.cat([g.reshape(-1) for g in grads])


def pc_project(grads):
    projected = [g.clone() for g in grads]
    for i, gi in enumerate(projected):
        for j, gj in enumerate(grads):
            if i == j:
                continue
            dot = torch.dot(gi, gj)
            if dot < 0:
                gi -= dot / gj.norm() ** 2 * gj
    return projected


opt = torch.optim.SGD(list(trunk.parameters()) + list(heads.parameters()), lr=0.1, momentum=0.5)
for step in range(20):
    h = trunk(x)
    losses = [F.mse_loss(head(h).squeeze(1), y) for head, y in zip(heads, ys)]
    opt.zero_grad()
    task_grads = [flatten_grads(torch.autograd.grad(l, shared, retain_graph=True)) for l in losses]
    cos = F.cosine_similarity(task_grads[0], task_grads[1], dim=0)
    merged = torch.stack(pc_project(task_grads)).sum(0)
    # heads get their ordinary gradients
    sum(losses).backward()
    offset = 0
    for p in shared:
        n = p.numel()
        p.grad.copy_(merged[offset:offset + n].view_as(p))
        offset += n
    opt.step()
    if step % 4 == 0:
        print(f"step {step:2d} losses {losses[0].item():.4f} {losses[1].item():.4f} cos {cos.item():+.4f} "
              f"|g1| {task_grads[0].norm().item():.4f} |g2| {task_grads[1].norm().item():.4f} "
              f"|merged| {merged.norm().item():.4f}")

print("conflict resolved:", torch.dot(pc_project(task_grads)[0], task_grads[1]).item() >= -1e-6)
print([tuple(p.grad.shape) for p in shared])
print(merged.shape, merged.dtype, merged.requires_grad)
state = opt.state_dict()
print(len(state["state"]), sorted(state["state"][0].keys()))
