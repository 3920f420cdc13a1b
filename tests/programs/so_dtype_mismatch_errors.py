# StackOverflow: "expected scalar type Float but found Double", "mat1 and mat2 must have the same
# dtype", "result type Float can't be cast to the desired output type Long", and the fixes.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        if isinstance(out, torch.Tensor):
            print(label, "->", out.dtype, out)
        else:
            print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


# Q: data loaded from numpy is float64, the model is float32
arr = np.array([[0.5, 1.5], [2.0, -1.0]])
x = torch.from_numpy(arr)
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -1.0]]))
    model.bias.zero_()
attempt("linear double", lambda: model(x))
attempt("fix .float()", lambda: model(x.float()))
attempt("fix model.double()", lambda: nn.Linear(2, 1).double()(x).dtype)
attempt("mm float double", lambda: torch.mm(x.float(), x))
attempt("matmul double float", lambda: x @ x.float())
attempt("bmm dtypes", lambda: torch.bmm(torch.ones(1, 2, 2), torch.ones(1, 2, 2, dtype=torch.float64)))
attempt("conv double", lambda: nn.Conv1d(1, 1, 2)(torch.ones(1, 1, 4, dtype=torch.float64)))
attempt("conv long", lambda: nn.Conv2d(1, 1, 2)(torch.ones(1, 1, 3, 3, dtype=torch.long)))
attempt("embedding weight dtype", lambda: F.embedding(torch.tensor([0]), torch.ones(2, 2)).dtype)

# Q: losses with mismatched dtypes
pred = torch.tensor([0.2, 0.8, 0.6])
attempt("mse double target", lambda: F.mse_loss(pred, torch.tensor([0., 1., 1.], dtype=torch.float64)))
attempt("l1 long target", lambda: F.l1_loss(pred, torch.tensor([0, 1, 1])))
attempt("bce long target", lambda: F.binary_cross_entropy(pred, torch.tensor([0, 1, 1])))
attempt("bce double target", lambda: F.binary_cross_entropy(pred, torch.tensor([0., 1., 1.], dtype=torch.float64)))
attempt("bcewl long target", lambda: F.binary_cross_entropy_with_logits(pred, torch.tensor([0, 1, 1])))
attempt("nll int target", lambda: F.nll_loss(torch.log(torch.tensor([[0.3, 0.7]])), torch.tensor([1], dtype=torch.int32)))
attempt("ce uint8 target", lambda: F.cross_entropy(torch.tensor([[0.3, 0.7]]), torch.tensor([1], dtype=torch.uint8)))
attempt("ce double logits", lambda: F.cross_entropy(torch.tensor([[0.3, 0.7]], dtype=torch.float64), torch.tensor([1])))

# Q: "result type Float can't be cast to the desired output type Long"
counts = torch.tensor([1, 2, 3])
attempt("long += float", lambda: counts.add_(torch.tensor([0.5, 0.5, 0.5])))
attempt("long *= 0.5", lambda: counts.mul_(0.5))
attempt("long /= 2", lambda: counts.div_(2))
attempt("long //= 2", lambda: counts.clone().floor_divide_(2))
attempt("long div floor", lambda: counts.clone().div_(2, rounding_mode="floor"))
attempt("int += double", lambda: torch.ones(2, dtype=torch.int32).add_(torch.ones(2, dtype=torch.float64)))
attempt("float += double ok", lambda: torch.ones(2).add_(torch.ones(2, dtype=torch.float64)))
attempt("bool += 1", lambda: torch.tensor([True, False]).add_(1))
attempt("sub bool", lambda: torch.tensor([True]) - torch.tensor([False]))
attempt("neg bool", lambda: -torch.tensor([True, False]))
attempt("out= dtype", lambda: torch.add(torch.ones(2), 1.5, out=torch.zeros(2, dtype=torch.long)))
attempt("copy_ casts", lambda: torch.zeros(2, dtype=torch.long).copy_(torch.tensor([1.7, -1.7])))
attempt("setitem casts", lambda: counts.clone().__setitem__(0, 2.9))
attempt("where dtypes", lambda: torch.where(torch.tensor([True, False]), torch.tensor([1.0, 2.0]), torch.tensor([1, 2])))
attempt("index_add dtype", lambda: torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)))
attempt("scatter src dtype", lambda: torch.zeros(3).scatter_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)))
attempt("masked_fill long float", lambda: torch.tensor([1, 2]).masked_fill(torch.tensor([True, False]), 0.5))
attempt("floor long", lambda: torch.floor(counts))
attempt("sqrt long", lambda: torch.sqrt(counts))
attempt("mean long dtype arg", lambda: counts.mean(dtype=torch.float32))
attempt("std long", lambda: counts.std())
attempt("pow neg int", lambda: counts ** -1)
attempt("pow neg float", lambda: counts ** -1.0)
