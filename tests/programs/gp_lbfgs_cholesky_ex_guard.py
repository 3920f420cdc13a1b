# GP hyperparameters (log-lengthscale, log-outputscale, log-noise) in one raw tensor fitted by
# LBFGS with strong-Wolfe line search, a cholesky_ex guard in the closure, and a per-step print of
# loss, gradient norm and evaluation count (float64: float32 GP fits are chaotic in the last bits).
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=3)

X = torch.linspace(0, 5, 30).unsqueeze(1)
y = torch.sin(X).squeeze(1) * 1.5 + 0.1 * torch.cos(13 * X).squeeze(1)
raw = torch.tensor([0.0, 0.0, -1.0], requires_grad=True)


def neg_mll(raw):
    ls, os_, noise = raw.exp()
    K = os_ * torch.exp(-0.5 * torch.cdist(X, X).pow(2) / ls.pow(2)) + (noise + 1e-4) * torch.eye(len(X))
    L, info = torch.linalg.cholesky_ex(K)
    if info.item() != 0:
        raise RuntimeError(f"cholesky failed at minor {info.item()}")
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diagonal().log().sum() + 0.5 * len(X) * math.log(2 * math.pi)


opt = torch.optim.LBFGS([raw], lr=1.0, max_iter=10, line_search_fn="strong_wolfe")
history = []


def closure():
    opt.zero_grad()
    loss = neg_mll(raw)
    loss.backward()
    return loss


for step in range(5):
    loss = opt.step(closure)
    history.append(loss.item())
    print(f"step {step}: loss {loss.item():.3f} |grad| {raw.grad.norm().item():.2e} "
          f"evals so far {opt.state[raw]['func_evals']}")

print("decreasing", all(b <= a + 1e-4 for a, b in zip(history, history[1:])))
print("hyperparameters", raw.detach().exp())
print("final loss", f"{neg_mll(raw).item():.2f}", raw.dtype)
K_dup = torch.ones(3, 3)  # three identical inputs and no noise
L, info = torch.linalg.cholesky_ex(K_dup)
print("duplicate inputs: info", info.item(), "with jitter", torch.linalg.cholesky_ex(K_dup + 1e-6 * torch.eye(3)).info.item())
