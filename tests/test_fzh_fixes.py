"""Differences found by differential fuzzing of hooks and higher-order derivatives against
PyTorch (fzh). Hooks: ``register_multi_grad_hook`` (its "all" hook gets a list; "any" skips
tensors that don't require grad; "all" refuses, as PyTorch's ``_will_engine_execute_node``, a
leaf whose gradient ``autograd.grad`` returns); a node's post hooks under ``grad()`` or
``backward(inputs=)``, which see None for the inputs the walk does not need (PyTorch's built-in
nodes leave them uncomputed; a custom Function's backward still gives all it computed); pack
hooks of ``saved_tensors_hooks``, run with grad mode off. Higher-order derivatives, written as
PyTorch writes them so that ``create_graph`` records its nodes and values:
``binary_cross_entropy_backward`` (``BinaryCrossEntropyBackwardBackward0``, whose second
derivative adds eps instead of clamping, so a saturated input gets one),
``soft_margin_loss_backward`` (with the target's square), ``glu_backward``, the margin losses'
``NotImplemented`` backward, ``softplus_double_backward``, hardswish's select,
``binary_cross_entropy_with_logits`` with ``pos_weight``, std's and var's ``var_backward``
(whose scale turns negative past no degrees of freedom), the mse / huber / smooth L1 double
backward (``MulBackward1``, ``DivBackward1``), the nodes ATen's ``sum_to`` records
(``SumBackward0``, ``SumBackward1``, ``ViewBackward0``, not ``SumToSizeBackward0``), reduced
gradients unsqueezed as ``unsqueeze_multiple`` (sum, mean, var, logsumexp, norms, prod), amax's
``restore_reduced_dims`` and order, the 2- and inf-norm's order, ``dist`` (0-d gradient, two
paths, PyTorch's error at p=0), masked_fill's ``grad.masked_fill``, the value-selecting
reductions' scatter (sort, topk, kthvalue, median, mode), evenly_distribute's masked_fill,
``take`` as a ``put``, ``repeat_backward``, and trace's index_fill (zero, not ``inf * 0``, off
the diagonal)."""
import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

_RNG = np.random.default_rng(0)
_X, _T, _V = (_RNG.standard_normal((3, 4)) for _ in range(3))


def _described(value):
    """A tensor as (float64 values, dtype, grad_fn name); tuples, lists and other values as
    they are."""
    if isinstance(value, (tuple, list)):
        return [_described(v) for v in value]
    if hasattr(value, "grad_fn"):
        node, dtype = value.grad_fn, str(value.dtype).split(".")[-1]
        value = value.detach().double()
        try:
            array = value.numpy()
        except RuntimeError:  # (one of PyTorch's zero tensors, which numpy() refuses)
            array = value.numpy(force=True)
        return array, dtype, None if node is None else node.name()
    return value


def _outcome(lib, case):
    try:
        return _described(case(lib))
    except Exception as error:  # noqa: BLE001  the exception is the outcome being compared
        return type(error).__name__, str(error)


def _assert_equal(ours, theirs):
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            _assert_equal(a, b)
    elif isinstance(theirs, tuple) and theirs and isinstance(theirs[0], np.ndarray):
        assert isinstance(ours, tuple) and ours[1:] == theirs[1:], (ours[1:], theirs[1:])
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-7, atol=1e-10)
    else:
        assert ours == theirs


def assert_same_graph(case):
    """``case`` gives the same values (float64), dtypes and grad_fn names, or the same error."""
    _assert_equal(_outcome(tapegrad, case), _outcome(torch, case))


def _second_order(loss, **options):
    """``case(lib)``: the loss, its gradient (create_graph), and the gradients of that
    gradient's weighted sum for the input, the target and the grad_output."""
    def case(lib):
        x = lib.tensor(_X, requires_grad=True)
        t = lib.tensor(_T, requires_grad=options.get("target_grad", False))
        value = loss(lib, x, t)
        grad_output = lib.ones_like(value, requires_grad=True)
        inputs = [x, t] if t.requires_grad else [x]
        grads = lib.autograd.grad(value, inputs, grad_output, create_graph=True)
        second = lib.autograd.grad((grads[0] * lib.tensor(_V)).sum(), [grad_output] + inputs,
                                   create_graph=True)
        return [value, list(grads), list(second)]
    return case


def _F(lib):
    return lib.nn.functional


# -- register_multi_grad_hook -------------------------------------------------------------------

