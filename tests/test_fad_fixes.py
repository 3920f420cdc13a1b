"""Forward-mode AD through in-place writes: which tensor's tangent a write changes.

As in PyTorch: a ``make_dual`` result owns its tangent (the tensor it views gets none), a write
into a view of a dual writes the dual's tangent, a non-view op's tangent never aliases its
input's, and a view made before its base had a tangent reads its part of it. Checked against
analytic values and, where installed, against PyTorch."""
import pytest

import tapegrad
import tapegrad.autograd.forward_ad as fwAD

from same_as_torch import assert_same


def test_inplace_on_dual_leaves_viewed_tensor_without_tangent():
    primal = tapegrad.linspace(-1, 1, 6)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tapegrad.arange(6.0))
        dual.mul_(2)
        assert fwAD.unpack_dual(primal).tangent is None
        assert fwAD.unpack_dual(dual).tangent.tolist() == [0, 2, 4, 6, 8, 10]
        again = fwAD.make_dual(primal, tapegrad.ones(6))  # allowed: primal still has none
        assert fwAD.unpack_dual(again).tangent.tolist() == [1] * 6


def test_write_through_view_of_dual_changes_its_tangent():
    tangent = tapegrad.arange(6.0)
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.linspace(-1, 1, 6), tangent)
        dual.view(2, 3)[0].zero_()
        dual[4:].mul_(10)
        assert fwAD.unpack_dual(dual).tangent.tolist() == [0, 0, 0, 3, 40, 50]
        assert fwAD.unpack_dual(dual).tangent is tangent  # written in place, as PyTorch does


def test_tangent_of_copy_is_not_an_alias():
    tangent = tapegrad.arange(4.0)
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.ones(4), tangent)
        copy = dual.clone()
        shifted = dual + tapegrad.zeros(4)
        copy.add_(copy)
        shifted.mul_(3)
        assert tangent.tolist() == [0, 1, 2, 3]
        assert fwAD.unpack_dual(copy).tangent.tolist() == [0, 2, 4, 6]
        assert fwAD.unpack_dual(shifted).tangent.tolist() == [0, 3, 6, 9]


def test_view_made_before_base_had_tangent():
    with fwAD.dual_level():
        buffer = tapegrad.zeros(2, 3)
        row0, row1 = buffer[0], buffer[1]
        buffer[1] = fwAD.make_dual(tapegrad.ones(3), tapegrad.tensor([1.0, 2.0, 3.0]))
        assert fwAD.unpack_dual(row0).tangent.tolist() == [0, 0, 0]
        assert fwAD.unpack_dual(row1 * row1).tangent.tolist() == [2, 4, 6]
        row0.add_(row1)
        assert fwAD.unpack_dual(buffer).tangent.tolist() == [[1, 2, 3], [1, 2, 3]]


def test_tangents_dropped_at_level_exit():
    primal = tapegrad.ones(3)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tapegrad.ones(3))
        view = dual[1:]
    with fwAD.dual_level():
        assert fwAD.unpack_dual(view).tangent is None
        assert fwAD.unpack_dual(fwAD.make_dual(dual, tapegrad.zeros(3))).tangent.tolist() == [0] * 3


def _inplace_sequence(lib):
    fw = lib.autograd.forward_ad
    primal = lib.linspace(-1, 1, 6, dtype=lib.float64)
    tangent = lib.arange(6.0, dtype=lib.float64)
    with fw.dual_level():
        dual = fw.make_dual(primal, tangent)
        dual.mul_(2)
        dual[1:3].mul_(10)
        copy = dual.clone()
        copy.add_(copy)
        dual.view(2, 3)[1].zero_()
        buffer = lib.zeros(2, 6, dtype=lib.float64)
        row = buffer[0]
        buffer[1] = dual
        row.add_(copy)
        again = fw.make_dual(primal, lib.ones(6, dtype=lib.float64))
        return (tangent, fw.unpack_dual(dual).tangent, fw.unpack_dual(copy).tangent,
                fw.unpack_dual(buffer).tangent, fw.unpack_dual(again).tangent,
                lib.tensor(float(fw.unpack_dual(primal).tangent is None)))


