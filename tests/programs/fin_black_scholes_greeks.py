# Black-Scholes call/put prices and Greeks by autograd in float64, as in quant blog notebooks:
# delta/vega/rho/theta from one backward, gamma and vanna/volga via create_graph=True.
import torch
from torch.distributions import Normal

torch.set_printoptions(precision=6)
N = Normal(torch.tensor(0.0, dtype=torch.float64), torch.tensor(1.0, dtype=torch.float64))


def bs_price(S, K, T, r, sigma, call=True):
    d1 = (torch.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * torch.sqrt(T))
    d2 = d1 - sigma * torch.sqrt(T)
    if call:
        return S * N.cdf(d1) - K * torch.exp(-r * T) * N.cdf(d2)
    return K * torch.exp(-r * T) * N.cdf(-d2) - S * N.cdf(-d1)


S = torch.tensor(100.0, dtype=torch.float64, requires_grad=True)
K = torch.tensor(105.0, dtype=torch.float64)
T = torch.tensor(0.75, dtype=torch.float64, requires_grad=True)
r = torch.tensor(0.03, dtype=torch.float64, requires_grad=True)
sigma = torch.tensor(0.22, dtype=torch.float64, requires_grad=True)

call = bs_price(S, K, T, r, sigma)
put = bs_price(S, K, T, r, sigma, call=False)
print("call", call)
print("put", put)
print("parity gap", f"{(call - put - (S - K * torch.exp(-r * T))).item():.2e}")
print("grad_fn", type(call.grad_fn).__name__)

delta, theta_T, rho, vega = torch.autograd.grad(call, (S, T, r, sigma), create_graph=True)
print(f"delta={delta.item():.6f} dC/dT={theta_T.item():.6f} rho={rho.item():.6f} vega={vega.item():.6f}")
(gamma,) = torch.autograd.grad(delta, S, retain_graph=True)
vanna, volga = torch.autograd.grad(vega, (S, sigma), retain_graph=True)
print(f"gamma={gamma.item():.8f} vanna={vanna.item():.8f} volga={volga.item():.6f}")

# analytic checks
d1 = (torch.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * torch.sqrt(T))
pdf = torch.exp(N.log_prob(d1))
print("delta analytic", f"{N.cdf(d1).item():.6f}")
print("gamma analytic", f"{(pdf / (S * sigma * torch.sqrt(T))).item():.8f}")
print("vega analytic", f"{(S * pdf * torch.sqrt(T)).item():.6f}")

# a strike ladder: vectorised prices and per-strike deltas via grad of the sum
spot = torch.full((7,), 100.0, dtype=torch.float64, requires_grad=True)
strikes = torch.linspace(80.0, 120.0, 7, dtype=torch.float64)
prices = bs_price(spot, strikes, torch.tensor(0.5, dtype=torch.float64), torch.tensor(0.01, dtype=torch.float64),
                  torch.tensor(0.3, dtype=torch.float64))
print("ladder", prices)
prices.sum().backward()
print("ladder deltas", spot.grad)

# the same with special.ndtr and torch.erf forms of the normal cdf
x = torch.linspace(-3, 3, 7, dtype=torch.float64)
print("ndtr", torch.special.ndtr(x))
print("erf form", 0.5 * (1 + torch.erf(x / 2 ** 0.5)))
print("Normal.cdf", N.cdf(x))
print("log_ndtr", torch.special.log_ndtr(x))
print("icdf", N.icdf(torch.tensor([0.01, 0.5, 0.975], dtype=torch.float64)))

# Greeks of a put with torch.func
from torch.func import grad, hessian
f = lambda s: bs_price(s, K, torch.tensor(0.75, dtype=torch.float64), torch.tensor(0.03, dtype=torch.float64),
                       torch.tensor(0.22, dtype=torch.float64), call=False)
s0 = torch.tensor(100.0, dtype=torch.float64)
print("put delta func", f"{grad(f)(s0).item():.6f}")
print("put gamma func", f"{hessian(f)(s0).item():.8f}")
