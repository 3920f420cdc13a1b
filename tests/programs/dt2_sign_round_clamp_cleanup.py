# Cleaning up regression outputs and sensor readings: sign/sgn/signbit with -0.0 and ints,
# copysign's float result, nan_to_num defaults per dtype, round with decimals= (half to even),
# and clamp of integer tensors with float or tensor bounds.
import torch

v = torch.tensor([-2.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, float("nan"), float("inf")])
print("sign", torch.sign(v))
print("signbit", torch.signbit(v))
print("sgn", torch.sgn(v))
print("sign int", torch.sign(torch.tensor([-3, 0, 7])), torch.sign(torch.tensor([-3, 0, 7], dtype=torch.int8)).dtype)
print("sign bool", torch.sign(torch.tensor([True, False])))
print("sign uint8", torch.sign(torch.tensor([0, 200], dtype=torch.uint8)))
print("signbit int", torch.signbit(torch.tensor([-1, 0, 1])), torch.signbit(torch.tensor([0, 5], dtype=torch.uint8)))

print("copysign", torch.copysign(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([-0.0, 0.0, -5.0])))
print("copysign int", torch.copysign(torch.tensor([1, 2, 3]), torch.tensor([-1, 0, 1])))
print("copysign scalar", torch.copysign(torch.tensor([1, -2]), -1.0), torch.copysign(torch.tensor([4, 5]), -0.0))
print("copysign f64", torch.copysign(torch.tensor([1.0]), torch.tensor([-1.0], dtype=torch.float64)).dtype)

print("round", torch.round(v))
x = torch.tensor([0.125, 0.375, 1.005, 2.675, -1.25, 12345.678, -0.05])
print("round d=2", torch.round(x, decimals=2))
print("round d=1", torch.round(x, decimals=1))
print("round d=-1", torch.round(torch.tensor([15.0, 25.0, 35.0, -15.0, 1234.0]), decimals=-1))
print("round d=-2", torch.round(torch.tensor([150.0, 250.0, 1234.0]), decimals=-2))
print("round f64 d=3", torch.round(torch.tensor([2.0005, 1.0015], dtype=torch.float64), decimals=3))
print("round f16", torch.round(torch.tensor([0.5, 1.5, 2.5, 1000.5], dtype=torch.float16)))
print("x.round(decimals=1)", x.round(decimals=1))
print("trunc/fix/frac", torch.trunc(v[:3]), torch.fix(v[:3]), torch.frac(torch.tensor([-2.5, 3.75])))
print("floor int", torch.floor(torch.tensor([3, -3])), torch.ceil(torch.tensor([3, -3])).dtype)

m = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
print("nan_to_num", torch.nan_to_num(m))
print("nan_to_num args", torch.nan_to_num(m, nan=0.0, posinf=1e3, neginf=-1e3))
print("nan_to_num f64", torch.nan_to_num(m.double()))
print("nan_to_num int", torch.nan_to_num(torch.tensor([1, 2])), torch.nan_to_num(torch.tensor([1, 2]), nan=5.5))
mm = m.clone()
mm.nan_to_num_(nan=-1.0)
print("in-place", mm)

ints = torch.tensor([-5, 0, 3, 9, 200])
print("clamp ints", ints.clamp(0, 5), ints.clamp(0, 5).dtype)
print("clamp float bounds", ints.clamp(0.5, 4.5), ints.clamp(min=0.5).dtype)
print("clamp min only", ints.clamp(min=-1), ints.clamp(max=2))
print("clamp tensor bounds", ints.clamp(torch.tensor(0), torch.tensor([1, 1, 1, 5, 100])))
print("clamp float tensor bound", ints.clamp(max=torch.tensor(2.5)).dtype)
print("clamp min>max", ints.clamp(5, 0))
print("clip uint8", torch.tensor([0, 100, 255], dtype=torch.uint8).clip(10, 200))
try:
    print("clip uint8 neg", torch.tensor([0, 100, 255], dtype=torch.uint8).clip(-5, 300))
except Exception as e:
    print(type(e).__name__, e)
c = ints.clone()
try:
    c.clamp_(0.5, 4.5)
    print("clamp_ float bounds", c, c.dtype)
except Exception as e:
    print(type(e).__name__, e)
c.clamp_(0, 4)
print("clamp_", c)
try:
    ints.clamp()
except Exception as e:
    print(type(e).__name__, e)
print("clamp nan", v.clamp(-1, 1), torch.clamp(v, min=float("nan"))[:2])
print("clamp bool", torch.tensor([True, False]).clamp(0, 1) if True else None)
