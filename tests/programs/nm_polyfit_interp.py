# Polynomial fitting with torch.vander(increasing=) and linalg.lstsq, Horner evaluation,
# and piecewise-linear interpolation with searchsorted (right=, side=, sorter=) and bucketize.
import torch

x = torch.linspace(-1, 1, 11, dtype=torch.float64)
y = 1 + 2 * x - 3 * x ** 2 + 0.5 * x ** 3
V = torch.vander(x, N=4, increasing=True)
print("vander shape:", V.shape)
print(V[:3])
print(torch.vander(torch.tensor([1, 2, 3])))
print(torch.vander(torch.tensor([1.0, 2.0]), N=0).shape)
sol = torch.linalg.lstsq(V, y.unsqueeze(-1))
coef = sol.solution.squeeze(-1)
print("coef:", [round(c, 6) for c in coef.tolist()])
print("rank:", sol.rank, "residuals:", sol.residuals)
sol2 = torch.linalg.lstsq(V, y.unsqueeze(-1), driver="gelsd")
print("gelsd rank:", sol2.rank.item(), "sv:", sol2.singular_values.round(decimals=4))

def horner(c, t):
    out = torch.zeros_like(t)
    for ci in reversed(c):
        out = out * t + ci
    return out
print("horner:", horner(coef, torch.tensor([0.0, 0.5, 2.0], dtype=torch.float64)).round(decimals=6))

# interpolation
xp = torch.tensor([0.0, 1.0, 2.5, 4.0, 5.0])
fp = torch.tensor([0.0, 2.0, 1.0, 3.0, 0.0])
q = torch.tensor([-0.5, 0.0, 0.7, 1.0, 2.5, 3.9, 5.0, 6.0])
print("left :", torch.searchsorted(xp, q))
print("right:", torch.searchsorted(xp, q, right=True))
print("side :", torch.searchsorted(xp, q, side="right"))
print("int32:", torch.searchsorted(xp, q, out_int32=True).dtype)
print("bucketize:", torch.bucketize(q, xp), torch.bucketize(q, xp, right=True))
print("scalar:", torch.searchsorted(xp, 2.5), torch.bucketize(3, torch.tensor([1, 3, 5])))

def interp(q, xp, fp):
    i = torch.searchsorted(xp, q, right=True).clamp(1, len(xp) - 1)
    x0, x1 = xp[i - 1], xp[i]
    w = ((q - x0) / (x1 - x0)).clamp(0, 1)
    return torch.lerp(fp[i - 1], fp[i], w)
print("interp:", interp(q, xp, fp))

unsorted = torch.tensor([4.0, 0.0, 5.0, 1.0, 2.5])
order = torch.argsort(unsorted)
print("sorter:", torch.searchsorted(unsorted, q, sorter=order))
batch = torch.tensor([[0.0, 1.0, 2.0], [10.0, 20.0, 30.0]])
print("batched:", torch.searchsorted(batch, torch.tensor([[1.5, 0.0], [25.0, 31.0]])))
try:
    torch.searchsorted(xp, q, right=False, side="right")
except RuntimeError as e:
    print(type(e).__name__, e)
