# Numeric corner cases collected from StackOverflow: fmod vs remainder signs, round-half-to-even
# with decimals, clamp with tensor bounds, nan_to_num, isclose/allclose tolerances, logaddexp.
import torch


def show(label, fn):
    try:
        out = fn()
        print(f"{label:26s}", out)
    except Exception as e:  # noqa: BLE001
        print(f"{label:26s}", type(e).__name__ + ":", e)


a = torch.tensor([5.5, -5.5, 5.5, -5.5, 3.0])
b = torch.tensor([2.0, 2.0, -2.0, -2.0, 1.5])
show("fmod", lambda: torch.fmod(a, b))
show("remainder", lambda: torch.remainder(a, b))
show("int fmod -3", lambda: torch.fmod(torch.tensor([-7, 7, -8]), -3))
show("int remainder -3", lambda: torch.remainder(torch.tensor([-7, 7, -8]), -3))
show("remainder scalar first", lambda: torch.remainder(-5, torch.tensor([3, -3])))
show("floor_divide", lambda: torch.floor_divide(torch.tensor([-7, 7]), 2))
show("trunc div", lambda: torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"))

r = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1.005, 123.456])
show("round", lambda: torch.round(r))
show("round decimals=2", lambda: torch.round(r, decimals=2))
show("round decimals=1", lambda: r.round(decimals=1))
show("round decimals=-1", lambda: torch.round(torch.tensor([15.0, 25.0, 123.0, -35.0]), decimals=-1))
show("round int tensor", lambda: torch.round(torch.tensor([1, 2])))
show("round int decimals", lambda: torch.round(torch.tensor([15, 25]), decimals=-1))
show("float64 round 3", lambda: torch.round(torch.tensor([0.1235, 2.0005], dtype=torch.float64), decimals=3))

v = torch.linspace(-2, 2, 9)
lo = torch.tensor([-1.0, -1.0, -0.5, -0.5, 0.0, 0.0, 0.5, 0.5, 1.0])
hi = lo + 1
show("clamp tensors", lambda: torch.clamp(v, lo, hi))
show("clamp min>max", lambda: torch.clamp(v, min=1.0, max=-1.0))
show("clamp only max tensor", lambda: v.clamp(max=hi))
show("clamp int by float", lambda: torch.clamp(torch.arange(5), min=1.5))
show("clamp int by float tensor", lambda: torch.clamp(torch.arange(5), min=torch.tensor(1.5)))
show("clamp nan", lambda: torch.clamp(torch.tensor([float("nan"), 3.0]), 0, 1))
show("clamp none", lambda: torch.clamp(v))
show("clip", lambda: v.clip(-0.5, 0.5))

bad = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
show("nan_to_num", lambda: torch.nan_to_num(bad))
show("nan_to_num args", lambda: torch.nan_to_num(bad, nan=0.0, posinf=1e6, neginf=-1e6))
show("nan_to_num f64", lambda: torch.nan_to_num(bad.double()))
show("nan_to_num f16", lambda: torch.nan_to_num(bad.half()))
show("nan_to_num int", lambda: torch.nan_to_num(torch.tensor([1, 2])))

p = torch.tensor([1.0, 1.0 + 1e-6, 1.0 + 1e-4, float("nan"), float("inf")])
q = torch.tensor([1.0, 1.0, 1.0, float("nan"), float("inf")])
show("isclose", lambda: torch.isclose(p, q))
show("isclose equal_nan", lambda: torch.isclose(p, q, equal_nan=True))
show("isclose rtol=1e-3", lambda: torch.isclose(p, q, rtol=1e-3, atol=0))
show("isclose atol=0 rtol=0", lambda: torch.isclose(p, q, rtol=0, atol=0))
show("allclose", lambda: torch.allclose(p[:3], q[:3]))
show("allclose tight", lambda: torch.allclose(p[:3], q[:3], rtol=0, atol=1e-5))
show("isclose int", lambda: torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
show("isclose mixed dtype", lambda: torch.isclose(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)))
show("isclose neg tol", lambda: torch.isclose(p, q, rtol=-1))

la = torch.tensor([-1000.0, 0.0, 1000.0, -float("inf"), float("inf")])
lb = torch.tensor([-1000.0, 0.0, 999.0, -float("inf"), 1.0])
show("logaddexp", lambda: torch.logaddexp(la, lb))
show("naive", lambda: torch.log(torch.exp(la) + torch.exp(lb)))
show("logaddexp2", lambda: torch.logaddexp2(torch.tensor([1.0, 10.0]), torch.tensor([1.0, 0.0])))
show("logsumexp", lambda: torch.logsumexp(torch.stack([la, lb]), dim=0))
show("logaddexp int", lambda: torch.logaddexp(torch.tensor([1]), torch.tensor([2])))
