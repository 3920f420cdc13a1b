# Pairs-trading hedge ratio as a time-varying beta: a Kalman filter written with tensors, its
# noise variances fitted by maximising the prediction-error likelihood through the whole filter.
import torch

dtype = torch.float64
t = torch.arange(80, dtype=dtype)
x = 100 + 5 * torch.sin(t / 9.0) + 0.3 * t
true_beta = 1.2 + 0.3 * torch.sin(t / 20.0)
y = true_beta * x + 0.8 * torch.sin(2.3 * t)
print("data", x.shape, f"{y[:3].tolist()}")


def kalman(log_q, log_r, x, y):
    """State (alpha, beta); observation y_t = alpha + beta x_t + noise."""
    Q = torch.diag_embed(torch.exp(log_q))
    R = torch.exp(log_r)
    state = torch.tensor([0.0, 1.0], dtype=dtype)
    P = torch.eye(2, dtype=dtype) * 10.0
    nll = torch.zeros((), dtype=dtype)
    betas = []
    for i in range(x.shape[0]):
        P = P + Q
        H = torch.stack([torch.ones((), dtype=dtype), x[i]])
        pred = H @ state
        S = H @ P @ H + R
        K = P @ H / S
        err = y[i] - pred
        state = state + K * err
        P = (torch.eye(2, dtype=dtype) - torch.outer(K, H)) @ P
        nll = nll + 0.5 * (torch.log(2 * torch.pi * S) + err ** 2 / S)
        betas.append(state[1])
    return nll, torch.stack(betas)


log_q = torch.tensor([-6.0, -8.0], dtype=dtype, requires_grad=True)
log_r = torch.tensor(0.0, dtype=dtype, requires_grad=True)
opt = torch.optim.Adam([log_q, log_r], lr=0.1)
for step in range(20):
    nll, betas = kalman(log_q, log_r, x, y)
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"nll={nll.item():.4f}", "grad norm", f"{torch.cat([log_q.grad, log_r.grad.view(1)]).norm().item():.4f}")
nll, betas = kalman(log_q.detach(), log_r.detach(), x, y)
print(f"final nll {nll.item():.4f}")
print("beta tail", betas[-5:].to(torch.float32))
print("tracking error", f"{(betas[20:] - true_beta[20:]).abs().mean().item():.4f}")
spread = y - betas * x
z = (spread - spread.mean()) / spread.std()
print("z-score signals", int((z > 1).sum()), int((z < -1).sum()))
print("rolling corr", torch.corrcoef(torch.stack([x[-20:], y[-20:]]))[0, 1].to(torch.float32))

# batch OLS beta over rolling windows with unfold and lstsq
xs, ys = x.unfold(0, 20, 10), y.unfold(0, 20, 10)
X = torch.stack([torch.ones_like(xs), xs], dim=-1)
sol = torch.linalg.lstsq(X, ys.unsqueeze(-1)).solution.squeeze(-1)
print("rolling OLS", sol.shape, sol[:, 1].to(torch.float32))