def test_inplace_sequence_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(_inplace_sequence, torch)


# -- torch.func forward products with integer outputs and inputs ------------------------------

def test_jvp_gives_integer_output_a_zero_tangent_of_its_dtype():
    x = tapegrad.tensor([1.0, -2.0, 3.0])
    (values, index), (tangent, index_tangent) = tapegrad.func.jvp(
        lambda a: (a.sin(), a.argmax()), (x,), (tapegrad.ones(3),))
    assert index.item() == 2 and index_tangent.dtype == tapegrad.int64
    assert index_tangent.item() == 0
    assert tapegrad.allclose(tangent, x.cos())
    with pytest.raises(RuntimeError, match="independent of the inputs"):
        tapegrad.func.jvp(lambda a: (a.sin(), a.argmax()), (x,), (tapegrad.ones(3),), strict=True)


def test_jacfwd_of_integer_and_boolean_outputs_is_zero():
    x = tapegrad.tensor([1.0, -2.0, 3.0])
    jac, index_jac = tapegrad.func.jacfwd(lambda a: (a * a, a.argmax()))(x)
    assert tapegrad.equal(jac, tapegrad.diag(2 * x))
    assert index_jac.dtype == tapegrad.int64 and index_jac.tolist() == [0, 0, 0]
    mask_jac = tapegrad.func.jacfwd(lambda a: a > 0)(x)
    assert mask_jac.dtype == tapegrad.bool and mask_jac.shape == (3, 3) and not mask_jac.any()


def test_forward_transforms_refuse_integer_primals_and_tangents():
    ints, ones = tapegrad.tensor([1, 2]), tapegrad.ones(2)
    for call, role in [(lambda: tapegrad.func.jvp(lambda a: a * 2, (ints,), (ones,)), "primal"),
                       (lambda: tapegrad.func.jvp(lambda a: a * 2, (ones,), (ints,)), "tangent"),
                       (lambda: tapegrad.func.linearize(lambda a: a * 2.0, ints), "primal"),
                       (lambda: tapegrad.func.jacfwd(lambda a: a * 2.0)(ints), "primal")]:
        with pytest.raises(ValueError, match=f"Expected {role} to be floating point or complex, "
                                             "but got: torch.int64"):
            call()
    # an integer argument that is not differentiated is fine
    assert tapegrad.func.jacfwd(lambda a, k: a * k, argnums=0)(ones, ints).tolist() == [[1, 0], [0, 2]]


def _integer_products(lib):
    func = lib.func
    x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64)
    _, (tangent, index_tangent) = func.jvp(lambda a: (a.exp(), a.argmin()), (x,), (x * 2,))
    _, jvp_fn = func.linearize(lambda a: (a ** 2).sum(), x)
    jac, index_jac = func.jacfwd(lambda a: (a.tanh(), a.argsort()))(x)
    return tangent, index_tangent, jvp_fn(lib.ones(3, dtype=lib.float64)), jac, index_jac


def test_integer_products_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(_integer_products, torch)


# -- operations PyTorch has no forward formula for ---------------------------------------------

def _dual_of(values):
    return fwAD.make_dual(values, tapegrad.ones_like(values))


REFUSED = {
    "_embedding_bag": lambda d: tapegrad.nn.functional.embedding_bag(tapegrad.tensor([[0, 1]]), d),
    "multi_margin_loss": lambda d: tapegrad.nn.functional.multi_margin_loss(
        d, tapegrad.tensor([0, 1])),
    "segment_reduce": lambda d: tapegrad.segment_reduce(d.flatten(), "sum",
                                                        lengths=tapegrad.tensor([3, 5])),
    "grid_sampler_2d": lambda d: tapegrad.nn.functional.grid_sample(
        d.view(1, 1, 2, 4), tapegrad.zeros(1, 1, 2, 2, dtype=d.dtype), align_corners=False),
    "_cdist_forward": lambda d: tapegrad.cdist(d, d.flip(0)),
    "special_zeta": lambda d: tapegrad.special.zeta(d + 2, tapegrad.tensor(1.0, dtype=d.dtype)),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_forward_mode_refused_as_in_pytorch(name):
    values = tapegrad.linspace(0.1, 0.8, 8, dtype=tapegrad.float64).view(2, 4)
    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match=f"Trying to use forward AD with {name} that "
                                                      "does not support it because it has not "
                                                      "been implemented yet"):
            REFUSED[name](_dual_of(values))


