# StackOverflow: "why does PyTorch give a different number?" — float32 vs float64, integer
# division and overflow, rounding half to even, arange with float steps, nan/inf, argmax ties.
import math

import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


attempt("0.1 + 0.2 float32", lambda: torch.tensor(0.1) + torch.tensor(0.2) == torch.tensor(0.3))
attempt("0.1 + 0.2 item", lambda: (torch.tensor(0.1) + torch.tensor(0.2)).item())
attempt("float64 item", lambda: (torch.tensor(0.1, dtype=torch.float64) + 0.2).item())
attempt("isclose fix", lambda: torch.isclose(torch.tensor(0.1) + torch.tensor(0.2), torch.tensor(0.3)))
attempt("allclose", lambda: torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6])))
attempt("allclose shapes", lambda: torch.allclose(torch.ones(2), torch.ones(3)))
attempt("allclose dtypes", lambda: torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64)))
attempt("equal", lambda: torch.equal(torch.ones(2), torch.ones(2, dtype=torch.long)))
attempt("big float32", lambda: torch.tensor(16777217.0).item())
attempt("pi float32", lambda: torch.tensor(math.pi).item())
attempt("sum 1e8 float32", lambda: torch.full((10,), 1e8).sum() + 1 - 1e9)

attempt("arange float len", lambda: torch.arange(0, 1, 0.1).shape)
attempt("arange 1.0 step 0.3", lambda: torch.arange(1.0, 2.0, 0.3))
attempt("arange bad step", lambda: torch.arange(0, 5, -1))
attempt("arange zero step", lambda: torch.arange(0, 5, 0))
attempt("linspace", lambda: torch.linspace(0, 1, 5))
attempt("linspace steps 1", lambda: torch.linspace(0, 1, 1))

attempt("round half even", lambda: torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5])))
attempt("round decimals", lambda: torch.round(torch.tensor([1.2345, 2.5551]), decimals=2))
attempt("int() truncates", lambda: torch.tensor([-1.7, 1.7]).int())
attempt("long div neg", lambda: torch.tensor([-7, 7]) // 2)
attempt("trunc div", lambda: torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"))
attempt("remainder neg", lambda: torch.tensor([-7, 7]) % 3)
attempt("fmod neg", lambda: torch.fmod(torch.tensor([-7, 7]), 3))
attempt("int div by zero", lambda: torch.tensor([1]) // 0)
attempt("int % zero", lambda: torch.tensor([1]) % 0)
attempt("float div zero", lambda: torch.tensor([1.0, -1.0, 0.0]) / 0)
attempt("int8 overflow", lambda: torch.tensor([127], dtype=torch.int8) + 1)
attempt("uint8 wrap", lambda: torch.tensor([0], dtype=torch.uint8) - 1)
attempt("uint8 from -1", lambda: torch.tensor([-1]).to(torch.uint8))
attempt("sum int8 dtype", lambda: torch.tensor([100, 100], dtype=torch.int8).sum())
attempt("cumsum int8 dtype", lambda: torch.tensor([100, 100], dtype=torch.int8).cumsum(0))
attempt("prod int32", lambda: torch.tensor([2 ** 20, 2 ** 20], dtype=torch.int32).prod().dtype)

attempt("nan == nan", lambda: torch.tensor(float("nan")) == torch.tensor(float("nan")))
attempt("max with nan", lambda: torch.tensor([1.0, float("nan"), 3.0]).max())
attempt("argmax with nan", lambda: torch.tensor([1.0, float("nan"), 3.0]).argmax())
attempt("nansum", lambda: torch.tensor([1.0, float("nan"), 3.0]).nansum())
attempt("nanmean", lambda: torch.tensor([1.0, float("nan"), 3.0]).nanmean())
attempt("log 0", lambda: torch.log(torch.tensor([0.0, -1.0])))
attempt("sqrt neg", lambda: torch.sqrt(torch.tensor(-4.0)))
attempt("exp overflow", lambda: torch.exp(torch.tensor([88.0, 89.0])))
attempt("softmax large", lambda: torch.softmax(torch.tensor([1000.0, 1000.0, -1000.0]), 0))
attempt("naive softmax", lambda: torch.exp(torch.tensor([1000.0, 0.0])) / torch.exp(torch.tensor([1000.0, 0.0])).sum())
attempt("argmax ties", lambda: torch.tensor([3, 1, 3, 3]).argmax())
attempt("max dim ties", lambda: torch.tensor([[2, 5, 5], [7, 7, 1]]).max(dim=1))
attempt("sort stable", lambda: torch.tensor([2, 1, 2, 1]).sort(stable=True))
attempt("mean int dim", lambda: torch.tensor([[1, 2], [3, 4]]).float().mean(dim=0))
attempt("var unbiased", lambda: torch.tensor([1.0, 2.0, 3.0, 4.0]).var())
attempt("var biased", lambda: torch.tensor([1.0, 2.0, 3.0, 4.0]).var(unbiased=False))
attempt("std single", lambda: torch.tensor([1.0]).std())
attempt("mean empty", lambda: torch.tensor([]).mean())
attempt("max empty", lambda: torch.tensor([]).max())
attempt("sum empty", lambda: torch.tensor([]).sum())