def _multi_hook_case(mode, run):
    def case(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0])
        c = a * 2
        log = []
        lib.autograd.graph.register_multi_grad_hook(
            (a, b, c) if mode == "any" else (a, c), lambda grads: log.append(
                type(grads).__name__ if mode == "all" else grads.tolist()), mode=mode)
        out = (c * c).sum()
        if run == "grad":
            lib.autograd.grad(out, a)
        elif run == "grad_nonleaf":
            lib.autograd.grad(out, c)
        else:
            out.backward()
        return log
    return case


@needs_torch
@pytest.mark.parametrize("mode, run", [("all", "backward"), ("all", "grad"),
                                       ("all", "grad_nonleaf"), ("any", "backward"),
                                       ("any", "grad")])
def test_multi_grad_hook(mode, run):
    assert_same_graph(_multi_hook_case(mode, run))


def test_multi_grad_hook_all_gets_a_list_and_refuses_a_captured_leaf():
    assert _outcome(tapegrad, _multi_hook_case("all", "backward")) == ["list"]
    error = _outcome(tapegrad, _multi_hook_case("all", "grad"))
    assert error[0] == "RuntimeError" and "_will_engine_execute_node" in error[1]


# -- node post hooks see None for the inputs the walk does not need ------------------------------

def _post_hook_case(kind, run):
    def case(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 5.0], requires_grad=True)
        if kind == "function":
            class Scale(lib.autograd.Function):
                @staticmethod
                def forward(ctx, x, y):
                    return x * y

                @staticmethod
                def backward(ctx, grad):
                    return grad * 2, grad * 3
            out = Scale.apply(a, b)
        else:
            out = a * b
        seen = []
        out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
            [None if g is None else g.tolist() for g in grad_inputs]))
        if run == "grad":
            lib.autograd.grad(out.sum(), a)
        elif run == "inputs":
            out.sum().backward(inputs=[b])
        else:
            out.sum().backward()
        return seen
    return case


@needs_torch
@pytest.mark.parametrize("kind", ["builtin", "function"])
@pytest.mark.parametrize("run", ["grad", "inputs", "backward"])
def test_post_hook_gradients_of_unneeded_inputs(kind, run):
    assert_same_graph(_post_hook_case(kind, run))


def test_post_hook_sees_none_for_an_unneeded_input():
    assert _outcome(tapegrad, _post_hook_case("builtin", "grad")) == [[[3.0, 5.0], None]]
    assert _outcome(tapegrad, _post_hook_case("function", "grad")) == [[[2.0, 2.0], [3.0, 3.0]]]


# -- double backward of losses and activations --------------------------------------------------

_LOSSES = {
    "bce": lambda lib, x, t, reduction: _F(lib).binary_cross_entropy(
        x.sigmoid(), t.sigmoid(), reduction=reduction),
    "bce_weight": lambda lib, x, t, reduction: _F(lib).binary_cross_entropy(
        x.sigmoid(), t.sigmoid(), weight=lib.tensor(np.abs(_V)), reduction=reduction),
    "bce_saturated": lambda lib, x, t, reduction: _F(lib).binary_cross_entropy(
        (x * 30).sigmoid(), t.sigmoid(), reduction=reduction),
    "bce_logits_pos_weight": lambda lib, x, t, reduction:
        _F(lib).binary_cross_entropy_with_logits(
            x, t.sigmoid(), pos_weight=lib.arange(1.0, 5.0, dtype=lib.float64),
            reduction=reduction),
    "soft_margin": lambda lib, x, t, reduction: _F(lib).soft_margin_loss(
        x, t.detach() * 2, reduction=reduction),
    "mse": lambda lib, x, t, reduction: _F(lib).mse_loss(x, t, reduction=reduction),
    "huber": lambda lib, x, t, reduction: _F(lib).huber_loss(x, t, reduction=reduction,
                                                             delta=0.8),
    "smooth_l1": lambda lib, x, t, reduction: _F(lib).smooth_l1_loss(x, t, reduction=reduction,
                                                                     beta=0.6),
}


@needs_torch
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_loss_double_backward(name, reduction):
    target_grad = name not in ("soft_margin",)  # (PyTorch refuses a soft margin target's)
    assert_same_graph(_second_order(lambda lib, x, t: _LOSSES[name](lib, x, t, reduction),
                                    target_grad=target_grad))


