# Least-squares polynomial fit as in scientific-computing blog posts: torch.linalg.lstsq and its
# named fields (solution / residuals / rank / singular_values) across drivers and batch shapes.
import torch

torch.set_printoptions(precision=4)

x = torch.linspace(0, 1, 8, dtype=torch.float64)
y = 1.5 - 2.0 * x + 0.5 * x ** 2 + 0.01 * torch.sin(7 * x)
A = torch.stack([torch.ones_like(x), x, x ** 2], dim=1)
print("A shape", A.shape)

res = torch.linalg.lstsq(A, y.unsqueeze(1))
print(type(res).__name__)
print("solution", res.solution.squeeze())
print("residuals", res.residuals)
print("rank", res.rank)
print("singular_values", res.singular_values)

for driver in ["gels", "gelsy", "gelsd", "gelss"]:
    r = torch.linalg.lstsq(A, y.unsqueeze(1), driver=driver)
    print(driver, r.solution.squeeze(), "rank:", r.rank, "res:", r.residuals,
          "sv shape:", tuple(r.singular_values.shape))

# float32 default driver
r32 = torch.linalg.lstsq(A.float(), y.float().unsqueeze(1))
print("float32", r32.solution.squeeze(), r32.solution.dtype, r32.residuals.dtype, r32.rank)

# batched: 2 datasets, multiple right-hand sides
B = torch.stack([A, A * 2])
Y = torch.stack([torch.stack([y, 2 * y], 1), torch.stack([y + 1, y - 1], 1)])
rb = torch.linalg.lstsq(B, Y)
print("batched solution shape", rb.solution.shape)
print("batched residuals", rb.residuals)
print(rb.solution)

# rank-deficient design matrix (duplicated column)
Ad = torch.cat([A, A[:, :1]], dim=1)
rd = torch.linalg.lstsq(Ad, y.unsqueeze(1), driver="gelsd")
print("deficient rank", rd.rank, "res", rd.residuals)
print("deficient fitted", (Ad @ rd.solution).squeeze())

# underdetermined system: minimum-norm solution, empty residuals
Au = A.T.contiguous()
ru = torch.linalg.lstsq(Au, torch.tensor([[1.0], [0.3], [0.7]], dtype=torch.float64), driver="gelsd")
print("underdetermined", ru.solution.squeeze(), ru.residuals.shape, ru.rank)

# unpacking as a tuple
sol, resid, rank, sv = torch.linalg.lstsq(A, y.unsqueeze(1), driver="gelsd")
print(sol.shape, resid.shape, rank, sv.shape)

# 1-D b is an error
try:
    torch.linalg.lstsq(A, y)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.lstsq(A, y.unsqueeze(1), driver="foo")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.lstsq(A.float(), y.unsqueeze(1))
except Exception as e:
    print(type(e).__name__, e)
