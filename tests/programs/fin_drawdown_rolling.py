# Equity curves and risk stats as in quant notebooks: cumprod of (1+r), running peak with cummax,
# max drawdown, rolling mean/vol with unfold, historical VaR/CVaR with torch.quantile modes.
import torch

torch.set_printoptions(precision=5)
dtype = torch.float64
t = torch.arange(60, dtype=dtype)
r = 0.01 * torch.sin(t / 3.0) + 0.004 * torch.cos(t * 1.7) - 0.001
equity = torch.cumprod(1 + r, dim=0)
print("final equity", f"{equity[-1].item():.6f}")
log_eq = torch.cumsum(torch.log1p(r), dim=0)
print("cumprod==exp(cumsum log1p)", torch.allclose(equity, log_eq.exp()))
peak, peak_idx = torch.cummax(equity, dim=0)
dd = equity / peak - 1
print("max drawdown", f"{dd.min().item():.5f}", "at", dd.argmin().item(), "peak idx", peak_idx[dd.argmin()].item())
print("drawdown head", dd[:8])
trough = torch.cummin(equity, dim=0)
print("cummin type", type(trough).__name__, trough.indices[-5:])

# rolling windows with unfold
w = 10
win = r.unfold(0, w, 1)
print("windows", win.shape, win.stride())
roll_mean = win.mean(-1)
roll_vol = win.std(-1) * 252 ** 0.5
print("rolling mean", roll_mean[:5])
print("rolling vol", roll_vol[-5:])
step_win = r.unfold(0, 20, 20)
print("monthly sums", step_win.sum(-1))
eq2 = torch.stack([equity, equity ** 0.5])
print("2d unfold", eq2.unfold(1, 5, 25).shape)

# VaR / CVaR with quantile interpolation modes
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    q = torch.quantile(r, 0.05, interpolation=mode)
    print(f"VaR95 {mode:8s} {-q.item():.6f}")
q = torch.quantile(r, torch.tensor([0.01, 0.05, 0.5], dtype=dtype))
print("quantiles", q)
var95 = torch.quantile(r, 0.05)
cvar = -r[r <= var95].mean()
print("CVaR95", f"{cvar.item():.6f}")
print("per-window quantile", torch.quantile(win, 0.1, dim=1, keepdim=True).shape)
print("median", r.median(), torch.nanmedian(r))
rn = r.clone(); rn[3] = float("nan")
print("nanquantile", torch.nanquantile(rn, 0.05), "quantile with nan", torch.quantile(rn, 0.05))
try:
    torch.quantile(r, 1.5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.quantile(r.float(), torch.tensor([0.5], dtype=dtype))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.quantile(r, 0.5, interpolation="cubic")
except RuntimeError as e:
    print("RuntimeError", e)

# gradient of max drawdown wrt returns (subgradient through cummax)
rr = r.clone().requires_grad_()
eq = torch.cumprod(1 + rr, 0)
mdd = (eq / torch.cummax(eq, 0).values - 1).min()
mdd.backward()
print("mdd grad nonzero", int((rr.grad != 0).sum()), "grad_fn", type(mdd.grad_fn).__name__)
print("cumsum grad", torch.autograd.grad(torch.cumsum(rr, 0)[::10].sum(), rr)[0][:12])
print("logcumsumexp", torch.logcumsumexp(r[:6], 0))
print("cumulative_trapezoid", torch.cumulative_trapezoid(r[:6]))
