# Older library test suites: torch.testing.assert_allclose (deprecated, looser tolerances),
# comparing against NumPy reference arrays, Parameters vs tensors and allow_subclasses=False.
import warnings
import numpy as np
import torch
import torch.nn as nn
from torch.testing import assert_close


def attempt(label, fn):
    try:
        fn()
        print(f"{label}: ok")
    except (AssertionError, TypeError, ValueError) as e:
        print(f"{label}: {type(e).__name__}: {e}")


def numpy_softmax(a, axis):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


x_np = np.linspace(-2.0, 2.0, 12).reshape(3, 4)
x = torch.from_numpy(x_np)

ref = numpy_softmax(x_np, 1)
attempt("softmax vs numpy (as tensor)", lambda: assert_close(torch.softmax(x, 1), torch.from_numpy(ref)))
attempt("softmax vs numpy float32", lambda: assert_close(torch.softmax(x.float(), 1), torch.from_numpy(ref)))
attempt("softmax vs numpy float32 no dtype", lambda: assert_close(torch.softmax(x.float(), 1),
                                                                 torch.from_numpy(ref), check_dtype=False))
attempt("numpy vs numpy", lambda: assert_close(ref, ref + 1e-9))
attempt("numpy vs numpy far", lambda: assert_close(ref, ref * 1.01))
attempt("tensor vs ndarray", lambda: assert_close(torch.softmax(x, 1), ref))
attempt("np scalar vs float", lambda: assert_close(np.float64(ref.sum()), 3.0))
attempt("np float32 scalar", lambda: assert_close(np.float32(1.0), np.float32(1.0 + 1e-6)))

layer = nn.Linear(4, 2)
with torch.no_grad():
    layer.weight.copy_(torch.arange(8.0).reshape(2, 4) / 10)
attempt("param vs tensor", lambda: assert_close(layer.weight, torch.arange(8.0).reshape(2, 4) / 10))
attempt("param vs tensor strict", lambda: assert_close(layer.weight, torch.arange(8.0).reshape(2, 4) / 10,
                                                      allow_subclasses=False))
attempt("param vs param strict", lambda: assert_close(layer.weight, nn.Parameter(layer.weight.detach().clone()),
                                                     allow_subclasses=False))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    attempt("assert_allclose list", lambda: torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.0001]))
    attempt("assert_allclose fail", lambda: torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.1]))
    attempt("assert_allclose nan", lambda: torch.testing.assert_allclose(torch.tensor([float("nan")]),
                                                                      torch.tensor([float("nan")])))
    attempt("assert_allclose dtypes", lambda: torch.testing.assert_allclose(torch.tensor([1, 2]),
                                                                         torch.tensor([1.0, 2.0])))
    attempt("assert_allclose msg", lambda: torch.testing.assert_allclose(torch.tensor([1.0]), torch.tensor([3.0]),
                                                                      msg="custom failure"))
    attempt("assert_allclose f64", lambda: torch.testing.assert_allclose(torch.tensor([1.0], dtype=torch.float64),
                                                                      [1.00002]))
print("warnings:", len(caught), {w.category.__name__ for w in caught})
print(str(caught[0].message))
