# Mean-variance portfolio optimisation with softmax (long-only) weights: maximise the Sharpe ratio
# from torch.cov of deterministic asset returns, compare with the analytic tangency portfolio.
import torch

torch.set_printoptions(precision=4, sci_mode=False)
dtype = torch.float64
T, n = 250, 5
t = torch.arange(T, dtype=dtype).unsqueeze(1)
k = torch.arange(n, dtype=dtype)
common = 0.01 * torch.sin(t / 7.0)
returns = 0.0004 * (k + 1) + common * (0.5 + 0.2 * k) + 0.008 * torch.sin(t * (1.3 + 0.41 * k) + k)
print("returns", returns.shape)
mu = returns.mean(dim=0)
cov = torch.cov(returns.T)
corr = torch.corrcoef(returns.T)
print("mu", mu * 252)
print("vol", cov.diagonal().sqrt() * 252 ** 0.5)
print("corr", corr)
print("cov aweights", torch.cov(returns.T, aweights=torch.linspace(0.5, 1.5, T, dtype=dtype))[0, :3])
print("cov correction=0", torch.cov(returns.T, correction=0)[0, 0])

logits = torch.zeros(n, dtype=dtype, requires_grad=True)
opt = torch.optim.Adam([logits], lr=0.1)
for step in range(60):
    w = torch.softmax(logits, dim=0)
    port_ret = w @ mu
    port_vol = torch.sqrt(w @ cov @ w)
    sharpe = port_ret / port_vol * 252 ** 0.5
    loss = -sharpe
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 0:
        print(step, f"sharpe={sharpe.item():.4f}")
w = torch.softmax(logits.detach(), 0)
print("weights", w)
print("sum", f"{w.sum().item():.6f}")

# analytic tangency portfolio (unconstrained)
raw = torch.linalg.solve(cov, mu)
tangent = raw / raw.sum()
print("tangency", tangent)
sr = lambda w: (w @ mu / torch.sqrt(w @ cov @ w) * 252 ** 0.5).item()
print(f"tangency sharpe {sr(tangent):.4f} >= softmax {sr(w):.4f}: {sr(tangent) >= sr(w) - 1e-9}")

# min-variance with lagrangian closed form and risk contributions
ones = torch.ones(n, dtype=dtype)
inv = torch.linalg.inv(cov)
w_mv = inv @ ones / (ones @ inv @ ones)
print("min-var", w_mv)
rc = w_mv * (cov @ w_mv) / (w_mv @ cov @ w_mv)
print("risk contrib", rc, f"sum={rc.sum().item():.4f}")

# efficient frontier points with a penalty
for lam in [1.0, 10.0, 100.0]:
    lg = torch.zeros(n, dtype=dtype, requires_grad=True)
    o = torch.optim.SGD([lg], lr=5.0)
    for _ in range(40):
        ww = torch.softmax(lg, 0)
        obj = -(ww @ mu) * 252 + lam / 2 * (ww @ cov @ ww) * 252
        o.zero_grad(); obj.backward(); o.step()
    ww = torch.softmax(lg.detach(), 0)
    print(f"lam={lam:>5} ret={(ww @ mu * 252).item():.4f} vol={((ww @ cov @ ww) * 252).sqrt().item():.4f}")
