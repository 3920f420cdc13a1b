# Implied volatility by Newton's method where vega comes from autograd (float64), vectorised
# over a smile of strikes, plus a bisection fallback and a torch.no_grad update loop.
import torch

dtype = torch.float64
N = torch.distributions.Normal(torch.zeros((), dtype=dtype), torch.ones((), dtype=dtype))


def bs_call(S, K, T, r, vol):
    sqrtT = T ** 0.5
    d1 = (torch.log(S / K) + (r + vol * vol / 2) * T) / (vol * sqrtT)
    return S * N.cdf(d1) - K * torch.exp(torch.as_tensor(-r * T, dtype=dtype)) * N.cdf(d1 - vol * sqrtT)


S, T, r = torch.tensor(100.0, dtype=dtype), 0.5, 0.01
strikes = torch.tensor([80.0, 90.0, 100.0, 110.0, 120.0], dtype=dtype)
true_vol = 0.2 + 0.5 * ((strikes / S).log()) ** 2
market = bs_call(S, strikes, T, r, true_vol)
print("market", market)

vol = torch.full_like(strikes, 0.5).requires_grad_()
for it in range(8):
    price = bs_call(S, strikes, T, r, vol)
    diff = price - market
    (vega,) = torch.autograd.grad(price.sum(), vol)
    with torch.no_grad():
        vol -= diff / vega
    err = diff.abs().max().item()
    print(it, f"max|err|={err:.3e}" if err > 1e-9 else "converged")
print("implied", vol.detach())
print("true   ", true_vol)
print("close", torch.allclose(vol.detach(), true_vol, atol=1e-10))
print("requires_grad after loop", vol.requires_grad, vol.is_leaf, vol.grad)

# scalar Newton with .backward() and zeroing grads
iv = torch.tensor(0.1, dtype=dtype, requires_grad=True)
target = torch.tensor(7.5, dtype=dtype)
for it in range(20):
    if iv.grad is not None:
        iv.grad.zero_()
    p = bs_call(S, torch.tensor(100.0, dtype=dtype), T, r, iv)
    p.backward()
    step = (p - target).item() / iv.grad.item()
    with torch.no_grad():
        iv.sub_(step)
    if abs(step) < 1e-12:
        break
print("atm iv", f"{iv.item():.10f}", "iters", it)

# bisection with torch.where, vectorised
lo = torch.full_like(strikes, 1e-4)
hi = torch.full_like(strikes, 3.0)
for _ in range(60):
    mid = (lo + hi) / 2
    too_high = bs_call(S, strikes, T, r, mid) > market
    hi = torch.where(too_high, mid, hi)
    lo = torch.where(too_high, lo, mid)
print("bisection", ((lo + hi) / 2))
print("max diff vs newton", f"{((lo + hi) / 2 - vol.detach()).abs().max().item():.1e}")

# Brenner-Subrahmanyam initial guess
guess = (2 * torch.pi / T) ** 0.5 * market / S
print("guess", guess.to(torch.float32))
