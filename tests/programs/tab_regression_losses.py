# Robust and quantile regression losses compared on the same residuals: MSE vs Huber vs SmoothL1,
# the pinball (quantile) loss written by hand, and gradients of each at the kinks.
import torch
import torch.nn as nn
import torch.nn.functional as F

y_true = torch.tensor([1.0, 2.0, 3.0, 4.0, 100.0])
y_pred = torch.tensor([1.5, 1.0, 3.0, 6.0, 5.0])
for name, fn in [("mse", nn.MSELoss()), ("l1", nn.L1Loss()), ("huber", nn.HuberLoss()),
                 ("huber d=2", nn.HuberLoss(delta=2.0)), ("smoothl1", nn.SmoothL1Loss()),
                 ("smoothl1 b=0.5", nn.SmoothL1Loss(beta=0.5)), ("smoothl1 b=0", nn.SmoothL1Loss(beta=0.0))]:
    print(f"{name:>15}: {fn(y_pred, y_true).item():10.4f}", fn)
print(F.huber_loss(y_pred, y_true, reduction="none", delta=1.5))
print(F.smooth_l1_loss(y_pred, y_true, reduction="none", beta=2.0))
print(F.huber_loss(y_pred, y_true, reduction="sum"), F.smooth_l1_loss(y_pred, y_true, reduction="sum"))
print(torch.allclose(F.huber_loss(y_pred, y_true, delta=2.0), 2.0 * F.smooth_l1_loss(y_pred, y_true, beta=2.0)))

residual = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0], requires_grad=True)
zeros = torch.zeros(7)
for fn in [F.mse_loss, F.l1_loss, F.huber_loss, F.smooth_l1_loss]:
    residual.grad = None
    loss = fn(residual, zeros, reduction="sum")
    loss.backward()
    print(fn.__name__, loss.grad_fn.name(), residual.grad)

def pinball_loss(pred, target, q):
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()

def pinball_loss_multi(pred, target, quantiles):
    diff = target.unsqueeze(1) - pred
    return torch.max(quantiles * diff, (quantiles - 1) * diff).mean(0)

target = torch.arange(1., 11.)
for q in (0.1, 0.5, 0.9):
    pred = torch.full((10,), 5.0, requires_grad=True)
    loss = pinball_loss(pred, target, q)
    loss.backward()
    print(f"q={q}: loss={loss:.4f}", pred.grad[:3], loss.grad_fn.name())
qs = torch.tensor([0.1, 0.5, 0.9])
preds = torch.tensor([2.0, 5.5, 9.0]).expand(10, 3)
print(preds.shape, preds.stride(), pinball_loss_multi(preds, target, qs))
print(torch.quantile(target, qs), target.quantile(0.5), torch.median(target))

# fit a constant by gradient descent on each loss: mean vs median vs quantile
data = torch.tensor([1.0, 2.0, 2.5, 3.0, 50.0, 60.0, 70.0, 80.0])
for name, crit in [("mse", lambda c: ((data - c) ** 2).mean()), ("l1", lambda c: (data - c).abs().mean()),
                   ("huber", lambda c: F.huber_loss(c.expand_as(data), data)),
                   ("q0.8", lambda c: pinball_loss(c, data, 0.8))]:
    c = torch.tensor(0.0, requires_grad=True)
    opt = torch.optim.SGD([c], lr=0.125)
    for _ in range(300):
        opt.zero_grad()
        crit(c).backward()
        opt.step()
    print(f"{name}: c={c.item():.3f}")
print(data.mean(), data.median(), torch.quantile(data, 0.8))
try:
    F.huber_loss(y_pred, y_true, delta=-1.0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.smooth_l1_loss(y_pred, y_true, beta=-1.0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.maximum(torch.tensor([1.0]), 2.0)
except TypeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    torch.fmax(torch.tensor([1.0, float("nan")]), 0.0)
except TypeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor(0.0)), torch.clamp(torch.tensor([1.0, float("nan")]), min=0.0))
print(torch.max(torch.tensor([1.0, 5.0]), torch.tensor(3.0)), torch.clamp(y_pred - y_true, min=-1, max=1))