def test_operation_without_any_derivative_refused_briefly():
    values = tapegrad.tensor([[3.0, 0.5], [0.5, 2.0]], dtype=tapegrad.float64)
    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with "
                                                      "aten::linalg_ldl_factor_ex that does not "
                                                      "support it.$"):
            tapegrad.linalg.ldl_factor(_dual_of(values))


def test_eigvals_carries_tangent():
    A = tapegrad.tensor([[2.0, 0.5], [0.3, 1.0]], dtype=tapegrad.float64)
    dA = tapegrad.tensor([[1.0, 0.0], [0.5, -1.0]], dtype=tapegrad.float64)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(tapegrad.linalg.eigvals(fwAD.make_dual(A, dA))).tangent
    step = 1e-6
    fd = (tapegrad.linalg.eigvals(A + step * dA) - tapegrad.linalg.eigvals(A - step * dA)) / (2 * step)
    assert tapegrad.allclose(tangent, fd, atol=1e-6)


def _refusals(lib):
    fw = lib.autograd.forward_ad
    values = lib.linspace(0.1, 0.8, 8, dtype=lib.float64).view(2, 4)
    messages = []
    for call in (lambda d: lib.nn.functional.multilabel_margin_loss(
                     d, lib.tensor([[0, 1, -1, 0], [2, -1, 0, 0]])),
                 lambda d: lib.ones(2, 4, dtype=lib.float64).index_reduce(
                     0, lib.tensor([0, 0]), d, "prod"),
                 lambda d: lib.geqrf(d)[0]):
        with fw.dual_level():
            try:
                call(fw.make_dual(values, lib.ones_like(values)))
            except NotImplementedError as error:
                messages.append(str(error))
    return tuple(messages)


def test_refusals_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(_refusals, torch)


def test_gradients_summed_inside_a_dual_level_carry_their_tangents():
    """Forward over reverse: x used twice sums two gradients, each with a tangent; the
    Hessian-vector product of sum(x[1:] * x[:-1]) with t is (t[i-1] + t[i+1])_i."""
    t = tapegrad.tensor([1.0, 0.0, 1.0])
    with fwAD.dual_level():
        x = fwAD.make_dual(tapegrad.tensor([1.0, 2.0, 3.0]).requires_grad_(), t)
        (g,) = tapegrad.autograd.grad((x[1:] * x[:-1]).sum(), x)
        assert fwAD.unpack_dual(g).tangent.tolist() == [0.0, 2.0, 0.0]


def test_backward_accumulating_into_grad_inside_a_dual_level_keeps_the_tangent():
    w = tapegrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with fwAD.dual_level():
        x = fwAD.make_dual(tapegrad.tensor([1.0, 1.0, 2.0]), tapegrad.tensor([1.0, 0.0, 0.0]))
        (w * x).sum().backward()
        first = w.grad
        assert fwAD.unpack_dual(w.grad).tangent is None  # PyTorch stores the first one bare
        (w * x * x).sum().backward()  # adds x², whose tangent is 2x·t
        assert w.grad is first  # accumulated in place, as PyTorch's AccumulateGrad
        assert fwAD.unpack_dual(w.grad).tangent.tolist() == [2.0, 0.0, 0.0]


def test_inplace_view_ops_reshape_the_tangent():
    with fwAD.dual_level():
        x = fwAD.make_dual(tapegrad.zeros(2, 3), tapegrad.arange(6.0).view(2, 3))
        y = (x * 1).t_()
        z = (x * 1).unsqueeze_(0)
        assert fwAD.unpack_dual(y).tangent.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
        assert fwAD.unpack_dual(z).tangent.shape == (1, 2, 3)
