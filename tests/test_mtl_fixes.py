"""autograd.Function under torch.func transforms (which Functions may go through grad, vmap and
functionalize, with PyTorch's errors), module backward hooks under vmap, and
``torch.func.functionalize``: independent truths first, then the same cases against PyTorch."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.func import functionalize, grad, vmap

from same_as_torch import assert_same


def _functions(lib):
    """Old-style, split-style without a vmap rule, with a generated rule, with both."""

    class Old(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Split(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    class Generated(Split):
        generate_vmap_rule = True

    class Ambiguous(Generated):
        @staticmethod
        def vmap(info, in_dims, x):
            return Split.apply(x), in_dims[0]

    return Old, Split, Generated, Ambiguous


OLD, SPLIT, GENERATED, AMBIGUOUS = _functions(tapegrad)


def _arange(lib):
    return lib.arange(4.0, dtype=lib.float64)


# -- independent truths ------------------------------------------------------------------------
def test_functions_still_work_outside_transforms():
    x = _arange(tapegrad).requires_grad_()
    OLD.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2.0)
    assert not tapegrad.autograd.function.active_transforms


def test_split_style_function_under_grad_and_vmap_of_grad():
    x = _arange(tapegrad)
    np.testing.assert_allclose(grad(lambda t: GENERATED.apply(t).sum())(x).numpy(), 2 * x.numpy())
    np.testing.assert_allclose(vmap(grad(GENERATED.apply))(x).numpy(), 2 * x.numpy())
    np.testing.assert_allclose(vmap(GENERATED.apply)(x).numpy(), x.numpy() ** 2)


@pytest.mark.parametrize("transform", [lambda f: grad(lambda t: f(t).sum()), vmap,
                                       functionalize])
def test_old_style_function_refused_by_every_transform(transform):
    with pytest.raises(RuntimeError, match="must override the setup_context staticmethod"):
        transform(OLD.apply)(_arange(tapegrad))
    assert not tapegrad.autograd.function.active_transforms  # left clean after the error


def test_vmap_needs_a_rule_even_under_an_inner_grad():
    with pytest.raises(RuntimeError, match="does not have vmap support"):
        vmap(grad(SPLIT.apply))(_arange(tapegrad))
    with pytest.raises(RuntimeError, match="both generate_vmap_rule=True and an overridden"):
        vmap(AMBIGUOUS.apply)(_arange(tapegrad))


def test_module_backward_hook_is_skipped_under_vmap_but_runs_under_grad_outside():
    calls = []
    layer = nn.Linear(2, 1).double()
    layer.register_full_backward_hook(lambda *args: calls.append(1))
    out = vmap(layer)(tapegrad.ones(3, 2, dtype=tapegrad.float64, requires_grad=True))
    assert out.shape == (3, 1) and out.requires_grad
    out.sum().backward()  # no hook recorded inside vmap, as PyTorch's batched tensors record none
    assert calls == []
    layer(tapegrad.ones(1, 2, dtype=tapegrad.float64, requires_grad=True)).sum().backward()
    assert calls == [1]


def test_functionalize_copies_mutations_back_once_and_returns_no_alias():
    def scale_view(t):
        v = t.view(-1)
        v.mul_(3)
        return v

    x = tapegrad.ones(2, 2)
    version = x._version
    out = functionalize(scale_view)(x)
    np.testing.assert_allclose(x.numpy(), 3.0)
    assert x._version == version + 1 and out._base is not x and out.data_ptr() != x.data_ptr()
    untouched = tapegrad.zeros(3)
    functionalize(lambda t: t * 2)(untouched)
    assert untouched._version == 0


def test_functionalize_keeps_gradients_and_kwargs():
    x = _arange(tapegrad)
    g = grad(functionalize(lambda a: a.clone().mul_(a).sum()))(x)
    np.testing.assert_allclose(g.numpy(), 2 * x.numpy())
    five = tapegrad.tensor(5.0, dtype=tapegrad.float64)
    scaled = functionalize(lambda a, b=2.0: a * b)(x, b=five)
    np.testing.assert_allclose(scaled.numpy(), 5 * x.numpy())


def test_functionalize_checks_remove():
    with pytest.raises(RuntimeError, match="received invalid argument for remove=views"):
        functionalize(lambda t: t, remove="views")
    functionalize(lambda t: t, remove="mutations_and_views")  # accepted


# -- against PyTorch ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _case(build):
    """A case over ``lib``'s own Function classes (old, split, generated, ambiguous)."""
    return lambda lib: build(lib, *_functions(lib))


