# Forum question: arithmetic between tensors and the wrong Python objects — lists, numpy arrays,
# None, strings, tuples — plus alpha= misuse, int tensors in math functions, and comparisons.
import numpy as np
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


t = torch.tensor([1.0, 2.0, 3.0])
i = torch.tensor([1, 2, 3])
attempt("t + list", lambda: t + [1, 2, 3])
attempt("list + t", lambda: [1, 2, 3] + t)
attempt("t * tuple", lambda: t * (1, 2, 3))
attempt("t + None", lambda: t + None)
attempt("t + '1'", lambda: t + "1")
attempt("t == None", lambda: t == None)  # noqa: E711
attempt("t is None", lambda: t is None)
attempt("t < 'a'", lambda: t < "a")
attempt("t + np array", lambda: t + np.ones(3))
attempt("np array + t", lambda: type(np.ones(3) + t).__name__)
attempt("t + np.float64", lambda: (t + np.float64(1.5)).dtype)
attempt("np.float64 * t", lambda: type(np.float64(2.0) * t).__name__)
attempt("t + np int scalar", lambda: (i + np.int64(2)).dtype)
attempt("torch.add list", lambda: torch.add(t, [1, 2, 3]))
attempt("torch.add alpha float on int", lambda: torch.add(i, i, alpha=0.5))
attempt("torch.add alpha int", lambda: torch.add(i, i, alpha=2))
attempt("torch.sub bool alpha", lambda: torch.sub(t, t, alpha=True))
attempt("torch.mul 3 args", lambda: torch.mul(t, t, t))
attempt("torch.pow list", lambda: torch.pow(t, [2, 2, 2]))
attempt("torch.pow two numbers", lambda: torch.pow(2, 3))
attempt("torch.exp python float", lambda: torch.exp(1.0))
attempt("torch.exp int tensor", lambda: torch.exp(i))
attempt("torch.sqrt negative", lambda: torch.sqrt(torch.tensor([-1.0])))
attempt("torch.log int", lambda: torch.log(i))
attempt("torch.floor int", lambda: torch.floor(i))
attempt("torch.round decimals int", lambda: torch.round(i, decimals=1))
attempt("torch.clamp no bounds", lambda: torch.clamp(t))
attempt("torch.clamp min>max", lambda: torch.clamp(t, min=3, max=1))
attempt("torch.clamp tensor+number", lambda: torch.clamp(t, min=torch.tensor(1.5), max=2))
attempt("torch.abs bool", lambda: torch.abs(torch.tensor([True])))
attempt("sum dtype int", lambda: t.sum(dtype=torch.int64))
attempt("mean int", lambda: i.mean())
attempt("mean int dtype float", lambda: i.mean(dtype=torch.float32))
attempt("std int", lambda: i.std())
attempt("var 1 element", lambda: torch.tensor([1.0]).var())
attempt("norm int", lambda: i.norm())
attempt("float(t)", lambda: float(t))
attempt("int(t[0])", lambda: int(t[0]))
attempt("len 0-d", lambda: len(torch.tensor(1.0)))
attempt("iter 0-d", lambda: list(torch.tensor(1.0)))
attempt("t[None] shape", lambda: t[None].shape)
attempt("index with float", lambda: t[1.0])
attempt("index with np int64", lambda: t[np.int64(1)])
attempt("index with tuple of lists", lambda: torch.arange(9).view(3, 3)[[0, 1], [1, 2]])
attempt("bool(t > 2)", lambda: bool(t > 2))
attempt("any to bool", lambda: bool((t > 2).any()))
