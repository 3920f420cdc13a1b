# SINDy (Brunton et al.) from scratch: simulate a damped oscillator, estimate derivatives with
# central differences, build a polynomial library Theta(X), and run sequentially-thresholded
# least squares (STLSQ) with torch.linalg.lstsq; then refine the active terms by gradient descent.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
dt = 0.01
t = torch.arange(0, 5, dt)
X = torch.empty(len(t), 2)
X[0] = torch.tensor([2.0, 0.0])
for i in range(len(t) - 1):   # RK2 reference solution of dx/dt = A x
    k1 = X[i] @ A.T
    k2 = (X[i] + dt * k1) @ A.T
    X[i + 1] = X[i] + dt / 2 * (k1 + k2)
dX = (X[2:] - X[:-2]) / (2 * dt)
Xc = X[1:-1]
print("snapshots", X.shape, "derivatives", dX.shape)


def library(X):
    x, y = X[:, 0:1], X[:, 1:2]
    feats = [torch.ones_like(x), x, y, x * x, x * y, y * y, x ** 3, y ** 3]
    return torch.cat(feats, dim=1)


names = ["1", "x", "y", "x^2", "xy", "y^2", "x^3", "y^3"]
Theta = library(Xc)
print("library", Theta.shape, "cond %.1f" % torch.linalg.cond(Theta).item())

sol = torch.linalg.lstsq(Theta, dX)
print(type(sol).__name__, sol.solution.shape, sol.rank, sol.residuals.shape, sol.singular_values.shape)
sol_gelsd = torch.linalg.lstsq(Theta, dX, driver="gelsd")
print("gelsd rank", sol_gelsd.rank.item(), "sv", sol_gelsd.singular_values[:3])


def stlsq(Theta, dX, threshold=0.05, iters=5):
    Xi = torch.linalg.lstsq(Theta, dX).solution
    for it in range(iters):
        small = Xi.abs() < threshold
        Xi[small] = 0.0
        for j in range(dX.shape[1]):
            big = ~small[:, j]
            Xi[big, j] = torch.linalg.lstsq(Theta[:, big], dX[:, j:j + 1]).solution.squeeze(1)
        print(f"  iter {it} active terms {int((~small).sum())}")
    return Xi


Xi = stlsq(Theta, dX)
for j, lhs in enumerate(["dx/dt", "dy/dt"]):
    terms = [f"{Xi[i, j].item():+.3f} {names[i]}" for i in range(len(names)) if Xi[i, j] != 0]
    print(lhs, "=", " ".join(terms))
print("recovered A:", torch.allclose(Xi[1:3].T, A, atol=1e-3))

# gradient-based refinement of the active coefficients (masked parameters)
mask = (Xi != 0).to(Theta.dtype)
coef = torch.nn.Parameter(Xi.clone() + 0.01 * mask)
opt = torch.optim.Adam([coef], lr=1e-3)
for step in range(20):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(Theta @ (coef * mask), dX)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} mse {loss.item():.3e}")
print("inactive grads are zero:", bool((coef.grad * (1 - mask)).abs().max() == 0))
print(coef.detach()[1:3])
# normal equations vs lstsq, and pinv
normal = torch.linalg.solve(Theta.T @ Theta, Theta.T @ dX)
print("normal eq == lstsq:", torch.allclose(normal, sol.solution, atol=1e-6),
      "pinv:", torch.allclose(torch.linalg.pinv(Theta) @ dX, sol.solution, atol=1e-6))
