"""The numerics of Tensor's operators and in-place operations against PyTorch: augmented
assignment writing in place, the dtype a result may be written into, Python and numpy numbers
meeting tensors (promotion, range checks, wrapping), signed zeros of ``remainder``, exact integer
division, the bool and integer inputs PyTorch refuses, and the Tensor protocol methods
(``__format__``, ``__contains__``, ``==`` with foreign objects, numpy interop, ``.grad``'s setter).

Each case is written against a module ``T`` (``tapegrad`` or PyTorch): both must print the same,
or raise the same exception with the same message.
"""
import sys
import warnings

import numpy as np
import pytest

import tapegrad

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.filterwarnings("ignore:(divide by zero|invalid value) encountered:RuntimeWarning"),
    # PyTorch's own numpy protocol methods predate numpy 2's signatures
    pytest.mark.filterwarnings("ignore:__array__ implementation doesn't accept a copy keyword"),
    pytest.mark.filterwarnings("ignore:__array_wrap__ must accept context"),
]


def _augmented(x, op, other):
    """``x op= other``, returning what a program would look at: the value, its dtype, and
    whether it is still the same tensor."""
    y = x
    if op == "//":
        x //= other
    elif op == "%":
        x %= other
    elif op == "**":
        x **= other
    elif op == "/":
        x /= other
    elif op == "+":
        x += other
    return x, x.dtype, x is y


def _through_view(T, op):
    grid = T.arange(12).view(3, 4)
    row = grid[1]
    _augmented(row, op, 2)
    return grid, row._version


def _inplace_history(T):
    w = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        w **= 2
        w %= 3
    h = w * 1
    h **= 2
    h %= 5
    h.sum().backward()
    return w, w._version, w.is_leaf, h, h.grad_fn.name(), w.grad


def _assign_grad(T, grad):
    a = T.ones(2, requires_grad=True)
    a.grad = grad(T)
    return a.grad


