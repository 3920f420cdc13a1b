"""Differences found by the adversarial-robustness / interpretability programs (adv_*):
``autograd.functional.jacobian(..., strategy="forward-mode")`` and the forward-over-reverse
``hessian(..., outer_jacobian_strategy="forward-mode")`` (values, output structure, graph kept to
inputs that require grad, PyTorch's errors), and ``LnStructured`` pruning validating its norm even
when it prunes nothing."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import functional as AF
from same_as_torch import assert_same

try:
    import torch
    import torch.nn.utils.prune  # noqa: F401  (not imported by torch itself)
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

FORWARD = dict(vectorize=True, strategy="forward-mode")
HESSIAN_FORWARD = dict(vectorize=True, outer_jacobian_strategy="forward-mode")


def _x(lib):
    return lib.tensor([0.3, -0.2, 0.9], dtype=lib.float64)


def _mixed(z):
    """R^3 → R^2 with cross terms."""
    return z[0] ** 2 * z[1] + z.sin(), z.prod()


def _energy(z):
    return (z.tanh() ** 2).sum() + z[0] * z[2]


def _numeric_jacobian(f, x, eps=1e-6):
    """Central differences, one column per input element (float64)."""
    columns = []
    for k in range(x.numel()):
        step = tapegrad.zeros_like(x)
        step.view(-1)[k] = eps
        columns.append((f(x + step) - f(x - step)) / (2 * eps))
    return tapegrad.stack(columns, dim=-1)


# -- independent truths ---------------------------------------------------------------------------

def test_forward_mode_jacobian_matches_finite_differences_and_reverse_mode():
    x = _x(tapegrad)
    f = lambda z: _mixed(z)[0]  # noqa: E731
    forward = AF.jacobian(f, x, **FORWARD)
    np.testing.assert_allclose(forward.numpy(), _numeric_jacobian(f, x).numpy(), atol=1e-8)
    np.testing.assert_allclose(forward.numpy(), AF.jacobian(f, x).numpy(), atol=1e-12)


def test_forward_mode_jacobian_block_shapes_follow_outputs_then_inputs():
    a, b = tapegrad.ones(2, 3, dtype=tapegrad.float64), _x(tapegrad)
    blocks = AF.jacobian(lambda p, q: (p @ q, p.sum()), (a, b), **FORWARD)
    assert isinstance(blocks, list) and all(isinstance(row, list) for row in blocks)
    assert [[tuple(j.shape) for j in row] for row in blocks] == [[(2, 2, 3), (2, 3)],
                                                                  [(2, 3), (3,)]]
    np.testing.assert_allclose(blocks[0][1].numpy(), np.ones((2, 3)))
    np.testing.assert_allclose(blocks[1][1].numpy(), np.zeros(3))


def test_forward_over_reverse_hessian_is_the_analytic_one():
    x = _x(tapegrad)
    hessian = AF.hessian(_energy, x, **HESSIAN_FORWARD)
    t = np.tanh(x.numpy())
    expected = np.diag(2 * (1 - t ** 2) * (1 - 3 * t ** 2))
    expected[0, 2] = expected[2, 0] = 1.0
    np.testing.assert_allclose(hessian.detach().numpy(), expected, atol=1e-12)
    assert not x.requires_grad  # the inputs the user gave are left alone


def test_forward_mode_jacobian_keeps_the_graph_to_inputs_that_require_grad():
    x = _x(tapegrad).requires_grad_()
    jac = AF.jacobian(lambda z: z.sin() * z, x, **FORWARD)
    assert jac.requires_grad
    (second,) = tapegrad.autograd.grad(jac.sum(), x)  # d/dx_i of (cos x_i · x_i + sin x_i)
    expected = 2 * np.cos(x.detach().numpy()) - x.detach().numpy() * np.sin(x.detach().numpy())
    np.testing.assert_allclose(second.numpy(), expected, atol=1e-12)
    assert not AF.jacobian(lambda z: z.sin(), _x(tapegrad), **FORWARD).requires_grad


def test_forward_mode_calls_the_function_once():
    calls = []
    layer = tapegrad.nn.Linear(3, 2)
    layer.register_forward_hook(lambda module, inputs, output: calls.append("hook"))
    norm = tapegrad.nn.BatchNorm1d(2)
    AF.jacobian(lambda z: norm(layer(z.unsqueeze(0).repeat(2, 1))), tapegrad.ones(3), **FORWARD)
    assert calls == ["hook"] and int(norm.num_batches_tracked) == 1
    AF.hessian(lambda z: (layer(z) ** 2).sum(), tapegrad.ones(3), **HESSIAN_FORWARD)
    assert calls == ["hook", "hook"]


# -- against PyTorch ------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: AF_of(lib).jacobian(lambda z: _mixed(z), _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: _mixed(z)[1], _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda a, b: (a * b, (a + b).sum()), (_x(lib), _x(lib) * 2),
                                    **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda a, b: a @ b, (lib.ones(2, 3, dtype=lib.float64),
                                                         _x(lib)), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: z.sum().detach(), _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: lib.ones(2), _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: z.float() ** 2, _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: z * 2, lib.ones(0), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: z.cumsum(0), lib.stack([_x(lib), -_x(lib)]).t(), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda a, b: (a * 2, b.sum()), (lib.ones(0), lib.ones(2)),
                                    **FORWARD),
    lambda lib: AF_of(lib).hessian(_energy, _x(lib), **HESSIAN_FORWARD),
    lambda lib: AF_of(lib).hessian(lambda a, b: (a * b).sum() ** 2, (_x(lib), _x(lib) + 1),
                                   **HESSIAN_FORWARD),
    lambda lib: AF_of(lib).hessian(lambda z: z.sum(), _x(lib), **HESSIAN_FORWARD),
])
def test_forward_mode_values_and_structure_as_pytorch(case):
    assert_same(case, torch)
    ours, theirs = case(tapegrad), case(torch)
    assert _structure(ours) == _structure(theirs)


@needs_torch
@pytest.mark.parametrize("kwargs", [
    dict(strategy="forward-mode"),
    dict(strategy="forward-mode", vectorize=True, strict=True),
    dict(strategy="forward-mode", vectorize=True, create_graph=True),
    dict(strategy="sideways"),
])
def test_forward_mode_refusals_as_pytorch(kwargs):
    assert_same(lambda lib: AF_of(lib).jacobian(lambda z: z * 2, _x(lib), **kwargs), torch)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: AF_of(lib).jacobian(lambda z: [z], _x(lib), **FORWARD),
    lambda lib: AF_of(lib).jacobian(lambda z: z, lib.arange(3), **FORWARD),
    lambda lib: AF_of(lib).hessian(lambda z: (z ** 3).sum(), _x(lib),
                                   outer_jacobian_strategy="forward-mode"),
])
def test_forward_mode_input_and_output_errors_as_pytorch(case):
    assert_same(case, torch)


@needs_torch
def test_forward_mode_results_require_grad_as_pytorch():
    def flags(lib):
        x = _x(lib)
        xr = _x(lib).requires_grad_()
        weight = lib.ones(2, 3, dtype=lib.float64, requires_grad=True)
        return (AF_of(lib).jacobian(lambda z: z * z, x, **FORWARD).requires_grad,
                AF_of(lib).jacobian(lambda z: z * z, xr, **FORWARD).requires_grad,
                AF_of(lib).jacobian(lambda z: weight @ z, x, **FORWARD).requires_grad,
                AF_of(lib).hessian(_energy, x, **HESSIAN_FORWARD).requires_grad,
                x.requires_grad)

    assert flags(tapegrad) == flags(torch)


def AF_of(lib):  # noqa: N802  the library's autograd.functional
    return lib.autograd.functional


def _structure(value):
    """Container types and nesting, tensors as their shapes."""
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_structure(v) for v in value]
    return tuple(value.shape), str(value.dtype).split(".")[-1]


# -- pruning --------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("amount", [0, 0.2, 1])
def test_ln_structured_computes_its_norm_even_when_pruning_nothing(amount):
    def case(lib):
        layer = lib.nn.Linear(3, 2)
        lib.nn.utils.prune.ln_structured(layer, "weight", amount=amount, n="nuc", dim=0)
        return layer.weight_mask

    assert_same(case, torch)


def test_ln_structured_inside_a_container_checks_the_norm():
    layer = tapegrad.nn.Linear(3, 2)
    prune = tapegrad.nn.utils.prune
    prune.ln_structured(layer, "weight", amount=1, n="fro", dim=0)
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple"):
        prune.ln_structured(layer, "weight", amount=0.4, n="nuc", dim=0)


# -- hook handles kept by a module ----------------------------------------------------------------

class _Recorder:
    """A picklable forward hook."""

    def __init__(self, store):
        self.store = store

    def __call__(self, module, inputs, output):
        self.store.append(tuple(output.shape))


def _with_handle():
    layer = tapegrad.nn.Linear(2, 2)
    layer.calls = []
    layer.handle = layer.register_forward_hook(_Recorder(layer.calls))
    return layer


def test_a_deep_copied_handle_removes_the_copys_hook_only():
    import copy
    original = _with_handle()
    clone = copy.deepcopy(original)
    assert clone.handle.id == original.handle.id
    clone.handle.remove()
    assert (len(clone._forward_hooks), len(original._forward_hooks)) == (0, 1)
    original(tapegrad.ones(1, 2))
    clone(tapegrad.ones(1, 2))
    assert (original.calls, clone.calls) == ([(1, 2)], [])


def test_a_module_holding_a_handle_can_be_saved_and_loaded():
    import io
    original = _with_handle()
    buffer = io.BytesIO()
    tapegrad.save(original, buffer)
    buffer.seek(0)
    loaded = tapegrad.load(buffer, weights_only=False)
    loaded(tapegrad.ones(3, 2))
    assert loaded.calls == [(3, 2)] and original.calls == []
    loaded.handle.remove()
    assert (len(loaded._forward_hooks), len(original._forward_hooks)) == (0, 1)
    later = tapegrad.nn.Linear(1, 1).register_forward_hook(_Recorder([]))
    assert later.id > loaded.handle.id  # ids stay unique after loading


def test_an_unpickled_handle_whose_tables_were_not_kept_removes_nothing():
    import pickle
    handle = tapegrad.nn.Linear(1, 1).register_forward_hook(_Recorder([]))
    restored = pickle.loads(pickle.dumps(handle))
    assert restored.id == handle.id and restored.hooks_dict_ref() is None
    restored.remove()
