# Logistic regression fitted three ways: nn.BCEWithLogitsLoss + optim.LBFGS (strong Wolfe),
# plain Newton's method with torch.autograd.functional.hessian/jacobian, and IRLS written with
# torch.linalg.solve; the solutions should coincide. Then predict_proba / accuracy.
import warnings

import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian

torch.set_printoptions(precision=4)
x1 = torch.linspace(-2, 2, 16)
x2 = torch.cos(torch.arange(16.) * 0.9)
X = torch.stack([x1, x2], dim=1)
y = ((1.5 * x1 - x2 + 0.3 * torch.sin(torch.arange(16.) * 2.1)) > 0).float()
print(y, y.dtype, y.sum())
Xb = torch.cat([X, torch.ones(16, 1)], dim=1)
lam = 0.1


def objective(w):
    logits = Xb @ w
    return nn.functional.binary_cross_entropy_with_logits(logits, y, reduction='sum') + 0.5 * lam * w.dot(w)


# 1. LBFGS
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=1, max_iter=50, tolerance_grad=1e-9, tolerance_change=1e-12,
                        line_search_fn='strong_wolfe')
crit = nn.BCEWithLogitsLoss(reduction='sum')


def closure():
    opt.zero_grad()
    loss = crit(Xb @ w, y) + 0.5 * lam * (w ** 2).sum()
    loss.backward()
    return loss


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    first = opt.step(closure)
print("warnings during LBFGS:", [str(c.message).splitlines()[0] for c in caught])
print(f"first loss {first.item():.4f} final {objective(w).item():.5f}")
w_lbfgs = w.detach().clone()
print(w_lbfgs)

# 2. Newton with autograd.functional
wn = torch.zeros(3)
for it in range(8):
    g = jacobian(objective, wn)
    H = hessian(objective, wn)
    step = torch.linalg.solve(H, g)
    wn = wn - step
    print(f"newton {it} f={objective(wn).item():.6f} |g|={g.norm().item():.2e}" if it < 3 else f"newton {it} f={objective(wn).item():.6f}")
print(wn, torch.allclose(wn, w_lbfgs, atol=1e-3))
print(H.shape, torch.allclose(H, H.T), (torch.linalg.eigvalsh(H) > 0).all())

# 3. IRLS with explicit formulas
wi = torch.zeros(3)
for it in range(8):
    p = torch.sigmoid(Xb @ wi)
    Wd = p * (1 - p)
    Hm = Xb.T @ (Wd.unsqueeze(1) * Xb) + lam * torch.eye(3)
    grad = Xb.T @ (p - y) + lam * wi
    wi = wi - torch.linalg.solve(Hm, grad)
print(torch.allclose(wi, wn, atol=1e-5), torch.allclose(Hm, hessian(objective, wi), atol=1e-4))

# hessian w.r.t. several inputs returns nested tuples
def obj2(wx, b):
    return nn.functional.binary_cross_entropy_with_logits(X @ wx + b, y, reduction='sum')

Hs = hessian(obj2, (wn[:2].clone(), wn[2:].clone()))
print(type(Hs).__name__, len(Hs), [[h.shape for h in row] for row in Hs])
print(torch.allclose(Hs[0][1].squeeze(), Hs[1][0].squeeze()))
Hc = hessian(objective, wn, create_graph=True)
print(Hc.requires_grad, hessian(objective, wn).requires_grad)

# predictions
with torch.no_grad():
    proba = torch.sigmoid(Xb @ wn)
    pred = (proba > 0.5).long()
print(proba)
print(pred, (pred == y.long()).float().mean())
print(nn.functional.binary_cross_entropy(proba, y), nn.BCEWithLogitsLoss()(Xb @ wn, y))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))(Xb @ wn, y))