CASES = {
    # augmented assignment is in place
    "floordiv through view": lambda T: _through_view(T, "//"),
    "mod through view": lambda T: _through_view(T, "%"),
    "pow through view": lambda T: _through_view(T, "**"),
    "float view mod": lambda T: _augmented(T.linspace(-2, 2, 5)[1:4], "%", 0.75),
    "long //= 2.5": lambda T: _augmented(T.tensor([7, -7]), "//", 2.5),
    "long %= 2.5": lambda T: _augmented(T.tensor([7, -7]), "%", 2.5),
    "long **= 0.5": lambda T: _augmented(T.tensor([4, 9]), "**", 0.5),
    "long **= 2": lambda T: _augmented(T.tensor([4, 9]), "**", 2),
    "long /= 2": lambda T: _augmented(T.tensor([4, 9]), "/", 2),
    "uint8 //= 16": lambda T: _augmented(T.tensor([0, 255], dtype=T.uint8), "//", 16),
    "int32 //= f64 0-dim": lambda T: _augmented(T.tensor([5], dtype=T.int32), "//",
                                                T.tensor(2.0, dtype=T.float64)),
    "int32 /= f64 0-dim": lambda T: _augmented(T.tensor([5], dtype=T.int32), "/",
                                               T.tensor(2.0, dtype=T.float64)),
    "uint8 /= f64": lambda T: _augmented(T.tensor([5], dtype=T.uint8), "/",
                                         T.tensor([2.0], dtype=T.float64)),
    "bool += 1": lambda T: _augmented(T.tensor([True, False]), "+", 1),
    "bool += True": lambda T: _augmented(T.tensor([True, False]), "+", True),
    "bool //= True": lambda T: _augmented(T.tensor([True, False]), "//", True),
    "bool %= 2": lambda T: _augmented(T.tensor([True, False]), "%", 2),
    "float %= -2": lambda T: _augmented(T.tensor([7.5, -7.5]), "%", -2),
    "f32 **= f64 tensor": lambda T: _augmented(T.tensor([1.5]), "**",
                                               T.tensor([2.0], dtype=T.float64)),
    "broadcast into smaller": lambda T: _augmented(T.tensor([4, 6]), "//",
                                                   T.tensor([[1, 2], [3, 4]])),
    "leaf **=": lambda T: _augmented(T.tensor([1.0, 2.0], requires_grad=True), "**", 2),
    "leaf //=": lambda T: _augmented(T.tensor([1.0, 2.0], requires_grad=True), "//", 2),
    "in-place history": _inplace_history,
    # in-place methods and their dtype checks
    "bool.add_(1)": lambda T: T.tensor([True, False]).add_(1),
    "bool.mul_(1)": lambda T: T.tensor([True, False]).mul_(1),
    "bool.mul_(True)": lambda T: T.tensor([True, False]).mul_(True),
    "long.clamp_(0.5, 2.5)": lambda T: T.tensor([1, 2, 3]).clamp_(0.5, 2.5),
    "long.clamp_min_(0.5)": lambda T: T.tensor([1, 2, 3]).clamp_min_(0.5),
    "long.clamp_(tensor)": lambda T: T.tensor([1, 2, 3]).clamp_(T.tensor(0.5)),
    "long.floor_()": lambda T: T.tensor([1, 2, 3]).floor_(),
    "long.round_()": lambda T: T.tensor([1, 2, 3]).round_(),
    "float.round_(decimals)": lambda T: T.tensor([1.25, 2.375]).round_(decimals=1),
    "float.ceil_()": lambda T: T.tensor([1.25, -2.5]).ceil_(),
    "floor_divide_": lambda T: T.tensor([3, -3]).floor_divide_(2),
    "remainder_": lambda T: T.tensor([3, -3]).remainder_(2),
    "floor_divide method": lambda T: T.tensor([3, -3]).floor_divide(2),
    "square_": lambda T: T.tensor([1.5, -2.0]).square_(),
    "bool.square_()": lambda T: T.tensor([True]).square_(),
    "long.sqrt_()": lambda T: T.tensor([4]).sqrt_(),
    "logical_or_": lambda T: T.tensor([True, False]).logical_or_(T.tensor([False, False])),
    "float.logical_and_": lambda T: T.tensor([2.0, 0.0]).logical_and_(T.tensor([1, 1])),
    "logical_not_": lambda T: T.tensor([0.0, 3.0]).logical_not_(),
    "sign_": lambda T: T.tensor([-2.0, 0.0, 3.0]).sign_(),
    "reciprocal_": lambda T: T.tensor([2.0, 4.0]).reciprocal_(),
    "nan_to_num_": lambda T: T.tensor([float("nan"), float("inf"), 1.0]).nan_to_num_(2.0),
    # numbers out of a dtype's range: checked as arguments, wrapped as operands
    "uint8 fill_(-1)": lambda T: T.zeros(2, dtype=T.uint8).fill_(-1),
    "uint8 fill_(256)": lambda T: T.zeros(2, dtype=T.uint8).fill_(256),
    "uint8 fill_(-2.7)": lambda T: T.zeros(2, dtype=T.uint8).fill_(-2.7),
    "uint8 fill_(2.7)": lambda T: T.zeros(2, dtype=T.uint8).fill_(2.7),
    "int32 fill_(2**40)": lambda T: T.zeros(2, dtype=T.int32).fill_(2 ** 40),
    "long fill_(nan)": lambda T: T.zeros(2, dtype=T.long).fill_(float("nan")),
    "half fill_(1e6)": lambda T: T.zeros(2, dtype=T.half).fill_(1e6),
    "float fill_(inf)": lambda T: T.zeros(2).fill_(float("inf")),
    "bool fill_(5)": lambda T: T.zeros(2, dtype=T.bool).fill_(5),
    "uint8 clamp(50, 260)": lambda T: T.tensor([1, 200], dtype=T.uint8).clamp(50, 260),
    "uint8 clamp(-1)": lambda T: T.tensor([1, 200], dtype=T.uint8).clamp(-1),
    "uint8 clamp_max_(256)": lambda T: T.tensor([1], dtype=T.uint8).clamp_max_(256),
    "int8 clamp(0, 200)": lambda T: T.tensor([3], dtype=T.int8).clamp(0, 200),
    "where(300, uint8)": lambda T: T.where(T.tensor([True, False]), 300,
                                           T.zeros(2, dtype=T.uint8)),
    "where(-1, uint8)": lambda T: T.where(T.tensor([True, False]), -1,
                                          T.zeros(2, dtype=T.uint8)),
    "where(2.5, long)": lambda T: T.where(T.tensor([True, False]), 2.5, T.zeros(2, dtype=T.long)),
    "uint8 + 300": lambda T: T.tensor([1, 2], dtype=T.uint8) + 300,
    "uint8 - 300": lambda T: T.tensor([1, 2], dtype=T.uint8) - 300,
    "uint8 ** -2": lambda T: T.tensor([10, 200], dtype=T.uint8) ** -2,
    "long ** 40": lambda T: T.tensor([3, -3]) ** 40,
    "long ** tensor(-2)": lambda T: T.tensor([10, 1, -1]) ** T.tensor([-2, -2, -3]),
    "-2 ** uint8": lambda T: (-2) ** T.tensor([7, 8, 3], dtype=T.uint8),
    "300 ** uint8": lambda T: 300 ** T.tensor([1, 2, 3], dtype=T.uint8),
    # numpy numbers promote as Python numbers of their kind
    "arange + np.int64": lambda T: T.arange(3) + np.int64(5),
    "int32 + np.int64": lambda T: T.tensor([1, 2], dtype=T.int32) + np.int64(1),
    "arange + np.float64": lambda T: T.arange(3) + np.float64(0.5),
    "arange + np.bool_": lambda T: T.arange(3) + np.bool_(True),
    "np.float64 * w": lambda T: np.float64(2.0) * T.ones(2, requires_grad=True),
    "np.int64 - w": lambda T: np.int64(2) - T.ones(2, requires_grad=True),
    "np.float32 / w": lambda T: np.float32(2.0) / T.ones(2, requires_grad=True),
    "np.float64 ** w": lambda T: np.float64(2.0) ** T.ones(2, requires_grad=True),
    "np.float64 < w": lambda T: np.float64(2.0) < T.ones(2, requires_grad=True),
    "np.sqrt(2.0) * w": lambda T: np.sqrt(2.0) * T.ones(2, requires_grad=True),
    "np.array(w)": lambda T: np.array(T.ones(2, requires_grad=True)),
    "np.sqrt(t)": lambda T: np.sqrt(T.tensor([1.0, 4.0])),
    "np.greater(t, 1)": lambda T: np.greater(T.tensor([1, 2]), 1),
    "t + array": lambda T: T.tensor([1, 2]) + np.array([1, 2]),
    "t == array": lambda T: T.tensor([1, 2]) == np.array([1, 3]),
    # remainder's signed zeros, exact integer division
    "remainder(-4., 4.) by -2": lambda T: T.remainder(T.tensor([-4.0, 4.0]), -2),
    "remainder exact multiples": lambda T: T.tensor([7.5, -7.5, 2.0, -2.0])
    % T.tensor([-7.5, 7.5, -2.0, 2.0]),
    "remainder of signed zeros": lambda T: T.tensor([-0.0, 0.0]) % T.tensor([3.0, -3.0]),
    "remainder keeps divisor sign": lambda T: T.tensor([5.5, -5.5]) % T.tensor([-2.0, 2.0]),
    "int remainder": lambda T: T.tensor([7, -7, 7, -7]) % T.tensor([3, 3, -3, -3]),
    "big int trunc division": lambda T: T.div(T.tensor([2 ** 60 + 1, -(2 ** 62) - 3]), 3,
                                              rounding_mode="trunc"),
    "int trunc division signs": lambda T: T.div(T.tensor([7, -7, 7, -7]),
                                                T.tensor([2, 2, -2, -2]), rounding_mode="trunc"),
    "float trunc division": lambda T: T.div(T.tensor([7.0, -7.0]), 2, rounding_mode="trunc"),
    # bool and integer inputs
    "bool abs": lambda T: T.tensor([True, False]).abs(),
    "bool abs_": lambda T: T.tensor([True, False]).abs_(),
    "bool floor": lambda T: T.tensor([True, False]).floor(),
    "bool ceil": lambda T: T.tensor([True, False]).ceil(),
    "bool round": lambda T: T.tensor([True, False]).round(),
    "bool round(decimals)": lambda T: T.tensor([True, False]).round(decimals=1),
    "long round(decimals)": lambda T: T.tensor([15, 25]).round(decimals=-1),
    "long floor": lambda T: T.tensor([-1, 2]).floor(),
    "bool // bool": lambda T: T.tensor([True, False]) // T.tensor([True, True]),
    "bool // 1": lambda T: T.tensor([True, False]) // 1,
    "bool % bool": lambda T: T.tensor([True, False]) % T.tensor([True, True]),
    "bool ** bool": lambda T: T.tensor([True, False]) ** T.tensor([True, True]),
    "True ** bool": lambda T: True ** T.tensor([True, False]),
    "bool ** 2": lambda T: T.tensor([True, False]) ** 2,
    "2 ** bool": lambda T: 2 ** T.tensor([True, False]),
    "bool square": lambda T: T.tensor([True, False]).square(),
    "bool relu": lambda T: T.tensor([True, False]).relu(),
    "bool div trunc": lambda T: T.div(T.tensor([True]), T.tensor([True]), rounding_mode="trunc"),
    # Tensor protocol
    "format .3f": lambda T: format(T.tensor([1.5, 2.5]), ".3f"),
    "format 1-element": lambda T: format(T.tensor([1.5]), ".2f"),
    "format 0-d": lambda T: f"{T.tensor(50.0):.2f}",
    "format empty spec": lambda T: format(T.tensor([1.5, 2.5]), ""),
    "row in matrix": lambda T: T.tensor([3, 4]) in T.tensor([[1, 2], [3, 4]]),
    "number in tensor": lambda T: (2.0 in T.tensor([1, 2]), 5 in T.tensor([1, 2])),
    "str in tensor": lambda T: "a" in T.tensor([1, 2]),
    "list in tensor": lambda T: [1] in T.tensor([1, 2]),
    "== str": lambda T: (T.tensor([1, 2]) == "abc", T.tensor([1, 2]) != "abc"),
    "== None": lambda T: (T.tensor([1, 2]) == None, T.tensor([1, 2]) != None),  # noqa: E711
    "== list": lambda T: T.tensor([1, 2]) == [1, 2],
    "+ str": lambda T: T.tensor([1, 2]) + "abc",
    "< str": lambda T: T.tensor([1, 2]) < "abc",
    "+= str": lambda T: _augmented(T.tensor([1, 2]), "+", "abc"),
    "grad of another size": lambda T: _assign_grad(T, lambda T: T.ones(3)),
    "grad of another dtype": lambda T: _assign_grad(T, lambda T: T.ones(2, dtype=T.float64)),
    "grad of a long dtype": lambda T: _assign_grad(T, lambda T: T.ones(2, dtype=T.long)),
    "grad not a tensor": lambda T: _assign_grad(T, lambda T: [1.0, 2.0]),
    "backward(float)": lambda T: T.ones(2, requires_grad=True).sum().backward(1.0),
    "requires_grad setter": lambda T: setattr(T.tensor([1, 2]), "requires_grad", True),
    "requires_grad_()": lambda T: T.tensor([1, 2]).requires_grad_(),
    "Size * 2": lambda T: (T.Size([2, 3]) * 2, 2 * T.Size([2, 3])),
    "Size from a tensor": lambda T: T.Size(T.tensor([2, 3])),
    "Size of floats": lambda T: T.Size([2.5]),
    "where shapes": lambda T: T.where(T.ones(2, 3) > 0, T.ones(2, 3), T.ones(3, 3)),
    "clamp bound shapes": lambda T: T.ones(2, 3).clamp(T.zeros(3), T.ones(4)),
}


