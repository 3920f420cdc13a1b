# Unit tests for custom autograd Functions as in extension libraries: gradcheck passes for correct
# backward rules, fails (GradcheckError message / raise_exception=False) for buggy ones.
import torch
from torch.autograd import Function, gradcheck
from torch.autograd.gradcheck import GradcheckError


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad_out


class BadCube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 2 * x ** 2 * grad_out  # wrong constant


class ScaledAdd(Function):
    @staticmethod
    def forward(ctx, a, b, alpha):
        ctx.alpha = alpha
        return a + alpha * b

    @staticmethod
    def backward(ctx, g):
        return g, ctx.alpha * g, None


class SwappedGrads(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b.exp()

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * a * b.exp(), g * b.exp()  # swapped


def x64(*shape, start=0.1):
    n = 1
    for s in shape:
        n *= s
    return (torch.linspace(start, start + 1.0, n, dtype=torch.float64).reshape(shape)
            .requires_grad_())


def test_cube_passes():
    print("Cube:", gradcheck(Cube.apply, (x64(3, 2),), eps=1e-6, atol=1e-4))


def test_bad_cube_raises():
    try:
        gradcheck(Cube.apply if False else BadCube.apply, (x64(2, 2),))
    except GradcheckError as e:
        print("BadCube raised", type(e).__name__, "is RuntimeError:", isinstance(e, RuntimeError))
        print(e)


def test_bad_cube_no_raise():
    ok = gradcheck(BadCube.apply, (x64(4),), raise_exception=False)
    print("BadCube raise_exception=False ->", ok)


def test_non_tensor_arg():
    a, b = x64(3), x64(3, start=0.5)
    print("ScaledAdd:", gradcheck(lambda a, b: ScaledAdd.apply(a, b, 2.5), (a, b)))
    b2 = b.detach()
    print("ScaledAdd b const:", gradcheck(lambda a, b: ScaledAdd.apply(a, b, 2.5), (a, b2)))


def test_two_inputs_failure_names_input():
    try:
        gradcheck(SwappedGrads.apply, (x64(2), x64(2, start=0.3)))
    except GradcheckError as e:
        print(str(e).splitlines()[0])
        print("mentions numerical:", "numerical:" in str(e), "analytical:" in str(e))


def test_fast_mode():
    print("fast_mode Cube:", gradcheck(Cube.apply, (x64(5),), fast_mode=True))
    print("fast_mode BadCube:", gradcheck(BadCube.apply, (x64(5),), fast_mode=True,
                                         raise_exception=False))


def test_float32_warning():
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        x = torch.linspace(0.1, 1.0, 3).requires_grad_()
        ok = gradcheck(Cube.apply, (x,), eps=1e-3, atol=1e-2, rtol=1e-2, raise_exception=False)
    print("float32 gradcheck:", ok, "warnings:", len(w))
    for item in w:
        print(" ", item.category.__name__, str(item.message)[:80])


def test_no_input_requires_grad():
    try:
        gradcheck(Cube.apply, (torch.ones(2, dtype=torch.float64),))
    except ValueError as e:
        print("ValueError:", e)


for name, fn in list(globals().items()):
    if name.startswith("test_"):
        print(f"--- {name}")
        fn()
