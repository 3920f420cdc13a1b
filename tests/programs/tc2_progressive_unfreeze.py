# ULMFiT-style gradual unfreezing with a compiled model: all layers frozen with requires_grad_(False),
# then unfrozen one layer group per epoch (last to first), the optimizer rebuilt with per-group
# learning rates; frozen layers keep grad None and unchanged weights; input requires_grad toggled too.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(
    nn.Linear(4, 6), nn.ReLU(),
    nn.Linear(6, 6), nn.ReLU(),
    nn.Linear(6, 2),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + 0.7 * i).view_as(p) * 0.5)
groups = [model[0], model[2], model[4]]
cmodel = torch.compile(model)

X = torch.stack([torch.linspace(-1, 1, 4) * (0.3 * k - 1) for k in range(8)])
Y = torch.tensor([0, 0, 1, 1, 0, 1, 1, 0])

model.requires_grad_(False)
out = cmodel(X)
print("all frozen: out.requires_grad", out.requires_grad, out.grad_fn)

for epoch, n_unfrozen in enumerate([1, 2, 3]):
    for g in groups[-n_unfrozen:]:
        g.requires_grad_(True)
    param_groups = [
        {"params": list(g.parameters()), "lr": 0.1 / (2.6 ** depth)}
        for depth, g in enumerate(reversed(groups[-n_unfrozen:]))
    ]
    opt = torch.optim.Adam(param_groups)
    snapshot = [g.weight.clone() for g in groups]
    for step in range(4):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(cmodel(X), Y)
        loss.backward()
        opt.step()
    changed = [not torch.equal(s, g.weight) for s, g in zip(snapshot, groups)]
    grads = [g.weight.grad is not None for g in groups]
    print(f"epoch {epoch} loss {loss.item():.4f} changed {changed} has_grad {grads}")
    print("   lrs", [round(pg["lr"], 4) for pg in opt.param_groups])

# input gradients for a saliency map, with the model frozen again
model.requires_grad_(False)
xs = X.clone().requires_grad_(True)
score = cmodel(xs)[torch.arange(8), Y].sum()
score.backward()
print("saliency", torch.round(xs.grad.abs()[0], decimals=4))
print("param grads after freeze", [p.grad is None for p in model.parameters()])
xs.requires_grad_(False)
with torch.no_grad():
    print("no-grad out", cmodel(xs).requires_grad, torch.round(cmodel(xs)[0], decimals=4))
model[4].requires_grad_(True)
o = cmodel(X)
print("head only", o.requires_grad, type(o.grad_fn).__name__ != "NoneType")