def _outcome(T, case):
    """What the case printed (its repr), or the exception it raised."""
    try:
        return repr(case(T))
    except Exception as exc:  # noqa: BLE001  the refusal is the result to compare
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("name", CASES)
def test_matches_torch(name):
    assert _outcome(tapegrad, CASES[name]) == _outcome(torch, CASES[name])


def test_inplace_remainder_and_power_gradients_match_torch():
    def grads(T):
        x = T.tensor([1.5, -2.5, 3.0], dtype=T.float64, requires_grad=True)
        y = x * 1
        y **= 3
        y %= T.tensor([2.0, 2.0, -4.0], dtype=T.float64)
        z = x * 1
        z %= 2.5
        (y.sum() + (z * z).sum()).backward()
        return x.grad.tolist()
    assert grads(tapegrad) == pytest.approx(grads(torch))


def test_remainder_zero_signs_are_the_same_compiled():
    @tapegrad.compile
    def remainders(a, b):
        return a % b, a % -2.0

    a = tapegrad.tensor([7.5, -7.5, 2.0, -2.0, -4.0, 4.0, -0.0])
    b = tapegrad.tensor([-7.5, 7.5, -2.0, 2.0, -2.0, -2.0, 3.0])
    for compiled, eager in zip(remainders(a, b), (a % b, a % -2.0)):
        assert np.array_equal(np.signbit(compiled.numpy()), np.signbit(eager.numpy()))
        assert np.array_equal(compiled.numpy(), eager.numpy())


