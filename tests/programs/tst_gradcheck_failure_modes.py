# Extension authors debugging gradcheck: full GradcheckError messages for multi-output Functions,
# non-reentrant backward (nondet_tol), undefined-gradient handling and wrong grad dtypes.
import torch
from torch.autograd import Function, gradcheck
from torch.autograd.gradcheck import GradcheckError


def report(label, fn, inputs, **kw):
    try:
        print(label, "->", gradcheck(fn, inputs, **kw))
    except GradcheckError as e:
        print(label, "-> GradcheckError")
        print(e)
    except RuntimeError as e:
        print(label, "-> RuntimeError:", e)


class SinCos(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        return gs * x.cos() + gc * x.sin()  # sign error on the cos branch


class Counter(Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        Counter.calls += 1
        return g * (2 + 1e-3 * Counter.calls)  # drifts between calls


class NeedsBothGrads(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1.0, x * 3.0

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + 3 * g2


class WrongDtype(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()


class ZeroBreaks(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g + 1.0  # non-zero gradient for a zero grad_output


x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
report("SinCos", SinCos.apply, (x,))
report("Counter", Counter.apply, (x,))
report("Counter nondet_tol", Counter.apply, (x,), nondet_tol=1e-1)
report("NeedsBothGrads", NeedsBothGrads.apply, (x,))
report("NeedsBothGrads no undefined check", NeedsBothGrads.apply, (x,), check_undefined_grad=False)
report("WrongDtype", WrongDtype.apply, (x,))
report("WrongDtype check_grad_dtypes", WrongDtype.apply, (x,), check_grad_dtypes=True)
report("ZeroBreaks", ZeroBreaks.apply, (x,))
report("eps too large", lambda t: t ** 4, (x,), eps=0.1)
report("atol loose", lambda t: t ** 4, (x,), eps=0.1, atol=0.1, rtol=0.1)