CASES = {
    "grad old-style": lambda lib, old, *_: lib.func.grad(lambda t: old.apply(t).sum())(
        _arange(lib)),
    "jacrev old-style": lambda lib, old, *_: lib.func.jacrev(old.apply)(_arange(lib)),
    "jvp old-style": lambda lib, old, *_: lib.func.jvp(old.apply, (_arange(lib),),
                                                        (_arange(lib),)),
    "vmap old-style": lambda lib, old, *_: lib.vmap(old.apply)(_arange(lib)),
    "vmap no rule": lambda lib, old, split, *_: lib.vmap(split.apply)(_arange(lib)),
    "vmap(grad) no rule": lambda lib, old, split, *_: lib.vmap(lib.func.grad(split.apply))(
        _arange(lib)),
    "vmap ambiguous": lambda lib, *fns: lib.vmap(fns[3].apply)(_arange(lib)),
    "vmap generated": lambda lib, *fns: lib.vmap(fns[2].apply)(_arange(lib)),
    "grad split": lambda lib, old, split, *_: lib.func.grad(lambda t: split.apply(t).sum())(
        _arange(lib)),
    "jacfwd split": lambda lib, old, split, *_: lib.func.jacfwd(split.apply)(_arange(lib)),
    "jacfwd generated": lambda lib, *fns: lib.func.jacfwd(fns[2].apply)(_arange(lib)),
    "jvp split": lambda lib, old, split, *_: lib.func.jvp(split.apply, (_arange(lib),),
                                                          (_arange(lib),)),
    "jacrev split": lambda lib, old, split, *_: lib.func.jacrev(split.apply)(_arange(lib)),
    "hessian split": lambda lib, old, split, *_: lib.func.hessian(
        lambda t: split.apply(t).sum())(_arange(lib)),
    "hessian generated": lambda lib, *fns: lib.func.hessian(lambda t: fns[2].apply(t).sum())(
        _arange(lib)),
    "jvp of a constant": lambda lib, old, split, *_: lib.func.jvp(
        lambda t: t * split.apply(lib.ones(4, dtype=lib.float64)), (_arange(lib),),
        (_arange(lib),)),
    "functionalize split": lambda lib, old, split, *_: lib.func.functionalize(split.apply)(
        _arange(lib)),
    "functionalize remove": lambda lib, *_: lib.func.functionalize(lambda t: t, remove="all"),
    "functionalize mutation": lambda lib, *_: (lambda x: (
        lib.func.functionalize(lambda t: t.add_(1).mul(2))(x), x))(_arange(lib)),
    "grad module hook": lambda lib, *_: _hooked_grad(lib),
}


def _hooked_grad(lib):
    layer = lib.nn.Linear(2, 1).double()
    layer.register_full_backward_hook(lambda *args: None)
    return lib.func.grad(lambda x: layer(x).sum())(lib.ones(2, dtype=lib.float64))


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_pytorch(name, torch):
    assert_same(_case(CASES[name]), torch)


def test_forward_mode_needs_a_jvp_rule_only_for_inputs_with_tangents():
    x = _arange(tapegrad)
    with pytest.raises(NotImplementedError, match="must implement the jvp function"):
        tapegrad.func.jvp(GENERATED.apply, (x,), (x,))
    _, product = tapegrad.func.jvp(lambda t: t * GENERATED.apply(tapegrad.ones(4)), (x,), (x,))
    np.testing.assert_allclose(product.numpy(), x.numpy())


def _rule_functions(lib):
    """A Function whose vmap rule differs visibly from its forward (it adds 100), and rules
    returning malformed results."""

    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x ** 3 * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * x ** 2 * ctx.k * g, None

        @staticmethod
        def vmap(info, in_dims, x, k):
            assert in_dims[1] is None
            moved = x.movedim(in_dims[0], -1)
            return Cube.apply(moved, k) + 100, -1

    class NotATuple(Cube):
        @staticmethod
        def vmap(info, in_dims, x, k):
            return x

    class ThreeReturns(Cube):
        @staticmethod
        def vmap(info, in_dims, x, k):
            return x, 0, 0

    return Cube, NotATuple, ThreeReturns


CUBE, _, _ = _rule_functions(tapegrad)