WARN_ONCE = {
    "float() of a tensor requiring grad": (
        lambda: float(tapegrad.ones((), requires_grad=True) * 2),
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first."),
    ".T of a 3-d tensor": (lambda: tapegrad.ones(2, 3, 4).T,
                           "The use of `x.T` on tensors of dimension other than 2"),
    ".T of a 0-d tensor": (lambda: tapegrad.ones(()).T, "Tensor.T is deprecated on 0-D tensors."),
}


@pytest.mark.parametrize("name", WARN_ONCE)
def test_warnings_pytorch_gives_once_per_process(name, monkeypatch):
    make, warning = WARN_ONCE[name]
    monkeypatch.setattr(sys.modules["tapegrad.tensor"], "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
        make()
    assert len(caught) == 1 and str(caught[0].message).startswith(warning)
    assert caught[0].category is UserWarning and caught[0].filename == __file__


def test_float_of_a_tensor_requiring_grad_is_silent_under_no_grad(monkeypatch):
    """PyTorch warns only where the conversion could cut a recorded graph (L-BFGS's line search
    converts under no_grad)."""
    monkeypatch.setattr(sys.modules["tapegrad.tensor"], "_warned", set())
    t = tapegrad.ones((), requires_grad=True) * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tapegrad.no_grad():
            assert float(t) == 2.0
    assert caught == []
