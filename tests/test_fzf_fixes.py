"""Differences found by differential fuzzing of ``torch.func`` and forward-mode AD against
PyTorch (fzf): a primal whose elements overlap (an expanded one) refused by every forward
transform that lays a tangent out as the primal (``func.jvp`` given a tangent of other strides,
``linearize``, ``jacfwd``, ``hessian``, ``autograd.functional.jacobian`` in forward mode), as
``make_dual`` already did; ``grad`` of a complex scalar that does not depend on the inputs
(zeros, as PyTorch's grad asks autograd only for outputs that require grad); ``linearize`` of a
function returning other leaves than tensors (passed through, as PyTorch's traced function
does, which fails only when there are neither tensors out nor primals in); PyTorch's errors for
a non-tensor argument of ``jacfwd`` and ``linearize`` (where it counts elements); the forward
transforms' refusal of an operation PyTorch has no forward formula for (``cdist``, ``pdist``,
``grid_sample``, which tapegrad's double-vjp met as a missing second derivative, and
``embedding_bag``, ``index_reduce``, ``multi_margin_loss``, which it differentiated), now found
by forward mode itself, which also words the refusal of an operation without any derivative
(``heaviside``, ``scatter(reduce=)``) as PyTorch does; ``nan_to_num``'s derivative as a
product with ``isfinite`` (a nan tangent at a replaced element stays nan); and in-place writes
through a view of an expanded view (``x.unsqueeze(0).expand(2, ...)[0].sub_(...)``), which
numpy's read-only intermediate view made fail as a write into overlapping memory; and
``linearize`` and ``autograd.functional.jacobian(strategy="forward-mode")``, plain forward mode
in PyTorch (no ``torch.func`` transform), asking an ``autograd.Function`` for a ``jvp`` rule but
not for ``setup_context``."""
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _expanded(lib):
    return lib.tensor([1.0, 2.0, 3.0]).expand(2, 3)


# -- tangents laid out as an expanded primal --------------------------------------------------------

_FORWARD_TRANSFORMS = {
    "jvp": lambda lib, x: lib.func.jvp(lambda a: a * 2, (x,), (lib.ones(2, 3),)),
    "linearize": lambda lib, x: lib.func.linearize(lambda a: a * 2, x)[0],
    "jacfwd": lambda lib, x: lib.func.jacfwd(lambda a: a * 2)(x),
    "hessian": lambda lib, x: lib.func.hessian(lambda a: (a ** 3).sum())(x),
    "jacobian": lambda lib, x: lib.autograd.functional.jacobian(
        lambda a: a * 2, x, vectorize=True, strategy="forward-mode"),
    "functional.hessian": lambda lib, x: lib.autograd.functional.hessian(
        lambda a: (a ** 3).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode"),
}


@pytest.mark.parametrize("name", sorted(_FORWARD_TRANSFORMS))
def test_forward_transforms_refuse_an_expanded_primal(name):
    with pytest.raises(RuntimeError, match="single memory location"):
        _FORWARD_TRANSFORMS[name](tapegrad, _expanded(tapegrad))


@needs_torch
@pytest.mark.parametrize("name", sorted(_FORWARD_TRANSFORMS))
def test_forward_transforms_refuse_an_expanded_primal_as_torch(name):
    assert_same(lambda lib: _FORWARD_TRANSFORMS[name](lib, _expanded(lib)), torch)


@needs_torch
@pytest.mark.parametrize("case", [
    # a tangent with the primal's own strides needs no copy
    lambda lib: lib.func.jvp(lambda a: a * 2, (_expanded(lib),),
                             (lib.zeros(3).expand(2, 3),)),
    # an expanded tangent of a dense primal is copied into the primal's layout
    lambda lib: lib.func.jvp(lambda a: a * 2, (lib.ones(2, 3),), (lib.ones(3).expand(2, 3),)),
    # linearize's tangent is one element expanded: a primal of strides 0 takes it
    lambda lib: lib.func.linearize(lambda a: a * 2, lib.ones(()).expand(3))[0],
    # a transposed (dense) primal takes a contiguous basis
    lambda lib: lib.func.jacfwd(lambda a: a * 2)(lib.ones(3, 4).t()),
    # autograd.functional.jvp differentiates twice backward: no tangent is laid out
    lambda lib: lib.autograd.functional.jvp(lambda a: a * 2, _expanded(lib), lib.ones(2, 3)),
])
def test_other_layouts_are_accepted_as_by_torch(case):
    assert_same(case, torch)


def test_make_dual_still_copies_a_tangent_into_the_primals_layout():
    fw = tapegrad.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(tapegrad.ones(3, 2).t(), tapegrad.arange(6.0).view(2, 3))
        tangent = fw.unpack_dual(dual).tangent
    assert tangent.stride() == (1, 2)
    assert tangent.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


# -- grad of a complex output that does not depend on the inputs -------------------------------------

def test_grad_of_an_independent_complex_scalar_is_zero():
    x = tapegrad.tensor([1.0, 2.0])
    gradient, value = tapegrad.func.grad_and_value(lambda a, b: (b * 1j).sum(), argnums=0)(
        x, tapegrad.tensor([3.0, 4.0]))
    assert gradient.tolist() == [0.0, 0.0] and value.item() == 7j
    with pytest.raises(RuntimeError, match="only for real scalar outputs"):
        tapegrad.func.grad(lambda a: (a * 1j).sum())(x)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.func.grad(lambda a, b: (b * 1j).sum(), argnums=1)(
        lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])),
    lambda lib: lib.func.grad(lambda a, b: (b * 1j).sum(), argnums=(0,))(
        lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])),
    lambda lib: tuple(lib.view_as_real(t) for t in lib.func.grad_and_value(
        lambda a: a.detach().sum())(lib.tensor([1.0, 2.0]) * (1 + 1j))),
    lambda lib: lib.func.grad(lambda a: (a * 1j).sum())(lib.tensor([1.0, 2.0])),
])
def test_grad_of_a_complex_scalar_as_torch(case):
    assert_same(case, torch)