def test_custom_vmap_rule_is_used_per_example_and_differentiable():
    x = tapegrad.arange(6.0, dtype=tapegrad.float64).view(2, 3)
    out = vmap(lambda row: CUBE.apply(row, 2.0))(x)
    np.testing.assert_allclose(out.numpy(), 2 * x.numpy() ** 3 + 100)
    np.testing.assert_allclose(vmap(lambda t: CUBE.apply(t, 1.0), in_dims=1)(x).numpy(),
                               x.numpy().T ** 3 + 100)
    per_example = vmap(grad(lambda row: CUBE.apply(row, 1.0).sum()))(x)
    np.testing.assert_allclose(per_example.numpy(), 3 * x.numpy() ** 2)
    nested = vmap(vmap(lambda v: CUBE.apply(v, 1.0)))(x)  # the inner rule's apply meets the outer
    np.testing.assert_allclose(nested.numpy(), x.numpy() ** 3 + 200)
    assert not tapegrad.autograd.function.active_transforms


def test_custom_vmap_rule_sees_a_batch_of_one_and_the_randomness_flag():
    seen = []

    class Spy(GENERATED):
        generate_vmap_rule = False

        @staticmethod
        def vmap(info, in_dims, x):
            seen.append((info.batch_size, info.randomness, in_dims, tuple(x.shape)))
            return x, 0

    vmap(Spy.apply, randomness="same")(tapegrad.ones(2, 3))
    assert seen == [(1, "same", (0,), (1, 3))] * 2


RULE_CASES = {
    "vmap rule": lambda lib, cube, *_: lib.vmap(lambda r: cube.apply(r, 2.0))(
        lib.arange(6.0, dtype=lib.float64).view(2, 3)),
    "vmap(grad) rule": lambda lib, cube, *_: lib.vmap(lib.func.grad(
        lambda r: cube.apply(r, 1.0).sum()))(lib.arange(6.0, dtype=lib.float64).view(2, 3)),
    "rule returns one": lambda lib, cube, bad, _: lib.vmap(lambda r: bad.apply(r, 1.0))(
        lib.ones(2, 3)),
    "rule returns three": lambda lib, cube, _, bad: lib.vmap(lambda r: bad.apply(r, 1.0))(
        lib.ones(2, 3)),
}


@pytest.mark.parametrize("name", sorted(RULE_CASES))
def test_vmap_rules_as_pytorch(name, torch):
    assert_same(lambda lib: RULE_CASES[name](lib, *_rule_functions(lib)), torch)


def _hooked_sin_sum(lib):
    def f(t):
        with lib.autograd.graph.saved_tensors_hooks(lambda a: a, lambda a: a):
            return t.sin().sum()
    return f


HOOK_CASES = {
    "grad, hooks inside": lambda lib: lib.func.grad(_hooked_sin_sum(lib))(_arange(lib)),
    "vjp, hooks inside": lambda lib: lib.func.vjp(_hooked_sin_sum(lib), _arange(lib))[0],
    "hessian, hooks inside": lambda lib: lib.func.hessian(_hooked_sin_sum(lib))(_arange(lib)),
    "jacfwd, hooks inside": lambda lib: lib.func.jacfwd(_hooked_sin_sum(lib))(_arange(lib)),
    "vmap, hooks inside": lambda lib: lib.vmap(_hooked_sin_sum(lib))(_arange(lib)),
    "grad of a non-reentrant checkpoint": lambda lib: lib.func.grad(
        lambda t: lib.utils.checkpoint.checkpoint(lib.sin, t, use_reentrant=False).sum())(
        _arange(lib)),
    "grad, hooks outside": lambda lib: _under_save_on_cpu(
        lib, lambda: lib.func.grad(lambda t: t.sin().sum())(_arange(lib))),
    "jvp, hooks outside": lambda lib: _under_save_on_cpu(
        lib, lambda: lib.func.jvp(lib.sin, (_arange(lib),), (_arange(lib),))),
}


def _under_save_on_cpu(lib, call):
    with lib.autograd.graph.save_on_cpu():
        return call()


def test_reverse_transforms_refuse_saved_tensor_hooks_and_leave_them_usable():
    x = _arange(tapegrad)
    with pytest.raises(RuntimeError, match="don't yet support saved tensor hooks"):
        tapegrad.func.grad(_hooked_sin_sum(tapegrad))(x)
    y = x.clone().requires_grad_()
    _hooked_sin_sum(tapegrad)(y).backward()  # outside a transform the hooks work again
    np.testing.assert_allclose(y.grad.numpy(), np.cos(x.numpy()))
    _, product = tapegrad.func.jvp(_hooked_sin_sum(tapegrad), (x,), (tapegrad.ones_like(x),))
    np.testing.assert_allclose(product.item(), np.cos(x.numpy()).sum())


@pytest.mark.parametrize("name", sorted(HOOK_CASES))
def test_saved_tensor_hooks_under_transforms_as_pytorch(name, torch):
    assert_same(HOOK_CASES[name], torch)
