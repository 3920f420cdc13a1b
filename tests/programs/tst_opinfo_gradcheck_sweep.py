# test_ops_gradients-style sweep: every op in a small OpInfo table is checked with gradcheck and
# gradgradcheck (check_batched_grad, check_forward_ad, check_batched_forward_grad) in float64.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck


def sample(*shape, lo=-1.5, hi=1.5):
    n = 1
    for s in shape:
        n *= s
    return torch.linspace(lo, hi, n, dtype=torch.float64).reshape(shape).requires_grad_()


OPS = [
    ("add", lambda a, b: a + b, lambda: (sample(2, 3), sample(2, 3, lo=0.1))),
    ("mul_broadcast", lambda a, b: a * b, lambda: (sample(2, 3), sample(3, lo=0.2))),
    ("div", lambda a, b: a / b, lambda: (sample(4), sample(4, lo=0.5, hi=2.0))),
    ("matmul", torch.matmul, lambda: (sample(2, 3), sample(3, 4))),
    ("exp", torch.exp, lambda: (sample(3),)),
    ("log", torch.log, lambda: (sample(3, lo=0.3, hi=2.0),)),
    ("sqrt", torch.sqrt, lambda: (sample(3, lo=0.3, hi=2.0),)),
    ("tanh", torch.tanh, lambda: (sample(2, 2),)),
    ("softmax", lambda a: F.softmax(a, dim=-1), lambda: (sample(2, 3),)),
    ("log_softmax", lambda a: F.log_softmax(a, dim=0), lambda: (sample(2, 3),)),
    ("sum", lambda a: a.sum(dim=1), lambda: (sample(2, 3),)),
    ("mean", lambda a: a.mean(), lambda: (sample(2, 3),)),
    ("prod", lambda a: a.prod(dim=0), lambda: (sample(3, 2, lo=0.5),)),
    ("cumsum", lambda a: a.cumsum(0), lambda: (sample(4),)),
    ("layer_norm", lambda a, w: F.layer_norm(a, (3,), w), lambda: (sample(2, 3), sample(3, lo=0.5))),
    ("linear", F.linear, lambda: (sample(2, 3), sample(4, 3), sample(4))),
    ("conv1d", lambda a, w: F.conv1d(a, w, padding=1), lambda: (sample(1, 2, 5), sample(3, 2, 3))),
    ("pow_scalar", lambda a: a ** 3, lambda: (sample(3),)),
    ("pow_tensor", lambda a, b: a ** b, lambda: (sample(3, lo=0.5, hi=2), sample(3, lo=-1, hi=1))),
    ("sigmoid", torch.sigmoid, lambda: (sample(4),)),
    ("norm", lambda a: torch.linalg.vector_norm(a), lambda: (sample(4),)),
    ("atan2", torch.atan2, lambda: (sample(3), sample(3, lo=0.5))),
    ("stack", lambda a, b: torch.stack([a, b]), lambda: (sample(3), sample(3))),
    ("index_select", lambda a: a.index_select(0, torch.tensor([2, 0, 2])), lambda: (sample(3, 2),)),
    ("smooth_l1", lambda a, b: F.smooth_l1_loss(a, b, beta=0.5), lambda: (sample(5), sample(5, lo=-0.1, hi=0.1))),
]

for name, fn, make_inputs in OPS:
    inputs = make_inputs()
    results = []
    for label, kwargs in [("grad", dict(check_batched_grad=True)),
                          ("fwd", dict(check_forward_ad=True, check_batched_forward_grad=True)),
                          ("fast", dict(fast_mode=True))]:
        results.append(f"{label}={gradcheck(fn, inputs, raise_exception=False, **kwargs)}")
    results.append(f"gradgrad={gradgradcheck(fn, inputs, check_batched_grad=True, raise_exception=False)}")
    results.append(f"fwd_over_rev={gradgradcheck(fn, inputs, check_fwd_over_rev=True, raise_exception=False)}")
    print(f"{name:12s} " + " ".join(results))

try:
    gradcheck(torch.sin, (sample(3),), check_batched_grad=True, check_backward_ad=False, check_forward_ad=True)
except AssertionError as e:
    print("AssertionError:", e)
try:
    gradcheck(torch.sin, (sample(3),), check_batched_forward_grad=True)
except AssertionError as e:
    print("AssertionError:", e)
try:
    gradgradcheck(torch.sin, (sample(3),), check_batched_grad=True, check_rev_over_rev=False,
                  check_fwd_over_rev=True, check_undefined_grad=False)
except AssertionError as e:
    print("AssertionError:", e)