# -- linearize of outputs that are not all tensors -----------------------------------------------------

def test_linearize_passes_other_leaves_through():
    output, jvp_fn = tapegrad.func.linearize(
        lambda a: {"k": a * 2, "n": 3, "s": None, "t": (a.sin(), "x")}, tapegrad.zeros(2))
    product = jvp_fn(tapegrad.ones(2))
    assert (output["n"], output["s"], output["t"][1]) == (3, None, "x")
    assert (product["n"], product["s"], product["t"][1]) == (3, None, "x")
    assert product["k"].tolist() == [2.0, 2.0] and product["t"][0].tolist() == [1.0, 1.0]


def _linearized(lib, func, *primals):
    output, jvp_fn = lib.func.linearize(func, *primals)
    return output, jvp_fn(*[lib.ones_like(p) for p in primals])


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: _linearized(lib, lambda a: (a * 2, 3), lib.ones(3)),
    lambda lib: _linearized(lib, lambda a: 3, lib.ones(3)),
    lambda lib: _linearized(lib, lambda a: None, lib.ones(3)),
    lambda lib: _linearized(lib, lambda a: (), lib.ones(3)),
    lambda lib: _linearized(lib, lambda a: [a.sin(), (2, a.cos())], lib.ones(3)),
    lambda lib: _linearized(lib, lambda: lib.tensor(2.0)),
    lambda lib: _linearized(lib, lambda: (lib.tensor(2.0), 3)),
    lambda lib: _linearized(lib, lambda: 3),
    lambda lib: _linearized(lib, lambda: None),
    lambda lib: lib.func.linearize(lambda a: a * 2, 1.0),
])
def test_linearize_outputs_and_arguments_as_torch(case):
    assert_same(case, torch)


# -- jacfwd of an argument that is not a tensor -------------------------------------------------------

def test_jacfwd_counts_the_elements_of_its_arguments():
    with pytest.raises(AttributeError, match="'float' object has no attribute 'numel'"):
        tapegrad.func.jacfwd(lambda a, b: a * b, argnums=(0, 1))(tapegrad.ones(2), 3.0)
    # an undifferentiated argument may be anything
    jacobian = tapegrad.func.jacfwd(lambda a, b: a * b)(tapegrad.ones(2), 3.0)
    np.testing.assert_array_equal(jacobian.numpy(), 3 * np.eye(2))


@needs_torch
@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1,)])
def test_jacfwd_of_a_non_tensor_argument_as_torch(argnums):
    assert_same(lambda lib: lib.func.jacfwd(lambda a, b: a * b, argnums=argnums)(
        lib.ones(2), 3.0), torch)


# -- forward transforms through an operation without a second derivative -----------------------------

def _cdist(lib, a):
    return lib.cdist(a, a.flip(0) + 0.1)


