"""PyTorch's complex-number API on real tensors, element callbacks, DLPack exchange and
torch.cond/while_loop: checked against PyTorch where installed, and against plain facts."""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad.utils import dlpack


def test_conjugation_of_a_real_tensor_is_the_tensor_itself():
    x = tapegrad.tensor([1.0, -2.0], requires_grad=True)
    for function in (tapegrad.conj, tapegrad.conj_physical, tapegrad.resolve_conj,
                     tapegrad.resolve_neg, tapegrad.real):
        assert function(x) is x
    assert x.conj() is x and x.real is x and not x.is_conj() and not tapegrad.is_neg(x)
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with "
                                           "non-complex dtypes."):
        x.imag


def test_angle_is_zero_or_pi_with_zero_gradient():
    x = tapegrad.tensor([1.0, -2.0, 0.0, -0.0, math.inf, math.nan], requires_grad=True)
    a = tapegrad.angle(x)
    assert a.grad_fn.name() == "AngleBackward0"
    np.testing.assert_equal(a.detach().numpy(), np.float32([0, math.pi, 0, 0, 0, math.nan]))
    a.sum().backward()
    assert x.grad.tolist() == [0.0] * 6
    assert tapegrad.tensor([-1, 2]).angle().dtype == tapegrad.float32


def test_adjoint_is_the_transpose():
    m = tapegrad.arange(6.0).view(2, 3).requires_grad_()
    assert m.adjoint().tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert tapegrad.adjoint(m).grad_fn.name() == "TransposeBackward0"
    with pytest.raises(RuntimeError, match="only supported on matrices or batches of matrices. "
                                           "Got 1-D tensor."):
        tapegrad.ones(2).adjoint()


def test_same_as_pytorch():
    torch = pytest.importorskip("torch")
    for lib in (torch, tapegrad):
        values = lib.tensor([1.0, -2.0, float("nan"), -0.0])
        assert str(lib.angle(values)) == str(torch.angle(torch.tensor([1.0, -2.0, float("nan"),
                                                                        -0.0])))
    ints = [lib.tensor([1, 2, 3]).apply_(lambda v: v * 2.7).tolist() for lib in (torch, tapegrad)]
    assert ints[0] == ints[1]


def test_python_callbacks_over_elements():
    t = tapegrad.ones(2, 2)
    assert t.map2_(tapegrad.ones(2), tapegrad.ones(2, 1) * 3, lambda a, b, c: a + b + c) is t
    assert t.tolist() == [[5.0, 5.0], [5.0, 5.0]]
    before = t._version
    t.map_(tapegrad.tensor([1.0, 2.0]), lambda a, b: a * b)
    assert t.tolist() == [[5.0, 10.0], [5.0, 10.0]] and t._version == before + 1
    with pytest.raises(RuntimeError, match=r"Can't call apply_\(\) on Variable that requires "
                                           r"grad. Use var.detach\(\).apply_\(\) instead."):
        tapegrad.ones(1, requires_grad=True).apply_(abs)


def test_dlpack_shares_memory_both_ways():
    array = np.arange(4.0)
    t = tapegrad.from_dlpack(array)
    t[0] = 10.0
    assert array[0] == 10.0
    back = np.from_dlpack(t)
    back[1] = 20.0
    assert t[1].item() == 20.0
    through_capsule = dlpack.from_dlpack(dlpack.to_dlpack(tapegrad.arange(3)))
    assert through_capsule.tolist() == [0, 1, 2] and through_capsule.dtype == tapegrad.int64
    with pytest.raises(BufferError, match="require gradient"):
        np.from_dlpack(tapegrad.ones(2, requires_grad=True))


def test_dlpack_with_pytorch():
    torch = pytest.importorskip("torch")
    ours = tapegrad.arange(3.0)
    theirs = torch.from_dlpack(ours)
    theirs[0] = 7.0
    assert ours[0].item() == 7.0
    assert tapegrad.from_dlpack(torch.arange(2.0)).tolist() == [0.0, 1.0]


def test_cond_and_while_loop_run_the_branch_and_the_loop():
    x = tapegrad.zeros(1, requires_grad=True)
    out = tapegrad.cond(x.sum() > 1, lambda a: a.sin(), lambda a: a.cos(), [x])
    assert out.item() == 1.0 and out.grad_fn.name() == "CosBackward0"
    assert tapegrad.cond(3, lambda: "yes", lambda: "no") == "yes"
    with pytest.raises(RuntimeError, match="Expected pred to be bool or single-element tensor"):
        tapegrad.cond(tapegrad.tensor([True, False]), lambda: 1, lambda: 2)
    i, s = tapegrad.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2),
                               (tapegrad.tensor(0), tapegrad.tensor(1.0)))
    assert (i.item(), s.item()) == (3, 8.0)


def test_unary_plus_is_the_tensor_itself_but_refuses_bool():
    x = tapegrad.ones(2)
    assert +x is x
    with pytest.raises(RuntimeError, match=r"The `\+` operator, on a bool tensor is not supported"):
        +tapegrad.ones(2, dtype=tapegrad.bool)
