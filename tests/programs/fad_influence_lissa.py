# Influence functions (Koh & Liang 2017) for L2-regularised logistic regression: inverse-Hessian-
# vector products by LiSSA iterations built on torch.autograd.functional.hvp, compared with the
# exact solve using the Hessian from autograd.functional.hessian (forward-mode outer strategy).
import torch
import torch.nn.functional as F
from torch.autograd.functional import hessian, hvp, vhp

torch.set_default_dtype(torch.float64)

n, d = 24, 3
t = torch.arange(n, dtype=torch.float64)
X = torch.stack([torch.sin(0.7 * t), torch.cos(0.3 * t), torch.ones(n)], 1)
y = (torch.sin(0.7 * t) + 0.5 * torch.cos(0.3 * t) > 0.1).double()
lam = 0.05


def train_loss(w):
    return F.binary_cross_entropy_with_logits(X @ w, y) + 0.5 * lam * (w ** 2).sum()


w = torch.zeros(d)
for it in range(15):  # Newton's method with the exact Hessian
    g = torch.autograd.functional.jacobian(train_loss, w)
    H = hessian(train_loss, w)
    w = w - torch.linalg.solve(H, g)
print("w*", w, "converged:", torch.autograd.functional.jacobian(train_loss, w).norm().item() < 1e-10)

H = hessian(train_loss, w, vectorize=True, outer_jacobian_strategy="forward-mode")
print("hessian symmetric:", torch.allclose(H, H.T), "eigs", torch.linalg.eigvalsh(H))


def test_loss_grad(i):
    wi = w.clone().requires_grad_(True)
    F.binary_cross_entropy_with_logits(X[i] @ wi, y[i]).backward()
    return wi.grad


v = test_loss_grad(5)
exact = torch.linalg.solve(H, v)

# LiSSA: h_{j+1} = v + (I - H/scale) h_j, converges to scale * H^{-1} v
scale, h = 2.0, v.clone()
for j in range(60):
    _, Hh = hvp(train_loss, w, h)
    h = v + h - Hh / scale
    if j % 15 == 14:
        print(f"lissa iter {j + 1}: error {(h / scale - exact).norm().item():.3e}")
ihvp = h / scale
print("ihvp", ihvp)
print("matches solve:", torch.allclose(ihvp, exact, atol=1e-6))

_, vH = vhp(train_loss, w, v)
_, Hv = hvp(train_loss, w, v)
print("vhp == hvp (symmetric H):", torch.allclose(vH, Hv))

influences = []
for i in range(n):
    wi = w.clone().requires_grad_(True)
    F.binary_cross_entropy_with_logits(X[i] @ wi, y[i]).backward()
    influences.append(-(wi.grad @ ihvp).item())
order = sorted(range(n), key=lambda i: influences[i])
print("most helpful", order[:3], "most harmful", order[-3:])
print("influence values", [f"{influences[i]:+.4f}" for i in order[:3]])

out, hv_graph = hvp(train_loss, w.clone().requires_grad_(True), v, create_graph=True)
print("create_graph result requires_grad:", hv_graph.requires_grad, out.requires_grad)
try:
    hvp(train_loss, w, torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
try:
    hvp(lambda z: z * 2, w, v)
except Exception as e:
    print(type(e).__name__, e)
