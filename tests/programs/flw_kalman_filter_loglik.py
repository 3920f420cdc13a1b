# Linear-Gaussian state-space model (Kalman filter as in probabilistic time-series tutorials):
# predict/update with MultivariateNormal, innovation log-likelihood, Joseph-form covariance,
# RTS smoother via torch.linalg.solve, and learning the noise scales by gradient descent.
import math
import torch
from torch.distributions import MultivariateNormal

torch.set_default_dtype(torch.float64)
T, dt = 30, 0.1
F_ = torch.tensor([[1.0, dt], [0.0, 1.0]])
H = torch.tensor([[1.0, 0.0]])
t = torch.arange(T) * dt
ys = (torch.sin(2 * t) + 0.05 * torch.cos(37 * t)).unsqueeze(1)


def kalman(log_q, log_r, return_states=False):
    Q = torch.exp(log_q) * torch.tensor([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    R = torch.exp(log_r) * torch.eye(1)
    m, P = torch.zeros(2), torch.eye(2)
    ll = torch.zeros(())
    ms, Ps, mps, Pps = [], [], [], []
    for k in range(T):
        mp, Pp = F_ @ m, F_ @ P @ F_.T + Q
        S = H @ Pp @ H.T + R
        innov = MultivariateNormal(H @ mp, S)
        ll = ll + innov.log_prob(ys[k])
        K = torch.linalg.solve(S, H @ Pp).T
        m = mp + K @ (ys[k] - H @ mp)
        IKH = torch.eye(2) - K @ H
        P = IKH @ Pp @ IKH.T + K @ R @ K.T
        ms.append(m); Ps.append(P); mps.append(mp); Pps.append(Pp)
    if return_states:
        return ll, ms, Ps, mps, Pps
    return ll


log_q = torch.tensor(0.0, requires_grad=True)
log_r = torch.tensor(-2.0, requires_grad=True)
ll, ms, Ps, mps, Pps = kalman(log_q, log_r, return_states=True)
print(f"log-likelihood {ll.item():.4f}")
print(torch.stack(ms[:3]).detach().round(decimals=4))
print(Ps[-1].detach().round(decimals=5))
print(torch.linalg.eigvalsh(Ps[-1].detach()) > 0, torch.linalg.cholesky(Ps[-1].detach()).round(decimals=4))

sm, sP = ms[-1], Ps[-1]
smoothed = [sm]
for k in range(T - 2, -1, -1):
    G = torch.linalg.solve(Pps[k + 1].T, (Ps[k] @ F_.T).T).T
    sm = ms[k] + G @ (sm - mps[k + 1])
    sP = Ps[k] + G @ (sP - Pps[k + 1]) @ G.T
    smoothed.insert(0, sm)
smoothed = torch.stack(smoothed).detach()
print(smoothed[::6].round(decimals=4))
print(f"rmse filter {(torch.stack(ms)[:, 0].detach() - torch.sin(2 * t)).pow(2).mean().sqrt().item():.4f}"
      f" smoother {(smoothed[:, 0] - torch.sin(2 * t)).pow(2).mean().sqrt().item():.4f}")

opt = torch.optim.Adam([log_q, log_r], lr=0.1)
for step in range(25):
    nll = -kalman(log_q, log_r)
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        print(f"step {step:2d} nll {nll.item():.4f} q {log_q.exp().item():.4f} r {log_r.exp().item():.5f}")
print(log_q.grad, log_r.grad)
