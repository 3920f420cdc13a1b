"""Differences found by the "Extending PyTorch" programs (ext_*): the version bump of a tensor a
custom Function marks dirty, forward-mode AD through Functions (primal-only forward, zero
tangents for inputs without one), views returned by a Function's forward, and the
``torch.library.custom_op`` API (custom ops with fake and autograd registrations)."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _scale_inplace(lib):
    class ScaleInplace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, x_t):
            x_t.mul_(2)
            return x_t
    return ScaleInplace


# -- mark_dirty ---------------------------------------------------------------------------------

def test_mark_dirty_bumps_the_version_once_more():
    x = tapegrad.ones(3, requires_grad=True) * 1.0
    out = _scale_inplace(tapegrad).apply(x)
    assert out is x and x._version == 2  # the forward's mul_, then mark_dirty


@needs_torch
def test_mark_dirty_version_same_as_torch():
    def case(lib):
        x = lib.ones(3, requires_grad=True) * 1.0
        view = x[:2]
        _scale_inplace(lib).apply(x)
        return lib.tensor([float(x._version), float(view._version)])
    assert_same(case, torch)


# -- forward-mode AD ------------------------------------------------------------------------------

class _MulAdd(tapegrad.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_forward(x, y)
        return x * y + alpha

    @staticmethod
    def jvp(ctx, x_t, y_t, alpha_t):
        assert alpha_t is None  # a non-tensor argument has no tangent
        x, y = ctx.saved_tensors
        return x_t * y + x * y_t

    @staticmethod
    def backward(ctx, g):
        raise AssertionError("not used")


def test_jvp_gets_zero_tangents_for_inputs_without_one():
    fwAD = tapegrad.autograd.forward_ad
    x, y = tapegrad.tensor([1.0, 2.0]), tapegrad.tensor([3.0, 5.0])
    with fwAD.dual_level():
        out = _MulAdd.apply(fwAD.make_dual(x, tapegrad.ones(2)), y, 1.5)
        tangent = fwAD.unpack_dual(out).tangent
    np.testing.assert_array_equal(tangent.numpy(), y.numpy())  # d(xy)/dx · 1


def test_jvp_gets_none_when_grads_are_not_materialized():
    seen = []

    class Double(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.set_materialize_grads(False)
            return x * 2 + y

        @staticmethod
        def jvp(ctx, x_t, y_t):
            seen.append(y_t)
            return x_t * 2

    fwAD = tapegrad.autograd.forward_ad
    with fwAD.dual_level():
        Double.apply(fwAD.make_dual(tapegrad.ones(2), tapegrad.ones(2)), tapegrad.ones(2))
    assert seen == [None]


def test_forward_sees_primals_only_so_an_inplace_forward_leaves_the_tangent_to_jvp():
    fwAD = tapegrad.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.ones(2), tapegrad.full((2,), 3.0))
        out = _scale_inplace(tapegrad).apply(dual)
        primal, tangent = fwAD.unpack_dual(out)
    np.testing.assert_array_equal(primal.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(tangent.numpy(), [6.0, 6.0])  # jvp doubles it, only once


def test_forward_that_raises_gives_the_inputs_their_tangents_back():
    class Fails(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            raise ValueError("boom")

        @staticmethod
        def jvp(ctx, x_t):
            return x_t

    fwAD = tapegrad.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.ones(2), tapegrad.ones(2))
        with pytest.raises(ValueError):
            Fails.apply(dual)
        assert fwAD.unpack_dual(dual).tangent is not None


# -- views returned by forward --------------------------------------------------------------------

@needs_torch
def test_inplace_on_a_view_returned_by_a_function_is_the_custom_function_error():
    def case(lib):
        class FirstHalf(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x[:2]

            @staticmethod
            def backward(ctx, g):
                return lib.cat([g, lib.zeros(2)])

        view = FirstHalf.apply(lib.arange(4.0, requires_grad=True) * 1.0)
        view.mul_(2)
        return view
    assert_same(case, torch)


# -- torch.library.custom_op ----------------------------------------------------------------------

def _numpy_sin_op(lib, name):
    @lib.library.custom_op(f"exttest::{name}", mutates_args=())
    def numpy_sin(x: lib.Tensor) -> lib.Tensor:
        return lib.from_numpy(np.sin(x.numpy()))

    @numpy_sin.register_fake
    def _(x):
        return lib.empty_like(x)
    return numpy_sin


def test_custom_op_with_autograd_passes_gradcheck():
    op = _numpy_sin_op(tapegrad, "sin_gradcheck")

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    op.register_autograd(lambda ctx, g: g * ctx.saved_tensors[0].cos(),
                         setup_context=setup_context)
    x = tapegrad.tensor([0.1, 0.7, 1.3], dtype=tapegrad.float64, requires_grad=True)
    assert tapegrad.autograd.gradcheck(op, (x,))
    assert type(op(x).grad_fn).__name__ == \
        "GeneratedBackwardFor_exttest_sin_gradcheck_defaultBackward"


def test_custom_op_is_reachable_through_torch_ops():
    op = _numpy_sin_op(tapegrad, "sin_ops")
    packet = tapegrad.ops.exttest.sin_ops
    assert repr(packet) == "exttest.sin_ops" and repr(packet.default) == "exttest.sin_ops.default"
    np.testing.assert_allclose(packet.default(tapegrad.tensor([1.0])).numpy(),
                               op(tapegrad.tensor([1.0])).numpy())


def test_custom_op_never_shadows_a_tapegrad_module():
    linalg = tapegrad.ops.linalg

    @tapegrad.library.custom_op("linalg::exttest_identity", mutates_args=())
    def identity(x: tapegrad.Tensor) -> tapegrad.Tensor:
        return x.clone()

    assert tapegrad.ops.linalg is linalg
    np.testing.assert_array_equal(identity(tapegrad.ones(2)).numpy(), [1.0, 1.0])


def test_register_autograd_by_name():
    op = _numpy_sin_op(tapegrad, "sin_by_name")
    tapegrad.library.register_autograd("exttest::sin_by_name", lambda ctx, g: g * 2)
    x = tapegrad.ones(2, requires_grad=True)
    op(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


@needs_torch
def test_custom_op_without_autograd_formula_same_as_torch():
    def case(lib):
        op = _numpy_sin_op(lib, "sin_no_formula")
        out = op(lib.ones(2, requires_grad=True))
        assert out.requires_grad
        out.sum().backward()
    assert_same(case, torch)


@needs_torch
def test_mutating_custom_op_same_as_torch():
    def case(lib):
        @lib.library.custom_op("exttest::add_one_", mutates_args=("x",))
        def add_one_(x: lib.Tensor) -> None:
            x.add_(1)

        t = lib.zeros(2)
        add_one_(t)
        return t, lib.tensor(float(t._version))
    assert_same(case, torch)


@needs_torch
def test_custom_op_needs_annotations_same_as_torch():
    def case(lib):
        @lib.library.custom_op("exttest::unannotated", mutates_args=())
        def unannotated(x):
            return x
    assert_same(case, torch)


# -- save_for_backward --------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("requires_grad", [False, True])
def test_save_for_backward_refuses_non_tensors_same_as_torch(requires_grad):
    def case(lib):
        class SavesNumber(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, None, 3)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g
        return SavesNumber.apply(lib.ones(2, requires_grad=requires_grad))
    assert_same(case, torch)


# -- vjp, instances -----------------------------------------------------------------------------

class _CubeVjp(tapegrad.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def vjp(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


def test_vjp_is_the_backward_when_backward_is_not_defined():
    x = tapegrad.tensor([1.0, -2.0], dtype=tapegrad.float64, requires_grad=True)
    assert tapegrad.autograd.gradcheck(_CubeVjp.apply, (x,))
    _CubeVjp.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 12.0])


def test_defining_both_backward_and_vjp_is_refused():
    class Both(_CubeVjp):
        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match="Implementing both 'backward' and 'vjp'"):
        Both.apply(tapegrad.ones(2, requires_grad=True)).sum().backward()


@needs_torch
def test_instantiating_a_function_warns_and_calling_it_raises_same_as_torch():
    def case(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        with pytest.warns(DeprecationWarning, match="should not be instantiated"):
            instance = Twice()
        return instance(lib.ones(2))
    assert_same(case, torch)


# -- autograd.graph ------------------------------------------------------------------------------

@needs_torch
def test_pack_hook_modifying_its_input_same_as_torch():
    def case(lib):
        def pack(t):
            t.mul_(2)
            return t
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            return (lib.ones(2, requires_grad=True) * 1).exp()
    assert_same(case, torch)


@needs_torch
def test_increment_version_needs_tensors_same_as_torch():
    assert_same(lambda lib: lib.autograd.graph.increment_version(3), torch)


def test_gradient_edge_stands_for_its_tensor_in_grad():
    graph = tapegrad.autograd.graph
    x = tapegrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    edge = graph.get_gradient_edge(h)
    assert edge.node is h.grad_fn and edge.output_nr == 0 and edge.ownership_token is None
    assert graph.get_gradient_edge(x).node.variable is x
    (g_edge,) = tapegrad.autograd.grad((h * h).sum(), edge)  # a lone edge, not a tuple of three
    np.testing.assert_array_equal(g_edge.numpy(), 2 * h.detach().numpy())
    with pytest.raises(RuntimeError, match="does not require gradients"):
        graph.get_gradient_edge(tapegrad.ones(2))


def test_allow_mutation_on_saved_tensors_uses_the_values_from_before_the_write():
    graph = tapegrad.autograd.graph
    with graph.allow_mutation_on_saved_tensors():
        a = tapegrad.tensor([0.5, 1.0, 1.5], dtype=tapegrad.float64, requires_grad=True)
        b = a.clone()
        squares = (b ** 2).sum()
        b.sin_()
        head = b[:2]
        head_squares = (head * head).sum()
        b.mul_(2)  # through the base: reaches the saved view ``head`` too
        squares.backward()
        np.testing.assert_allclose(a.grad.numpy(), 2 * a.detach().numpy())
        a.grad = None
        head_squares.backward()
    a_np = a.detach().numpy()
    np.testing.assert_allclose(a.grad.numpy()[:2], (2 * np.sin(a_np) * np.cos(a_np))[:2])
    assert a.grad.numpy()[2] == 0


def test_allow_mutation_graphs_must_be_differentiated_inside():
    graph = tapegrad.autograd.graph
    with graph.allow_mutation_on_saved_tensors():
        loss = (tapegrad.ones(2, requires_grad=True) * 1).exp().sum()
    with pytest.raises(AssertionError, match="outside of the 'allow_mutation_on_saved_tensors'"):
        loss.backward()
    assert not tapegrad.ops.registry.inplace_observers


# -- torch.library.opcheck ----------------------------------------------------------------------

def _opcheck_outcome(lib, op, args, **kwargs):
    try:
        return sorted(lib.library.opcheck(op, args, **kwargs).items())
    except Exception as error:  # noqa: BLE001  the failure is the outcome being compared
        return type(error).__name__, str(error).split(" (scroll")[0]


@needs_torch
@pytest.mark.parametrize("problem", ["no_fake", "wrong_dtype", "wrong_shape", "mutates",
                                     "no_autograd", "fine"])
def test_opcheck_same_as_torch(problem):
    def outcome(lib):
        @lib.library.custom_op(f"extcheck::{problem}", mutates_args=())
        def op(x: lib.Tensor) -> lib.Tensor:
            if problem == "mutates":
                x.add_(1)
            return x.double() if problem == "wrong_dtype" else x.sin()

        if problem != "no_fake":
            op.register_fake(lambda x: x.new_empty(3) if problem == "wrong_shape"
                             else lib.empty_like(x))
        if problem == "fine":
            op.register_autograd(lambda ctx, g: g)
        return _opcheck_outcome(lib, op, (lib.ones(2, requires_grad=problem != "mutates"),))
    assert outcome(tapegrad) == outcome(torch)


def test_custom_op_output_may_not_alias_an_input():
    @tapegrad.library.custom_op("extcheck::view_of_input", mutates_args=())
    def first(x: tapegrad.Tensor) -> tapegrad.Tensor:
        return x[:1]

    with pytest.raises(RuntimeError, match="may not alias any inputs"):
        first(tapegrad.ones(2))


# -- Library / define / impl --------------------------------------------------------------------

def test_schema_arguments_defaults_and_mutations():
    name, signature, mutated = tapegrad.library._parse_schema(
        "f.out(Tensor(a!) out, Tensor x, int[] dims=[0, 1], *, float alpha=1.5, str? m=None)"
        " -> Tensor(a!)")
    assert name == "f" and mutated == ("out",)
    assert [(p.name, p.default, p.kind.name) for p in signature.parameters.values()][2:] == [
        ("dims", [0, 1], "POSITIONAL_OR_KEYWORD"), ("alpha", 1.5, "KEYWORD_ONLY"),
        ("m", None, "KEYWORD_ONLY")]


@needs_torch
def test_library_define_impl_same_as_torch():
    def case(lib):
        library = lib.library.Library("extlibtest", "FRAGMENT")
        library.define("axpy(Tensor y, Tensor x, *, float alpha=1.0) -> Tensor")
        library.impl("axpy", lambda y, x, *, alpha=1.0: y + alpha * x, "CPU")
        lib.library.define("extlibtest::nokernel", "(Tensor x) -> Tensor")
        y = lib.ones(2, requires_grad=True)
        out = lib.ops.extlibtest.axpy(y, lib.tensor([1.0, 2.0]), alpha=3.0)
        out.sum().backward()  # a plain kernel: autograd records its operations
        return out, y.grad, lib.ops.extlibtest.axpy.default(lib.zeros(1), lib.ones(1))
    assert_same(case, torch)


def test_library_autograd_kernel_takes_over_the_call():
    library = tapegrad.library.Library("extlibtest2", "DEF")
    library.define("double(Tensor x) -> Tensor")
    library.impl("double", lambda x: x * 2, "CPU")
    library.impl("double", lambda x: _CubeVjp.apply(x), "Autograd")
    x = tapegrad.tensor([2.0], requires_grad=True)
    out = tapegrad.ops.extlibtest2.double(x)
    assert type(out.grad_fn).__name__ == "_CubeVjpBackward" and out.item() == 8.0


def test_custom_op_keyword_only_arguments_reach_kernel_and_autograd():
    @tapegrad.library.custom_op("extcheck::scaled", mutates_args=())
    def scaled(x: tapegrad.Tensor, *, s: float = 2.0) -> tapegrad.Tensor:
        return x * s

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        assert len(inputs) == 1
        ctx.s = keyword_only_inputs["s"]

    scaled.register_autograd(lambda ctx, g: g * ctx.s, setup_context=setup_context)
    x = tapegrad.ones(2, requires_grad=True)
    scaled(x, s=3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(scaled(tapegrad.ones(1)).numpy(), [2.0])


@needs_torch
@pytest.mark.parametrize("requires_grad", [False, True])
def test_dirty_input_must_be_returned_same_as_torch(requires_grad):
    def case(lib):
        class DirtyNotReturned(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return DirtyNotReturned.apply(lib.ones(2, requires_grad=requires_grad) * 1)
    assert_same(case, torch)
