# Forecast evaluation as in forecasting tutorials: MAE / RMSE / MAPE / sMAPE metrics, quantile
# (pinball) loss written by hand for several quantiles, Huber / SmoothL1 / L1 / MSE losses with
# reductions and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

y_true = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.5, 1.5, 0.5]])
y_pred = torch.tensor([[1.2, 1.7, 3.5, 3.0], [2.0, 3.5, 1.0, 0.75]], requires_grad=True)


def mae(p, t):
    return (p - t).abs().mean()


def rmse(p, t):
    return torch.sqrt(((p - t) ** 2).mean())


def mape(p, t, eps=1e-8):
    return ((p - t).abs() / t.abs().clamp(min=eps)).mean() * 100


def smape(p, t):
    return 200 * ((p - t).abs() / (p.abs() + t.abs())).mean()


with torch.no_grad():
    print(f"MAE {mae(y_pred, y_true):.4f} RMSE {rmse(y_pred, y_true):.4f} "
          f"MAPE {mape(y_pred, y_true):.2f}% sMAPE {smape(y_pred, y_true):.2f}%")


def quantile_loss(preds, target, quantiles):
    losses = []
    for i, q in enumerate(quantiles):
        errors = target - preds[..., i]
        losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(-1))
    return torch.cat(losses, dim=-1).sum(dim=-1).mean()


qs = [0.1, 0.5, 0.9]
qpred = torch.stack([y_pred - 0.5, y_pred, y_pred + 0.5], dim=-1)
print(qpred.shape)
ql = quantile_loss(qpred, y_true, qs)
print(ql, ql.grad_fn.name())
ql.backward()
print(y_pred.grad)
y_pred.grad = None

# alternative pinball formulation with torch.where
err = y_true.unsqueeze(-1) - qpred
qt = torch.tensor(qs)
pin = torch.where(err >= 0, qt * err, (qt - 1) * err)
print(pin.mean(dim=(0, 1)))

for name, fn in [("mse", nn.MSELoss()), ("l1", nn.L1Loss()), ("huber", nn.HuberLoss(delta=0.5)),
                 ("smoothl1", nn.SmoothL1Loss(beta=0.5)), ("huber-sum", nn.HuberLoss(reduction="sum", delta=0.3)),
                 ("smoothl1-none", nn.SmoothL1Loss(reduction="none", beta=0.0))]:
    y_pred.grad = None
    l = fn(y_pred, y_true)
    l.sum().backward()
    print(name, l.detach(), l.grad_fn.name())
    print(" grad", y_pred.grad)

print(F.huber_loss(y_pred, y_true, delta=2.0).item(), F.smooth_l1_loss(y_pred, y_true, beta=2.0).item())
print(F.l1_loss(y_pred[0], y_true[0], reduction="sum"))
try:
    F.mse_loss(y_pred, y_true[:, :3])
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.SmoothL1Loss(beta=-1.0)(y_pred, y_true)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.huber_loss(y_pred, y_true, delta=0.0)
except Exception as e:
    print(type(e).__name__, e)
