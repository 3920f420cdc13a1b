"""torch.func: values against analytic formulas and finite differences (float64), nesting,
which results stay differentiable, vmap's looping semantics and randomness flags, and — where
PyTorch is installed — values, structures and error messages against ``torch.func``."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.func import (functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp,
                           linearize, replace_all_batch_norm_modules_, stack_module_state, vjp,
                           vmap)

from same_as_torch import assert_same

RNG = np.random.default_rng(0)
X = RNG.standard_normal(4)
M = RNG.standard_normal((2, 3))
BATCHES = RNG.standard_normal((3, 4, 3))


def _t(array, requires_grad=False):
    return tapegrad.tensor(array, dtype=tapegrad.float64, requires_grad=requires_grad)


def _f(x):
    """R^n → R: sum(sin(x) x²), gradient cos(x) x² + 2x sin(x), diagonal Hessian."""
    return (x.sin() * x ** 2).sum()


def _f_grad(x):
    return np.cos(x) * x ** 2 + 2 * x * np.sin(x)


def _f_hessian(x):
    return np.diag(-np.sin(x) * x ** 2 + 4 * x * np.cos(x) + 2 * np.sin(x))


def _pair(a, b):
    """(R^{2×3}, R^3) → (R^3, R): two outputs, the second independent of b."""
    return a[0].exp() * (a[1] * b).sin(), (a ** 2).sum()


def _finite_difference_jacobian(func, arrays, argnum, output, eps=1e-6):
    """∂ output / ∂ arrays[argnum] by central differences, shaped output.shape + input.shape."""
    base = arrays[argnum]
    columns = []
    for index in range(base.size):
        shifted = []
        for sign in (1, -1):
            moved = base.copy().reshape(-1)
            moved[index] += sign * eps
            args = [_t(a) for a in arrays]
            args[argnum] = _t(moved.reshape(base.shape))
            shifted.append(func(*args)[output].numpy())
        columns.append((shifted[0] - shifted[1]) / (2 * eps))
    out_shape = np.shape(columns[0])
    return np.stack(columns, axis=-1).reshape(out_shape + base.shape)


# -- values -----------------------------------------------------------------------------------
def test_grad_and_value_are_analytic():
    gradient, value = grad_and_value(_f)(_t(X))
    np.testing.assert_allclose(gradient.numpy(), _f_grad(X), rtol=1e-12)
    np.testing.assert_allclose(value.item(), (np.sin(X) * X ** 2).sum(), rtol=1e-12)
    assert not gradient.requires_grad and not value.requires_grad


@pytest.mark.parametrize("second", [
    lambda f: jacrev(jacrev(f)), lambda f: jacfwd(jacrev(f)), lambda f: jacrev(jacfwd(f)),
    lambda f: jacfwd(jacfwd(f)), lambda f: jacrev(grad(f)), lambda f: hessian(f)])
def test_every_nesting_gives_the_hessian(second):
    result = second(_f)(_t(X))
    np.testing.assert_allclose(result.numpy(), _f_hessian(X), rtol=1e-10, atol=1e-12)
    assert not result.requires_grad


def test_grad_of_grad_and_vmap_of_grad_are_analytic():
    scalar = lambda t: t.sin() * t ** 2  # noqa: E731
    second = [grad(grad(scalar))(_t(v)).item() for v in X]
    np.testing.assert_allclose(second, np.diag(_f_hessian(X)), rtol=1e-12)
    np.testing.assert_allclose(vmap(grad(scalar))(_t(X)).numpy(), _f_grad(X), rtol=1e-12)


@pytest.mark.parametrize("jacobian", [jacrev, jacfwd])
def test_jacobians_of_two_outputs_match_finite_differences(jacobian):
    b = RNG.standard_normal(3)
    blocks = jacobian(_pair, argnums=(0, 1))(_t(M), _t(b))
    for output in range(2):
        for argnum in range(2):
            expected = _finite_difference_jacobian(_pair, [M, b], argnum, output)
            assert blocks[output][argnum].shape == expected.shape
            np.testing.assert_allclose(blocks[output][argnum].numpy(), expected, atol=1e-8)


def test_products_agree_with_the_jacobian():
    b, tangent_a, tangent_b = RNG.standard_normal(3), RNG.standard_normal((2, 3)), \
        RNG.standard_normal(3)
    cotangent = RNG.standard_normal(3)
    (j_a, j_b), _ = jacrev(_pair, argnums=(0, 1))(_t(M), _t(b))
    _, (product, _) = jvp(_pair, (_t(M), _t(b)), (_t(tangent_a), _t(tangent_b)))
    np.testing.assert_allclose(product.numpy(), np.tensordot(j_a.numpy(), tangent_a, 2)
                               + j_b.numpy() @ tangent_b, rtol=1e-12)
    _, vjp_fn = vjp(_pair, _t(M), _t(b))
    back_a, back_b = vjp_fn((_t(cotangent), _t(0.0)))
    np.testing.assert_allclose(back_a.numpy(), np.tensordot(cotangent, j_a.numpy(), 1),
                               rtol=1e-12)
    np.testing.assert_allclose(back_b.numpy(), cotangent @ j_b.numpy(), rtol=1e-12)


def test_linearize_gives_jvps_without_calling_the_function_again():
    calls = []

    def counted(a, b):
        calls.append(1)
        return _pair(a, b)

    b = RNG.standard_normal(3)
    tangents = _t(RNG.standard_normal((2, 3))), _t(RNG.standard_normal(3))
    output, jvp_fn = linearize(counted, _t(M), _t(b))
    first, second = jvp_fn(*tangents), jvp_fn(*tangents)
    assert len(calls) == 1
    _, expected = jvp(_pair, (_t(M), _t(b)), tangents)
    for got, want in zip(first + second, expected + expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_pytrees_in_and_out_keep_their_structure():
    params = {"w": _t(M), "b": _t(X[:3])}
    gradient = grad(lambda p: (p["w"] @ p["b"]).sum())(params)
    assert list(gradient) == ["w", "b"]
    np.testing.assert_allclose(gradient["w"].numpy(), np.tile(X[:3], (2, 1)))
    jac = jacrev(lambda p: {"y": p["w"] @ p["b"]})(params)
    assert jac["y"]["w"].shape == (2, 2, 3) and jac["y"]["b"].shape == (2, 3)


# -- what stays differentiable ----------------------------------------------------------------
def test_a_gradient_of_an_input_that_requires_grad_can_be_differentiated_again():
    x = _t(X, requires_grad=True)
    gradient = grad(_f)(x)
    assert gradient.requires_grad
    gradient.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.diag(_f_hessian(X)), rtol=1e-12)


def test_a_closure_parameter_receives_gradients_through_vmap_of_jacrev():
    """The PINN idiom: a loss on u'' at many points, trained by backward into the closure."""
    w = _t(0.7, requires_grad=True)
    u = lambda t: (w * t).sin()  # noqa: E731   u'' = -w² sin(w t)
    points = np.linspace(0, 1, 5)
    second = vmap(jacrev(jacrev(u)))(_t(points))
    np.testing.assert_allclose(second.detach().numpy(), -0.49 * np.sin(0.7 * points), rtol=1e-12)
    (second ** 2).sum().backward()
    value = lambda v: ((v ** 2 * np.sin(v * points)) ** 2).sum()  # noqa: E731
    np.testing.assert_allclose(w.grad.item(), (value(0.7 + 1e-6) - value(0.7 - 1e-6)) / 2e-6,
                               rtol=1e-6)


def test_results_are_detached_under_no_grad_and_when_nothing_outside_needs_them():
    w = _t(2.0, requires_grad=True)
    assert not grad(lambda x: (x ** 2).sum() + w)(_t(X)).requires_grad
    assert grad(lambda x: (x ** 2).sum() * w)(_t(X)).requires_grad
    with tapegrad.no_grad():
        result = grad(lambda x: (x ** 2).sum() * w)(_t(X))
    assert not result.requires_grad
    np.testing.assert_allclose(result.numpy(), 4 * X)


# -- vmap -------------------------------------------------------------------------------------
def test_vmap_maps_dims_and_places_outputs():
    a, b = _t(M), _t(M.T)
    result = vmap(lambda x, y: x * y, in_dims=(1, 0), out_dims=1)(a, b)
    np.testing.assert_allclose(result.numpy(), M * M)
    assert result.shape == (2, 3)
    nested = vmap(vmap(lambda x: x.sum()))(_t(RNG.standard_normal((2, 3, 4))))
    assert nested.shape == (2, 3)
    assert vmap(lambda d: d["x"] + d["y"], in_dims=({"x": 0, "y": None},))(
        {"x": a, "y": _t(X[:3])}).shape == (2, 3)


def test_gradients_flow_back_through_vmap_into_the_batched_input():
    x = _t(M, requires_grad=True)
    vmap(lambda row: (row ** 3).sum())(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * M ** 2)


def test_out_dims_none_returns_the_unbatched_value():
    ones, constant = vmap(lambda x: (x * 2, tapegrad.ones(2)), out_dims=(0, None))(_t(M))
    assert ones.shape == (2, 3) and constant.shape == (2,)
    with pytest.raises(ValueError, match="can not return a BatchedTensor"):
        vmap(lambda x: x, out_dims=None)(_t(M))


def test_randomness_flags():
    x = tapegrad.zeros(3, 2)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(lambda r: r + tapegrad.rand(2))(x)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(vmap(lambda r: r + tapegrad.rand(()), randomness="different"))(x)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        jacfwd(lambda r: r * tapegrad.rand(2))(tapegrad.ones(2))
    tapegrad.rand(2)  # the guard is gone once vmap has raised
    same = vmap(lambda r: r + tapegrad.rand(2), randomness="same")(x)
    assert all(tapegrad.equal(row, same[0]) for row in same)
    different = vmap(lambda r: r + tapegrad.rand(2), randomness="different")(x)
    assert not tapegrad.equal(different[0], different[1])
    dropped = vmap(lambda r: nn.functional.dropout(r + 1, 0.5), randomness="same")(x)
    assert all(tapegrad.equal(row, dropped[0]) for row in dropped)


def test_per_sample_gradients_equal_a_loop():
    model = nn.Linear(3, 2).double()
    params = {name: p.detach() for name, p in model.named_parameters()}
    data, targets = _t(RNG.standard_normal((5, 3))), _t(RNG.standard_normal((5, 2)))

    def loss(params, sample, target):
        prediction = functional_call(model, params, (sample.unsqueeze(0),))
        return ((prediction - target) ** 2).mean()

    batched = vmap(grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    for i in range(5):
        model.zero_grad()
        ((model(data[i:i + 1]) - targets[i]) ** 2).mean().backward()
        np.testing.assert_allclose(batched["weight"][i].numpy(), model.weight.grad.numpy(),
                                   rtol=1e-12)


def test_batch_norm_without_running_statistics_normalises_each_vmapped_batch():
    model = replace_all_batch_norm_modules_(nn.Sequential(nn.BatchNorm1d(3).double()))
    assert model[0].running_mean is None and not model[0].track_running_stats
    normalised = vmap(model)(_t(RNG.standard_normal((2, 5, 3))))
    np.testing.assert_allclose(normalised.mean(1).detach().numpy(), 0, atol=1e-12)


def test_ensembling_with_stacked_state_equals_each_model():
    models = [nn.Linear(3, 2).double() for _ in range(3)]
    params, buffers = stack_module_state(models)
    assert params["weight"].shape == (3, 2, 3) and params["weight"].is_leaf
    assert params["weight"].requires_grad and buffers == {}
    data = _t(RNG.standard_normal((4, 3)))
    outputs = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)),
                   in_dims=(0, 0, None))(params, buffers, data)
    for output, model in zip(outputs, models):
        np.testing.assert_allclose(output.detach().numpy(), model(data).detach().numpy())


# -- against PyTorch --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _x(lib):
    return lib.tensor(X, dtype=lib.float64)


def _linear(lib):
    model = lib.nn.Linear(3, 2).double()
    with lib.no_grad():
        model.weight.copy_(lib.tensor(M, dtype=lib.float64))
        model.bias.fill_(0.5)
    return model


def _batch_norm_in_vmap(lib):
    model = lib.nn.Sequential(_linear(lib), lib.nn.BatchNorm1d(2).double())
    lib.func.replace_all_batch_norm_modules_(model)
    batches = lib.tensor(BATCHES, dtype=lib.float64)
    return tuple(dict(model.named_buffers())), lib.vmap(model)(batches)


CASES = {
    "grad argnums": lambda lib: lib.func.grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, -1))(
        _x(lib), _x(lib)),
    "grad has_aux": lambda lib: lib.func.grad(lambda a: ((a ** 3).sum(), (a.cos(), a * 2)),
                                              has_aux=True)(_x(lib)),
    "grad of a list": lambda lib: lib.func.grad(lambda l: l[0] @ l[1])([_x(lib), _x(lib).exp()]),
    "vjp dict": lambda lib: lib.func.vjp(lambda d: {"s": d["p"].sin()}, {"p": _x(lib)})[1](
        {"s": lib.ones(4, dtype=lib.float64)})[0]["p"],
    "jvp": lambda lib: lib.func.jvp(lambda a, b: (a * b, a.sum()), (_x(lib), _x(lib)),
                                    (_x(lib).cos(), lib.ones(4, dtype=lib.float64))),
    "jacrev multi": lambda lib: lib.func.jacrev(lambda a, b: (a * b.sin(), a.sum()),
                                                argnums=(0, 1))(_x(lib), _x(lib)),
    "jacfwd aux": lambda lib: lib.func.jacfwd(lambda a: (a.exp() * a[0], a.cos()), has_aux=True)(
        _x(lib)),
    "hessian argnums": lambda lib: lib.func.hessian(lambda a, b: (a * a * b).sum(),
                                                    argnums=(0, 1))(_x(lib), _x(lib)),
    "vmap in_dims out_dims": lambda lib: lib.vmap(lambda a, b: (a * b, a.sum()), in_dims=(1, None),
                                                  out_dims=(1, 0))(_x(lib).view(2, 2), _x(lib)[:2]),
    "vmap jacrev": lambda lib: lib.func.vmap(lib.func.jacrev(lambda a: a.sin() * a.sum()))(
        _x(lib).view(2, 2)),
    "linearize": lambda lib: lib.func.linearize(lambda a, b: {"p": a * b.sin()}, _x(lib),
                                                _x(lib))[1](lib.ones(4, dtype=lib.float64),
                                                            _x(lib))["p"],
    "functional_call tuple": lambda lib: lib.func.functional_call(
        _linear(lib), ({"weight": lib.ones(2, 3, dtype=lib.float64)},
                       {"bias": lib.zeros(2, dtype=lib.float64)}), (_x(lib)[:3],)),
    "batch norm under vmap": lambda lib: _batch_norm_in_vmap(lib),
    "stack_module_state": lambda lib: tuple(
        (name, tuple(t.shape), t.requires_grad)
        for name, t in lib.func.stack_module_state([_linear(lib), _linear(lib)])[0].items()),
}

ERRORS = {
    "grad not scalar": lambda lib: lib.func.grad(lambda a: a * 2)(_x(lib)),
    "grad not tensor": lambda lib: lib.func.grad(lambda a: 2.0)(_x(lib)),
    "grad aux": lambda lib: lib.func.grad(lambda a: a.sum(), has_aux=True)(_x(lib)),
    "grad aux not tensor": lambda lib: lib.func.grad(lambda a: (a.sum(), 1), has_aux=True)(
        _x(lib)),
    "grad argnum": lambda lib: lib.func.grad(lambda a: a.sum(), argnums=2)(_x(lib)),
    "grad argnums repeated": lambda lib: lib.func.grad(lambda a, b: a.sum(), argnums=(0, -2))(
        _x(lib), _x(lib)),
    "grad argnums type": lambda lib: lib.func.grad(lambda a: a.sum(), argnums=[0])(_x(lib)),
    "grad float input": lambda lib: lib.func.grad(lambda a: a)(2.0),
    "grad int tensor": lambda lib: lib.func.grad(lambda a: a.sum())(lib.tensor([1, 2])),
    "vjp cotangent structure": lambda lib: lib.func.vjp(lambda d: {"s": d["p"]}, {"p": _x(lib)})[1](
        _x(lib)),
    "vjp output": lambda lib: lib.func.vjp(lambda a: 3.0, _x(lib)),
    "vjp int output": lambda lib: lib.func.vjp(lambda a: a.long(), _x(lib)),
    "jvp primals": lambda lib: lib.func.jvp(lib.sin, [_x(lib)], [_x(lib)]),
    "jvp structure": lambda lib: lib.func.jvp(lib.sin, (_x(lib),), (_x(lib), _x(lib))),
    "jvp size": lambda lib: lib.func.jvp(lib.sin, (_x(lib),), (_x(lib)[:3],)),
    "jvp strict": lambda lib: lib.func.jvp(lambda a: lib.ones(2), (_x(lib),), (_x(lib),),
                                           strict=True),
    "linearize tangents": lambda lib: lib.func.linearize(lib.mul, _x(lib), _x(lib))[1](_x(lib)),
    "linearize shape": lambda lib: lib.func.linearize(lib.sin, _x(lib))[1](_x(lib)[:2]),
    "jacrev chunk": lambda lib: lib.func.jacrev(lib.sin, chunk_size=0)(_x(lib)),
    "jacfwd aux": lambda lib: lib.func.jacfwd(lib.sin, has_aux=True)(_x(lib)),
    "vmap sizes": lambda lib: lib.vmap(lib.add, in_dims=(1, 1))(lib.ones(2, 3), lib.ones(2, 4)),
    "vmap in_dim range": lambda lib: lib.vmap(lib.sum, in_dims=2)(lib.ones(2, 3)),
    "vmap in_dims type": lambda lib: lib.vmap(lib.add, in_dims=[0, 0])(lib.ones(2), lib.ones(2)),
    "vmap in_dims structure": lambda lib: lib.vmap(lambda d: d["a"], in_dims=({"a": 0},))(
        {"a": lib.ones(2), "b": lib.ones(2)}),
    "vmap nothing mapped": lambda lib: lib.vmap(lib.add, in_dims=(None, None))(lib.ones(2),
                                                                              lib.ones(2)),
    "vmap non-tensor mapped": lambda lib: lib.vmap(lambda a, b: a * b)(lib.ones(2), 3.0),
    "vmap no inputs": lambda lib: lib.vmap(lambda: lib.ones(2))(),
    "vmap output": lambda lib: lib.vmap(lambda a: (a, 3.0))(lib.ones(2)),
    "vmap out_dims structure": lambda lib: lib.vmap(lambda a: (a, a), out_dims=(0, 0, 0))(
        lib.ones(2)),
    "vmap out_dims type": lambda lib: lib.vmap(lambda a: a, out_dims="x")(lib.ones(2)),
    "vmap out_dim range": lambda lib: lib.vmap(lambda a: a, out_dims=3)(lib.ones(2, 3)),
    "vmap chunk_size": lambda lib: lib.vmap(lib.sum, chunk_size=0)(lib.ones(2, 3)),
    "vmap randomness flag": lambda lib: lib.vmap(lib.sum, randomness="maybe")(lib.ones(2, 3)),
    "vmap random op": lambda lib: lib.vmap(lambda a: lib.nn.functional.dropout(a, 0.5))(
        lib.ones(2, 3)),
    "functional_call dicts": lambda lib: lib.func.functional_call(
        _linear(lib), ({"bias": lib.ones(2)}, {"bias": lib.ones(2)}), (lib.ones(3),)),
    "functional_call type": lambda lib: lib.func.functional_call(_linear(lib), "w", (lib.ones(3),)),
    "stack_module_state empty": lambda lib: lib.func.stack_module_state([]),
    "stack_module_state classes": lambda lib: lib.func.stack_module_state(
        [lib.nn.Linear(2, 2), lib.nn.Tanh()]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_and_structures_are_pytorchs(case, torch):
    assert_same(CASES[case], torch)


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_are_pytorchs(case, torch):
    assert_same(ERRORS[case], torch)


# -- torch.utils._pytree, which the transforms read their arguments with -------------------------
def test_pytree_round_trip_and_map():
    from collections import OrderedDict, namedtuple

    from tapegrad.utils import _pytree
    point = namedtuple("Point", "x y")
    tree = {"a": (1, [2, 3]), "b": OrderedDict(x=4), "c": point(5, None)}
    leaves, spec = _pytree.tree_flatten(tree)
    assert leaves == [1, 2, 3, 4, 5, None]
    assert _pytree.tree_unflatten([v for v in leaves], spec) == tree
    doubled = _pytree.tree_map(lambda v, w: None if v is None else v + w, tree, tree)
    assert doubled == {"a": (2, [4, 6]), "b": OrderedDict(x=8), "c": point(10, None)}
    with pytest.raises(ValueError, match="has length 1 but the spec refers to a pytree that "
                                         "holds 6 items"):
        _pytree.tree_unflatten([1], spec)
    with pytest.raises(ValueError, match="Tree structures do not match"):
        _pytree.tree_map(lambda v, w: v, tree, [1])


def test_pytree_spec_prints_as_pytorchs():
    torch_pytree = pytest.importorskip("torch.utils._pytree")
    from tapegrad.utils import _pytree
    tree = {"a": (1, [2, 3]), "b": [4]}
    assert repr(_pytree.tree_structure(tree)) == repr(torch_pytree.tree_structure(tree))


def test_backward_inside_a_transform_is_refused():
    def uses_backward(t):
        y = t.sin().sum()
        y.backward()
        return y

    for transform in (tapegrad.func.grad, tapegrad.func.vmap):
        with pytest.raises(RuntimeError, match="backward\\(\\) called inside a functorch transform"):
            transform(uses_backward)(tapegrad.ones(3))
    x = tapegrad.ones(3, requires_grad=True)
    uses_backward(x)  # outside any transform it runs as ever
    assert x.grad.tolist() == tapegrad.cos(tapegrad.ones(3)).tolist()
