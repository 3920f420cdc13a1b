# Comparing tensors the way test utilities do: torch.equal, allclose / isclose with nan and
# inf, testing.assert_close messages, and tensors as dict keys / set members (identity hash).
import torch

a = torch.tensor([1.0, 2.0, float("nan"), float("inf")])
b = torch.tensor([1.0, 2.0 + 1e-7, float("nan"), float("inf")])
print(torch.equal(a, a), torch.equal(a[:2], b[:2]), torch.equal(torch.ones(2), torch.ones(3)))
print(torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.])), torch.equal(torch.empty(0), torch.empty(0, 1)))
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True))
print(torch.allclose(a, b), torch.allclose(a, b, equal_nan=True))
print(torch.isclose(torch.tensor([float("inf"), -float("inf")]), torch.tensor([float("inf"), float("inf")])))
print(torch.isclose(torch.tensor([1e-9, 1.0]), torch.tensor([0.0, 1.001]), rtol=1e-3, atol=0.0))
print(torch.allclose(torch.tensor([1, 2]), torch.tensor([1, 2])), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
try:
    torch.allclose(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor(1.0)))
print((a == a), (a != a), a.eq(b).all(), torch.eq(a, b).sum())
print(torch.isnan(a).any().item(), torch.isfinite(a), torch.isinf(a).nonzero().flatten())

t = torch.tensor([1, 2, 3])
u = torch.tensor([1, 2, 3])
d = {t: "t", u: "u"}
print(len(d), d[t], t in d, hash(t) == id(t) or hash(t) == hash(t))
print(len({t, u, t}))
try:
    bool(t == u)
except RuntimeError as e:
    print(type(e).__name__, e)
print(bool(torch.tensor([True])), (t == u).all().item(), t.tolist() == u.tolist())
print(torch.equal(t, u), t.equal(u), torch.eq(t, u), t is u)
print(2 in t, 5 in t, torch.tensor([3, 4]) in torch.tensor([[1, 2], [3, 4]]))
try:
    print("a" in t)
except RuntimeError as e:
    print(type(e).__name__, e)
print(t == "abc", t != "abc", [t.tolist()].index([1, 2, 3]))

torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
except AssertionError as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(str(e).splitlines()[1:])
try:
    torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except AssertionError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    torch.testing.assert_close(torch.ones(2), torch.ones(3))
except AssertionError as e:
    print(type(e).__name__, str(e))
torch.testing.assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
try:
    torch.testing.assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]))
except AssertionError as e:
    print(type(e).__name__, str(e).splitlines()[0])
torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
print("close")
x = torch.arange(6.).view(2, 3)
print(torch.equal(x.t().contiguous().t(), x), x.t().is_contiguous(), torch.equal(x.T, x.t()))
print(torch.equal(torch.tensor([0.0]), torch.tensor([-0.0])), torch.tensor(0.0).eq(-0.0).item())
print(torch.maximum(a, torch.tensor(0.0)), torch.fmax(a, torch.tensor([0., 5., 1., 0.])))
