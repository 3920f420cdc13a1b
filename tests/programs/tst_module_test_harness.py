# common_nn-style module tests: for each module config, check output shape, gradcheck the module
# in float64 w.r.t. input and parameters, and a state_dict round trip compared with assert_close.
import io
import torch
import torch.nn as nn
from torch.autograd import gradcheck, gradgradcheck
from torch.testing import assert_close

CASES = [
    ("Linear", lambda: nn.Linear(4, 3), (2, 4)),
    ("Conv1d", lambda: nn.Conv1d(2, 3, 3, padding=1), (1, 2, 5)),
    ("LayerNorm", lambda: nn.LayerNorm(4), (3, 4)),
    ("Tanh", lambda: nn.Tanh(), (2, 3)),
    ("Softmax", lambda: nn.Softmax(dim=1), (2, 4)),
    ("GRUCell", lambda: nn.GRUCell(3, 2), (2, 3)),
    ("Bilinear", lambda: nn.Bilinear(2, 3, 2), None),
]


def deterministic_(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + i).reshape(p.shape) * 0.5)
    return module


def make_input(shape):
    n = 1
    for s in shape:
        n *= s
    return torch.cos(torch.arange(n, dtype=torch.float64) * 0.3).reshape(shape).requires_grad_()


for name, ctor, shape in CASES:
    module = deterministic_(ctor().double())
    if shape is None:
        inputs = (make_input((2, 2)), make_input((2, 3)))
    else:
        inputs = (make_input(shape),)
    out = module(*inputs)
    params = tuple(module.parameters())

    def fn(*args):
        ins = args[:len(inputs)]
        ps = args[len(inputs):]
        return torch.func.functional_call(module, {n: p for (n, _), p in
                                                   zip(module.named_parameters(), ps)}, ins)

    ok_input = gradcheck(lambda *a: module(*a), inputs)
    ok_params = gradcheck(fn, inputs + params) if params else "n/a"
    ok_gg = gradgradcheck(lambda *a: module(*a), inputs)
    buf = io.BytesIO()
    torch.save(module.state_dict(), buf)
    buf.seek(0)
    clone = deterministic_(ctor().double())
    with torch.no_grad():
        for p in clone.parameters():
            p.add_(1.0)
    clone.load_state_dict(torch.load(buf))
    assert_close(clone(*inputs), out)
    print(f"{name:10s} out={tuple(out.shape)} dtype={out.dtype} grad_fn={type(out.grad_fn).__name__} "
          f"gradcheck(input)={ok_input} gradcheck(params)={ok_params} gradgrad={ok_gg} "
          f"n_params={sum(p.numel() for p in params)}")

# a deliberately broken module: forward uses a detached weight, so the parameter gradient is wrong
class Leaky(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.linspace(0.5, 1.5, 3, dtype=torch.float64))

    def forward(self, x):
        return x * self.w + (self.w.detach() ** 2 - self.w.detach() ** 2 + self.w ** 2).sum() * 0


m = Leaky()
x = make_input((2, 3))
print("Leaky input grad:", gradcheck(m, (x,)))
w = m.w
print("assert_close on outputs:", end=" ")
try:
    assert_close(m(x), x * 0.5)
except AssertionError as e:
    print(str(e).splitlines()[2])