_ACTIVATIONS = {
    "glu": lambda lib, x, t: _F(lib).glu(x * t, 1),
    "glu_dim0": lambda lib, x, t: _F(lib).glu(x[:2] * t[:2], 0),
    "softplus": lambda lib, x, t: _F(lib).softplus(x * t, beta=2.0, threshold=1.5),
    "std": lambda lib, x, t: (x * t).std(1),
    "std_all": lambda lib, x, t: (x * t).std(),
    "std_mean": lambda lib, x, t: lib.std_mean(x * t, 0)[0],
    "var_past_no_dof": lambda lib, x, t: (x * t).var(0, correction=5),
    "broadcast": lambda lib, x, t: x * t[0] * t[:, :1] * t.sum(),
    "hardswish": lambda lib, x, t: _F(lib).hardswish(x * t * 3),
    "dist_of_both": lambda lib, x, t: lib.dist(x * t, x.flip(0) * 0.3, 3),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_double_backward(name):
    assert_same_graph(_second_order(_ACTIVATIONS[name], target_grad=True))


def test_saturated_bce_keeps_its_second_derivative():
    """PyTorch's formula: ``(x² - 2xt + t) / ((x + eps)² (1 - x + eps)²)``, not the derivative
    of the clamped first one (zero where ``x (1 - x) < eps``)."""
    x = tapegrad.tensor([1 - 1e-14, 0.5], dtype=tapegrad.float64, requires_grad=True)
    t = tapegrad.tensor([0.25, 0.25], dtype=tapegrad.float64)
    loss = tapegrad.nn.functional.binary_cross_entropy(x, t, reduction="sum")
    grad, = tapegrad.autograd.grad(loss, x, create_graph=True)
    assert grad.grad_fn.name() == "BinaryCrossEntropyBackwardBackward0"
    second, = tapegrad.autograd.grad(grad.sum(), x)
    p, eps = x.detach().numpy(), 1e-12
    expected = (p * p - 2 * p * 0.25 + 0.25) / ((p + eps) ** 2 * (1 - p + eps) ** 2)
    np.testing.assert_allclose(second.numpy(), expected, rtol=1e-6)
    assert second[0] > 1e20


def test_var_gradient_is_negative_past_no_degrees_of_freedom():
    x = tapegrad.tensor([1.0, 3.0], dtype=tapegrad.float64, requires_grad=True)
    x.var(0, correction=3).backward()  # (along a dim: of everything the scale is infinite)
    assert x.grad.tolist() == [2.0, -2.0]  # 2 / (2 - 3) * (x - mean)


@needs_torch
@pytest.mark.parametrize("kind", ["multi_margin", "multilabel_margin"])
def test_margin_loss_gradients_have_no_derivative(kind):
    def case(lib):
        x = lib.tensor(_X, requires_grad=True)
        if kind == "multi_margin":
            loss = _F(lib).multi_margin_loss(x, lib.tensor([1, 0, 3]), p=2)
        else:
            loss = _F(lib).multilabel_margin_loss(x, lib.tensor([[1, 0, -1, 0], [3, -1, 0, 0],
                                                                  [2, 1, 0, -1]]))
        grad, = lib.autograd.grad(loss, x, create_graph=True)
        result = [grad, grad.requires_grad]
        try:
            lib.autograd.grad(grad.sum(), x)
        except RuntimeError as error:
            result.append(str(error))
        return result
    assert_same_graph(case)


@needs_torch
@pytest.mark.parametrize("shape", [(), (1, 4), (4,), (3, 1), (1, 1)])
def test_nodes_of_sum_to(shape):
    def case(lib):
        x = lib.tensor(_X, requires_grad=True)
        y = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        grad, = lib.autograd.grad((x * y).sum(), y, create_graph=True)
        return [grad, x.sum_to_size(shape) if shape else None]
    assert_same_graph(case)


def test_sum_to_records_atens_nodes():
    x = tapegrad.ones(3, 4, requires_grad=True)
    assert [x.sum_to_size(*s).grad_fn.name() for s in [(1, 4), (4,), (3, 1)]] == [
        "SumBackward1", "ViewBackward0", "SumBackward1"]


# -- reductions' gradients: unsqueezed as PyTorch's unsqueeze_multiple, in its order -------------

_REDUCTIONS = {
    "var": lambda lib, x: x.var(0),
    "var_dims": lambda lib, x: x.var((0, 1)),
    "logsumexp": lambda lib, x: x.logsumexp(0),
    "norm": lambda lib, x: x.norm(dim=0),
    "norm_all": lambda lib, x: x.norm(),
    "norm_3": lambda lib, x: lib.linalg.vector_norm(x, 3, dim=1),
    "norm_inf": lambda lib, x: lib.linalg.vector_norm(x, float("inf"), dim=1),
    "prod": lambda lib, x: x.prod(0),
    "prod_all": lambda lib, x: x.prod(),
    "amax": lambda lib, x: x.amax(0),
    "amin_dims": lambda lib, x: x.amin((0, 1)),
    "dist": lambda lib, x: lib.dist(x, x.flip(0).detach()),
    "dist_3": lambda lib, x: lib.dist(x, x.flip(0).detach(), 3),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(_REDUCTIONS))
def test_reduction_double_backward(name):
    def case(lib):
        x = lib.tensor(_X, requires_grad=True)
        value = _REDUCTIONS[name](lib, x)
        grad_output = lib.ones_like(value, requires_grad=True)
        grad, = lib.autograd.grad(value, x, grad_output, create_graph=True)
        second = lib.autograd.grad((grad * lib.tensor(_V)).sum(), [grad_output, x],
                                   create_graph=True, allow_unused=True)
        return [value, grad, list(second)]
    assert_same_graph(case)


def test_gradient_of_a_reduced_gradient_is_a_squeeze():
    x = tapegrad.tensor(_X, requires_grad=True)
    grad_output = tapegrad.ones(4, dtype=tapegrad.float64, requires_grad=True)
    grad, = tapegrad.autograd.grad(x.logsumexp(0), x, grad_output, create_graph=True)
    second, = tapegrad.autograd.grad(grad.sum(), grad_output)
    np.testing.assert_allclose(second.numpy(), np.ones(4))
    grad, = tapegrad.autograd.grad(x.logsumexp(0), x, grad_output, create_graph=True)
    second, = tapegrad.autograd.grad(grad.sum(), grad_output, create_graph=True)
    assert second.grad_fn is None or second.grad_fn.name() == "SqueezeBackward1"


@needs_torch
@pytest.mark.parametrize("other_requires_grad", [True, False])
def test_dist_of_order_zero_has_no_gradient(other_requires_grad):
    def case(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([0.5, 2.0], requires_grad=other_requires_grad)
        lib.dist(x, y, 0).backward()
        return [x.grad, y.grad]
    assert_same_graph(case)


# -- saved tensor hooks ---------------------------------------------------------------------------

def _pack_in_place_case(lib):
    """A pack hook that writes into a leaf it is given: PyTorch runs pack hooks with grad mode
    off, so the write is allowed, and then refused as a modification of a saved tensor."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    modes = []

    def pack(tensor):
        modes.append(lib.is_grad_enabled())
        tensor.add_(0)
        return tensor
    try:
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda packed: packed):
            x * x
    except RuntimeError as error:
        return modes, lib.is_grad_enabled(), str(error)
    return modes, lib.is_grad_enabled()


@needs_torch
def test_pack_hooks_run_without_grad_mode():
    assert_same_graph(_pack_in_place_case)


def test_pack_hook_sees_grad_mode_off():
    modes, enabled, message = _pack_in_place_case(tapegrad)
    assert modes == [False] and enabled and message.startswith("A saved tensor pack hook")


# -- gradients recorded as PyTorch's backward formulas record them ------------------------------

_SELECTING = {
    "masked_fill": lambda lib, x: x.masked_fill(x > 0.5, 0.0),
    "masked_fill_tensor": lambda lib, x: x.masked_fill(x > 0.5, lib.tensor(1.0,
                                                                            dtype=lib.float64)),
    "sort": lambda lib, x: x.sort(-1)[0],
    "topk": lambda lib, x: x.topk(2, -1)[0],
    "kthvalue": lambda lib, x: x.kthvalue(2, 0)[0],
    "median_dim": lambda lib, x: x.median(1)[0],
    "cummax": lambda lib, x: x.cummax(0)[0],
    "max_all": lambda lib, x: x.max(),
    "median_all": lambda lib, x: x.median(),
    "trace": lambda lib, x: x.trace(),
    "take": lambda lib, x: x.take(lib.tensor([[0, -1], [0, 4]])),
    "repeat": lambda lib, x: x.repeat(2, 1, 3),
    "repeat_ones": lambda lib, x: x.repeat(1, 1),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(_SELECTING))
def test_selecting_gradients(name):
    def case(lib):
        x = lib.tensor(_X, requires_grad=True)
        value = _SELECTING[name](lib, x)
        grad_output = lib.ones_like(value, requires_grad=True)
        grad, = lib.autograd.grad(value, x, grad_output, create_graph=True)
        second, = lib.autograd.grad((grad * lib.tensor(_V)).sum(), grad_output)
        return [grad, second]
    assert_same_graph(case)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2)])
def test_trace_gradient_is_zero_off_the_diagonal(shape):
    x = tapegrad.ones(shape, requires_grad=True)
    x.trace().backward(tapegrad.tensor(float("inf")))
    expected = np.where(np.eye(*shape, dtype=bool), np.inf, 0.0)
    assert np.array_equal(x.grad.numpy(), expected)  # (not inf * 0, nan, off it)