_THROUGH = {
    "func.jvp": lambda lib, f, x: lib.func.jvp(f, (x,), (lib.ones_like(x),)),
    "jacfwd": lambda lib, f, x: lib.func.jacfwd(f)(x),
    "linearize": lambda lib, f, x: lib.func.linearize(f, x)[1](lib.ones_like(x)),
    "jacobian": lambda lib, f, x: lib.autograd.functional.jacobian(
        f, x, vectorize=True, strategy="forward-mode"),
}


@pytest.mark.parametrize("name", sorted(_THROUGH))
def test_forward_transforms_name_the_operation_without_a_forward_formula(name):
    x = tapegrad.tensor([[0.0, 1.0], [2.0, 0.5], [1.0, 1.0]])
    with pytest.raises(NotImplementedError, match="^Trying to use forward AD with _cdist_forward"):
        _THROUGH[name](tapegrad, lambda a: _cdist(tapegrad, a), x)
    # a function without such an operation still works after the refusal
    assert _THROUGH[name](tapegrad, lambda a: a * 2, x) is not None


@needs_torch
@pytest.mark.parametrize("name", sorted(_THROUGH))
@pytest.mark.parametrize("op", [
    _cdist,
    lambda lib, a: lib.nn.functional.pdist(a),
    lambda lib, a: lib.nn.functional.grid_sample(
        a[:2, :2].reshape(1, 1, 2, 2), lib.tensor([[[[0.3, -0.2], [0.1, 0.4]]]], dtype=a.dtype),
        align_corners=False),
    lambda lib, a: lib.heaviside(a, a),
    lambda lib, a: a.scatter(0, lib.tensor([[0, 1]]), a[:1] * 2, reduce="add"),
    # operations differentiable twice, which PyTorch gives no forward formula
    lambda lib, a: lib.nn.functional.embedding_bag(lib.tensor([0, 1, 2]), a, lib.tensor([0, 1])),
    lambda lib, a: a.index_reduce(0, lib.tensor([0, 2]), a[:2] * 2, "prod"),
    lambda lib, a: lib.nn.functional.multi_margin_loss(a, lib.tensor([0, 1, 1])),
    lambda lib, a: a * 3,
])
def test_forward_transforms_through_operations_as_torch(name, op):
    x = np.array([[0.0, 1.0], [2.0, 0.5], [1.0, 1.5]])
    assert_same(lambda lib: _THROUGH[name](lib, lambda a: op(lib, a), lib.tensor(x)), torch)


@needs_torch
@pytest.mark.parametrize("op", [
    lambda lib, a: lib.heaviside(a, a),
    lambda lib, a: a.scatter(0, lib.tensor([[0, 1]]), a[:1] * 2, reduce="multiply"),
])
def test_dual_tensors_refuse_an_operation_without_derivative_as_torch(op):
    def case(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            return fw.unpack_dual(op(lib, fw.make_dual(lib.ones(2, 2), lib.ones(2, 2)))).tangent
    assert_same(case, torch)


# -- nan_to_num's derivative is a product ---------------------------------------------------------------

def test_nan_to_num_keeps_a_nan_tangent_where_it_replaces():
    b = tapegrad.tensor([1.0, 0.0, 2.0])
    _, tangent = tapegrad.func.jvp(lambda a: tapegrad.nan_to_num(a / b),
                                   (tapegrad.tensor([1.0, 1.0, 1.0]),), (tapegrad.ones(3),))
    assert np.isnan(tangent[1].item()) and tangent[0].item() == 1.0 and tangent[2].item() == 0.5


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.func.jvp(lambda a: lib.nan_to_num(a / lib.tensor([1.0, 0.0, 0.0, 2.0])),
                             (lib.tensor([1.0, 0.0, -1.0, 2.0]),), (lib.ones(4),)),
    lambda lib: lib.func.jacfwd(lambda a: lib.nan_to_num(a.log()))(lib.tensor([0.0, 1.0, -1.0])),
    lambda lib: lib.autograd.grad(
        lib.nan_to_num(lib.tensor([0.0, 2.0], requires_grad=True).log()).sum() * 2,
        [lib.tensor(0.0)], allow_unused=True),
])
def test_nan_to_num_derivatives_as_torch(case):
    assert_same(case, torch)


# -- in-place writes through a view of an expanded view -------------------------------------------------

