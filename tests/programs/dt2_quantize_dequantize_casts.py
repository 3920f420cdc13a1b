# Manual int8 quantize/dequantize of activations (as in post-training quantization tutorials):
# scale/zero-point arithmetic mixing float32 with int tensors and 0-d tensors, casts that
# truncate toward zero vs round, type_as / .to / .half(), unsigned abs/neg, integer pow errors.
import torch

act = torch.linspace(-3.2, 5.1, 10)
qmin, qmax = -128, 127
scale = (act.max() - act.min()) / (qmax - qmin)
zero_point = qmin - torch.round(act.min() / scale)
print("scale", f"{scale.item():.6f}", scale.dtype, "zp", zero_point, zero_point.dtype)
zp = zero_point.to(torch.int32)
print("zp int", zp, zp.dtype, zp.ndim)

q_trunc = (act / scale + zero_point).to(torch.int8)
q_round = torch.clamp(torch.round(act / scale) + zero_point, qmin, qmax).to(torch.int8)
print("q trunc", q_trunc)
print("q round", q_round)
print("differ", (q_trunc != q_round).sum().item())
deq = (q_round - zp) * scale
print("deq dtype", deq.dtype, (q_round - zp).dtype, (q_round.float() - zp).dtype)
print("max err", f"{(deq - act).abs().max().item():.4f}")

# 0-d tensors vs n-d: dim tensors win within a category
i8 = torch.tensor([1, 2, 3], dtype=torch.int8)
print("int8 + int64 0-d", (i8 + torch.tensor(1000)).dtype, i8 + torch.tensor(1000))
print("int8 * float64 0-d", (i8 * torch.tensor(0.5, dtype=torch.float64)).dtype)
print("f16 + f64 0-d", (torch.ones(2, dtype=torch.float16) + torch.tensor(1e-4, dtype=torch.float64)))
print("0-d + 0-d", (torch.tensor(1, dtype=torch.int8) + torch.tensor(1000)).dtype)
print("int8 + int16 1-d", (i8 + torch.tensor([1000], dtype=torch.int16)).dtype)
print("uint8 + int8", (torch.tensor([200], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print("bool + 0-d int", (torch.tensor([True, False]) + torch.tensor(3)).dtype)
print("result_type 0-d", torch.result_type(i8, torch.tensor(2.0, dtype=torch.float64)),
      torch.result_type(torch.tensor(2.0, dtype=torch.float64), 1))

# casts: truncation toward zero, type_as, .half()
f = torch.tensor([-2.7, -1.5, -0.4, 0.4, 1.5, 2.7, 127.9, -128.9])
print("long", f.long(), "int", f.int(), "short", f.short())
print("int8", f.to(torch.int8), "type_as", f.type_as(i8))
print("round then long", f.round().long())
print("half", f.half(), "back", f.half().float())
print("double", f.double().dtype, f.to(torch.float64).dtype, f.type(torch.DoubleTensor).dtype)
print("type str", f.type(), i8.type(), f.half().type())
print("to same", f.to(torch.float32) is f, f.to(torch.float32, copy=True) is f)
print("bool cast", f.bool(), torch.tensor([0.0, -0.0, 1e-30]).bool())
print("to(other)", i8.to(f), i8.to(f).dtype)

# unsigned abs/neg and integer pow
u = torch.tensor([0, 1, 200, 255], dtype=torch.uint8)
print("abs u8", u.abs(), "neg u8", -u, "neg int8", -torch.tensor([-128, 5], dtype=torch.int8))
print("abs int8 min", torch.tensor([-128, -5], dtype=torch.int8).abs())
for what, fn in [("int ** -1", lambda: torch.tensor([1, 2, 4]) ** -1),
                 ("int pow(-2)", lambda: torch.pow(torch.tensor([2]), -2)),
                 ("int ** tensor neg", lambda: torch.tensor([2, 3]) ** torch.tensor([-1, 2])),
                 ("int ** -1.0", lambda: torch.tensor([1, 2, 4]) ** -1.0),
                 ("2 ** int", lambda: 2 ** torch.tensor([0, 3, 10])),
                 ("2.0 ** int", lambda: 2.0 ** torch.tensor([0, 3, 10])),
                 ("int ** 0.5", lambda: torch.tensor([4, 9]) ** 0.5),
                 ("u8 ** 2", lambda: u ** 2),
                 ("int8 ** 2", lambda: torch.tensor([12, -12], dtype=torch.int8) ** 2),
                 ("-u8 bool", lambda: -torch.tensor([True]))]:
    try:
        r = fn()
        print(what, r, r.dtype)
    except Exception as e:
        print(what, type(e).__name__, e)

# in-place that would need a wider type
acc = torch.zeros(3, dtype=torch.int32)
for what, fn in [("+= 0.5", lambda: acc.add_(0.5)), ("*= float t", lambda: acc.mul_(torch.tensor([1.5, 1, 1]))),
                 ("/= 2", lambda: acc.div_(2)), ("//= 2", lambda: acc.floor_divide_(2)),
                 ("+= int64", lambda: acc.add_(torch.tensor([1, 2, 3]))),
                 ("+= f64 0-d", lambda: acc.add_(torch.tensor(1.0, dtype=torch.float64))),
                 ("u8 -= 1", lambda: u.clone().sub_(1)), ("bool += 1", lambda: torch.tensor([True]).add_(1))]:
    try:
        r = fn()
        print(what, r, r.dtype)
    except Exception as e:
        print(what, type(e).__name__, e)
