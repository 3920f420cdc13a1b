# "RuntimeError: result type Float can't be cast to the desired output type Long" -- in-place ops
# and out= on integer/bool tensors, and what does silently work (setitem, copy_, fill_ truncate).
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label:28s} ->", out)
    except Exception as e:  # noqa: BLE001
        print(f"{label:28s} ->", type(e).__name__ + ":", e)


def fresh():
    return torch.tensor([1, 2, 3])


attempt("long += 1", lambda: fresh().add_(1))
attempt("long += 1.5", lambda: fresh().add_(1.5))
attempt("long *= 2.0", lambda: fresh().mul_(2.0))
attempt("long /= 2", lambda: fresh().div_(2))
attempt("long.div_(2, floor)", lambda: fresh().div_(2, rounding_mode="floor"))
attempt("long += float tensor", lambda: fresh().add_(torch.tensor([0.5, 0.5, 0.5])))
attempt("long += 0-dim float", lambda: fresh().add_(torch.tensor(0.5)))
attempt("long += int32", lambda: fresh().add_(torch.tensor([1, 1, 1], dtype=torch.int32)))
attempt("int32 += long", lambda: torch.tensor([1, 2], dtype=torch.int32).add_(torch.tensor([5, 5])))
attempt("uint8 -= 5", lambda: torch.tensor([1, 2], dtype=torch.uint8).sub_(5))
attempt("bool += 1", lambda: torch.tensor([True, False]).add_(1))
attempt("bool |= True", lambda: torch.tensor([True, False]).logical_or_(torch.tensor(True)))
attempt("bool.mul_(bool)", lambda: torch.tensor([True, False]).mul_(torch.tensor([True, True])))
attempt("float32 += float64", lambda: torch.tensor([1.0]).add_(torch.tensor([0.1], dtype=torch.float64)))
attempt("float32 += int", lambda: torch.tensor([1.0]).add_(torch.tensor([2])))
attempt("long.sqrt_()", lambda: fresh().sqrt_())
attempt("long.exp_()", lambda: fresh().exp_())
attempt("long.sigmoid_()", lambda: fresh().sigmoid_())
attempt("long.clamp_(0.5, 2.5)", lambda: fresh().clamp_(0.5, 2.5))
attempt("long.pow_(2)", lambda: fresh().pow_(2))
attempt("long.pow_(0.5)", lambda: fresh().pow_(0.5))
attempt("long.neg_()", lambda: fresh().neg_())
attempt("long.abs_()", lambda: torch.tensor([-1, 2]).abs_())
attempt("long.floor_()", lambda: fresh().floor_())
attempt("long.round_()", lambda: fresh().round_())
attempt("long.mean()", lambda: fresh().mean())
attempt("long.std()", lambda: fresh().std())
attempt("long.var()", lambda: fresh().var())
attempt("torch.mean(long, dim=0)", lambda: torch.mean(fresh(), dim=0))
attempt("long.float().mean()", lambda: fresh().float().mean())
attempt("long.sum() / numel", lambda: fresh().sum() / fresh().numel())
attempt("long.median()", lambda: torch.tensor([1, 4, 2, 3]).median())
attempt("long.norm()", lambda: fresh().norm())
attempt("torch.sqrt(long)", lambda: torch.sqrt(torch.tensor([4, 9])))
attempt("torch.exp(long)", lambda: torch.exp(torch.tensor([0, 1])))
attempt("torch.sigmoid(bool)", lambda: torch.sigmoid(torch.tensor([True])))

out = torch.empty(3, dtype=torch.int64)
attempt("add out=long float", lambda: torch.add(fresh(), 0.5, out=out))
attempt("mul out=long", lambda: torch.mul(fresh(), 3, out=out))
outf = torch.empty(3)
attempt("add out=float long", lambda: torch.add(fresh(), 1, out=outf))
attempt("div out=long", lambda: torch.div(fresh(), 2, out=out))
attempt("div floor out=long", lambda: torch.div(fresh(), 2, rounding_mode="floor", out=out))

x = fresh()
x[0] = 9.99
x[1] = -1.5
print("setitem truncates", x)
x[x > 2] = 0.5
print("masked setitem", x)
y = fresh()
y.copy_(torch.tensor([1.9, -2.9, 3.5]))
print("copy_ truncates", y)
z = torch.zeros(3, dtype=torch.int64)
z.masked_fill_(torch.tensor([True, False, True]), 7.9)
print("masked_fill_ float", z)
attempt("masked_fill_ -inf", lambda: torch.zeros(2, dtype=torch.int64).masked_fill(torch.tensor([True, False]), float("-inf")))
attempt("masked_fill_ nan", lambda: torch.zeros(2, dtype=torch.int64).masked_fill(torch.tensor([True, False]), float("nan")))
attempt("float.masked_fill -inf", lambda: torch.zeros(2).masked_fill(torch.tensor([True, False]), float("-inf")))
attempt("index_add_ float src", lambda: torch.zeros(3, dtype=torch.int64).index_add_(0, torch.tensor([0]), torch.tensor([1.5])))
attempt("scatter_add_ mixed", lambda: torch.zeros(3).scatter_add_(0, torch.tensor([0, 0]), torch.tensor([1, 2])))
attempt("where(int, float)", lambda: torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5))
attempt("where(int, int tensor)", lambda: torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([1.5, 2.5])))
