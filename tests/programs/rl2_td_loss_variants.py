# DQN TD-error losses as users swap them in: nn.SmoothL1Loss(beta=...), nn.HuberLoss(delta=...),
# reduction='none' with importance weights, beta=0 (pure L1), the shape-mismatch broadcast trap
# (q of shape [B,1] vs target [B]) and invalid arguments.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

q = torch.linspace(-2.0, 2.0, 8).view(8, 1).requires_grad_()
target = torch.tensor([0.5, -0.25, 3.0, 0.0, 0.1, 1.5, -1.0, 2.0]).unsqueeze(1)

for crit in [nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.SmoothL1Loss(reduction="sum", beta=2.0),
             nn.HuberLoss(), nn.HuberLoss(delta=0.5), nn.HuberLoss(reduction="none", delta=2.0),
             nn.MSELoss(), nn.L1Loss(reduction="sum")]:
    q.grad = None
    loss = crit(q, target)
    loss.sum().backward()
    print(crit, getattr(crit, "beta", None), getattr(crit, "delta", None), crit.reduction)
    print(" ", loss.shape, loss.grad_fn.name(), [round(v, 4) for v in loss.detach().flatten().tolist()][:4])
    print(" ", [round(v, 4) for v in q.grad.flatten().tolist()])

# beta=0 degenerates to L1
q.grad = None
l0 = F.smooth_l1_loss(q, target, beta=0.0)
l0.backward()
print(f"{l0.item():.4f}", l0.grad_fn.name(), q.grad.flatten())

# boundary: |diff| exactly equal to beta / delta
d = torch.tensor([1.0, -1.0, 0.5, 2.0], requires_grad=True)
z = torch.zeros(4)
for fn in [lambda: F.smooth_l1_loss(d, z, reduction="none"), lambda: F.huber_loss(d, z, reduction="none", delta=0.5),
           lambda: F.smooth_l1_loss(d, z, reduction="none", beta=2.0)]:
    d.grad = None
    out = fn()
    out.sum().backward()
    print(out.detach(), d.grad)

# prioritized replay: per-sample weights times elementwise huber
w = torch.tensor([1.0, 0.5, 0.25, 1.0, 0.8, 0.9, 0.3, 0.6]).unsqueeze(1)
q.grad = None
elementwise = F.huber_loss(q, target, reduction="none", delta=1.0)
weighted = (w * elementwise).mean()
weighted.backward()
print(f"{weighted.item():.5f}", elementwise.shape, q.grad.view(-1)[:3])
td = (target - q).detach().abs().squeeze(1) + 1e-6
print(td)

# the broadcast trap: q [B,1] vs target [B]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    bad = F.smooth_l1_loss(q, target.squeeze(1))
    bad2 = F.huber_loss(q, target.squeeze(1))
    bad3 = F.mse_loss(q, target.squeeze(1))
print(f"{bad.item():.4f} {bad2.item():.4f} {bad3.item():.4f}")
for w_ in caught:
    print(w_.category.__name__, str(w_.message))

# float64 / int targets
qd = torch.tensor([[0.2, 1.7], [-0.4, 0.0]], dtype=torch.float64, requires_grad=True)
out = F.smooth_l1_loss(qd, torch.tensor([[0.0, 0.0], [0.0, 1.0]], dtype=torch.float64), reduction="sum")
print(out, out.dtype)
print(F.smooth_l1_loss(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 5.0]), reduction="none"))
print(F.huber_loss(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 5.0]), reduction="sum", delta=3.0))

for bad_call in [lambda: F.smooth_l1_loss(q, target, reduction="avg"),
                 lambda: F.huber_loss(q, target, reduction="batchmean"),
                 lambda: F.smooth_l1_loss(q, target, beta=-1.0),
                 lambda: F.huber_loss(q, target, delta=0.0),
                 lambda: F.huber_loss(q, target, delta=-2.0),
                 lambda: nn.HuberLoss(delta=-1.0)(q, target),
                 lambda: F.smooth_l1_loss(torch.tensor([1, 2]), torch.tensor([0, 1])),
                 lambda: F.huber_loss(torch.tensor([1, 2]), torch.tensor([0, 1])),
                 lambda: F.smooth_l1_loss(torch.zeros(3), torch.zeros(4)),
                 lambda: F.huber_loss(torch.zeros(2, 3), torch.zeros(3, 2))]:
    try:
        print(bad_call())
    except Exception as e:
        print(type(e).__name__, e)

# empty batch
print(F.smooth_l1_loss(torch.zeros(0), torch.zeros(0)), F.huber_loss(torch.zeros(0), torch.zeros(0), reduction="sum"))