def test_a_write_through_a_select_of_an_expanded_view_reaches_the_base():
    base = tapegrad.zeros(3, 4)
    base.unsqueeze(0).expand(2, 1, 3, 4)[0].sub_(2.0)
    base.t().unsqueeze(1).expand(4, 2, 3)[:, 1].add_(tapegrad.arange(12.0).view(4, 3))
    np.testing.assert_array_equal(base.numpy(), np.arange(12.0).reshape(4, 3).T - 2)
    with pytest.raises(RuntimeError, match="single memory location"):  # the expanded view itself
        base.unsqueeze(0).expand(2, 3, 4).add_(1)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: _written_through_expand(lib, lambda v: v.mul_(lib.arange(12.0).view(1, 3, 4))),
    lambda lib: _written_through_expand(lib, lambda v: v.copy_(lib.ones(1, 3, 4))),
    lambda lib: _dual_written_through_expand(lib),
])
def test_writes_through_a_select_of_an_expanded_view_as_torch(case):
    assert_same(case, torch)


def _written_through_expand(lib, write):
    x = lib.ones(3, 4, requires_grad=True)
    base = x * 2
    write(base.unsqueeze(0).expand(2, 1, 3, 4)[1])
    base.sum().backward()
    return base, x.grad


def _dual_written_through_expand(lib):
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        base = fw.make_dual(lib.zeros(3, 4), lib.ones(3, 4))
        view = base.unsqueeze(0).expand(2, 1, 3, 4)[0]
        view.sub_(fw.make_dual(lib.ones(1, 3, 4), lib.full((1, 3, 4), 2.0)))
        return tuple(fw.unpack_dual(base)) + tuple(fw.unpack_dual(view))


# -- autograd.Function without a jvp rule in forward mode outside torch.func -----------------------------

def _sine(lib, split_style, with_jvp):
    """A Function computing sin, in the old style (ctx in forward) or the split one."""
    if split_style:
        class Sine(lib.autograd.Function):
            @staticmethod
            def forward(x):
                return x.sin()

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0])
                ctx.x = inputs[0]
    else:
        class Sine(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                ctx.x = x
                return x.sin()

    def backward(ctx, grad):
        return grad * ctx.saved_tensors[0].cos()

    def jvp(ctx, tangent):
        return tangent * ctx.x.cos()
    Sine.backward = staticmethod(backward)
    if with_jvp:
        Sine.jvp = staticmethod(jvp)
    return Sine


_PLAIN_FORWARD = {
    "linearize": lambda lib, f, x: lib.func.linearize(f, x)[1](lib.ones_like(x)),
    "jacobian": lambda lib, f, x: lib.autograd.functional.jacobian(
        f, x, vectorize=True, strategy="forward-mode"),
}


@pytest.mark.parametrize("name", sorted(_PLAIN_FORWARD))
def test_plain_forward_mode_needs_a_jvp_rule_not_setup_context(name):
    x = tapegrad.tensor([0.0, 1.0])
    with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
        _PLAIN_FORWARD[name](tapegrad, _sine(tapegrad, False, False).apply, x)
    product = _PLAIN_FORWARD[name](tapegrad, _sine(tapegrad, False, True).apply, x)
    np.testing.assert_allclose(np.asarray(product).reshape(-1)[[0, -1]], np.cos([0.0, 1.0]))


@needs_torch
@pytest.mark.parametrize("name", sorted(_PLAIN_FORWARD))
@pytest.mark.parametrize("split_style", [False, True])
@pytest.mark.parametrize("with_jvp", [False, True])
def test_plain_forward_mode_through_a_function_as_torch(name, split_style, with_jvp):
    assert_same(lambda lib: _PLAIN_FORWARD[name](
        lib, _sine(lib, split_style, with_jvp).apply, lib.tensor([0.0, 1.0, 2.0])), torch)


@needs_torch
@pytest.mark.parametrize("values, correction", [([1.0, 2.0, 4.0], 5), ([1.0, 2.0, 4.0], 3),
                                                ([3.0], 2), ([3.0, 3.0], 2)])
def test_variance_of_everything_without_degrees_of_freedom_differentiates_as_pytorch(
        values, correction):
    """(Reported by fzf, fixed after its round.) var() of the whole input with no degrees of
    freedom has an infinite scale: PyTorch's gradient is nan where an element equals the mean
    and +inf elsewhere, whatever the deviation's sign; std's follows through var's."""
    def gradients(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
            var_grad, = lib.autograd.grad(x.var(correction=correction), x)
            std_grad, = lib.autograd.grad(x.std(correction=correction), x)
        return var_grad.numpy(), std_grad.numpy()
    for ours, theirs in zip(gradients(tapegrad), gradients(torch)):
        np.testing.assert_array_equal(ours, theirs)
