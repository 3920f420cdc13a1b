# Edge cases a test suite hits with gradcheck: unused / non-tensor / empty / 0-dim inputs,
# views and identity outputs, float32 outputs of float64 inputs, NaN and inf Jacobians.
import torch
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError


def run(name, fn, inputs, **kw):
    try:
        print(f"{name}: {gradcheck(fn, inputs, **kw)}")
    except GradcheckError as e:
        print(f"{name}: GradcheckError\n{e}")
    except (RuntimeError, ValueError, AttributeError) as e:
        print(f"{name}: {type(e).__name__}: {e}")


x = torch.linspace(0.2, 1.0, 4, dtype=torch.float64, requires_grad=True)
y = torch.linspace(-1.0, 0.5, 4, dtype=torch.float64, requires_grad=True)

run("unused input", lambda a, b: a * 2, (x, y))
run("integer output only", lambda a: a.argmax(), (x,))
run("None among inputs", lambda a, n: a * 2, (x, None))
run("python number input", lambda a, k: a ** k, (x, 3))
run("dict output", lambda a: {"out": a * 2}, (x,))
run("empty input", lambda a: a * 2, (torch.empty(0, dtype=torch.float64, requires_grad=True),))
run("0-dim input", lambda a: a * a, (torch.tensor(0.5, dtype=torch.float64, requires_grad=True),))
run("identity", lambda a: a, (x,))
run("view output", lambda a: a[1:3], (x,))
run("two outputs", lambda a: (a, a * 2), (x,))
run("transposed input", torch.sin,
    (torch.linspace(0, 1, 12, dtype=torch.float64).reshape(3, 4).t().requires_grad_(),))
run("in-place on leaf", lambda a: a.mul_(2), (x.detach().clone().requires_grad_(),))
run("in-place on copy", lambda a: a.clone().mul_(2).exp_(), (x,))
run("float32 output", lambda a: a.float() * 2, (x,))
run("NaN jacobian", lambda a: a.log() * float("nan"), (x,))
run("inf jacobian", lambda a: a / 0, (x,))
run("large eps linear", lambda a: a * 3, (x,), eps=0.5)
run("module", torch.nn.Linear(4, 2).double(), (x.reshape(1, 4),))
print("gradgradcheck unused:", gradgradcheck(lambda a, b: a * 2 + b ** 2, (x, y)))
print("gradgradcheck bilinear:", gradgradcheck(lambda a, b: a * b, (x, y)))
print("gradgradcheck fast:", gradgradcheck(torch.sin, (x,), fast_mode=True))
