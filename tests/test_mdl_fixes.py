"""Differences found by the model introspection / surgery programs (mdl_*):
``parametrizations.orthogonal`` builds its maps from the library's primitives (matrix_exp,
householder_product, add with alpha, geqrf), so the graph has PyTorch's nodes;
``ModuleList.insert`` shifts entries as PyTorch does (negative and past-the-end indices too);
``vector_to_parameters`` makes the parameters views of the vector; ``Module.__init__`` honours
``call_super_init``; ``torch.__future__``'s conversion flags; and messages / reprs that name
classes (pruning methods, hook handles, a backward hook resizing a gradient) as PyTorch does."""
import re
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.nn.utils.parametrizations import orthogonal
from same_as_torch import assert_same

try:
    import torch
    import torch.nn.utils.prune  # noqa: F401  (not imported by torch itself)
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

MAPS = ["matrix_exp", "cayley", "householder"]
SHAPES = [(3, 3), (2, 4), (5, 3)]


def _orthogonal_linear(lib, shape, omap, trivialization):
    """A Linear whose weight (shape ``shape``) is deterministic, then made orthogonal."""
    lin = lib.nn.Linear(shape[1], shape[0], dtype=lib.float64)
    with lib.no_grad():
        values = lib.cos(lib.arange(shape[0] * shape[1], dtype=lib.float64) ** 2 * 0.37)
        lin.weight.copy_(values.view(shape))
    return lib.nn.utils.parametrizations.orthogonal(lin, orthogonal_map=omap,
                                                    use_trivialization=trivialization)


def _graph(fn):
    """Node names of a grad_fn and its direct inputs."""
    return fn.name(), [f.name() if f is not None else None for f, _ in fn.next_functions]


@pytest.mark.parametrize("omap", MAPS)
@pytest.mark.parametrize("shape", SHAPES)
def test_orthogonal_without_trivialization_is_orthogonal(omap, shape):
    weight = _orthogonal_linear(tapegrad, shape, omap, trivialization=False).weight.detach()
    W = weight.numpy()
    gram = W @ W.T if shape[0] < shape[1] else W.T @ W
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-10)


@pytest.mark.parametrize("omap", MAPS)
def test_orthogonal_map_gradient_matches_finite_differences(omap):
    """d sum(W * C) / d original, through the map alone (no base). Every map ignores the
    diagonal of ``original`` (householder reads only its signs), so its gradient is zero there
    and the finite differences skip it."""
    lin = _orthogonal_linear(tapegrad, (3, 3), omap, trivialization=False)
    original = lin.parametrizations.weight.original
    weights = tapegrad.linspace(-1, 1, 9, dtype=tapegrad.float64).view(3, 3)
    (lin.weight * weights).sum().backward()
    analytic = original.grad.numpy().copy()
    numeric = np.zeros_like(analytic)
    base = original.detach().clone()
    for index in np.ndindex(*analytic.shape):
        if index[0] == index[1]:
            continue
        values = []
        for step in (1e-6, -1e-6):
            shifted = base.clone()
            shifted[index] += step
            with tapegrad.no_grad():
                original.copy_(shifted)
                values.append(float((lin.weight * weights).sum()))
        numeric[index] = (values[0] - values[1]) / 2e-6
    np.testing.assert_allclose(analytic, numeric, atol=1e-6)


def test_householder_assignment_round_trips():
    """Assigning an orthogonal matrix without trivialization gives it back (geqrf reflectors)."""
    lin = orthogonal(nn.Linear(3, 5, bias=False), orthogonal_map="householder",
                     use_trivialization=False)
    Q, _ = tapegrad.linalg.qr(tapegrad.cos(tapegrad.arange(15.0) ** 1.5).view(5, 3))
    with tapegrad.no_grad():
        lin.weight = Q
    np.testing.assert_allclose(lin.weight.detach().numpy(), Q.numpy(), atol=1e-5)


@needs_torch
@pytest.mark.parametrize("omap", MAPS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("trivialization", [True, False])
def test_orthogonal_graph_and_values_as_torch(omap, shape, trivialization):
    def case(lib):
        lin = _orthogonal_linear(lib, shape, omap, trivialization)
        return lin.weight, _graph(lin.weight.grad_fn)
    assert_same(case, torch)


def _module_list_after(lib, index, size=3):
    """The keys and module types of a ModuleList after ``insert(index, ...)`` (or the error)."""
    modules = lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.Tanh(), lib.nn.Sigmoid()][:size])
    try:
        modules.insert(index, lib.nn.GELU())
        outcome = "ok"
    except KeyError as error:
        outcome = f"KeyError {error}"
    return outcome, [(key, type(m).__name__) for key, m in modules._modules.items()], len(modules)


@pytest.mark.parametrize("index", [0, 1, 3])
def test_module_list_insert_within_range(index):
    _, entries, length = _module_list_after(tapegrad, index)
    names = [name for _, name in entries]
    expected = ["ReLU", "Tanh", "Sigmoid"]
    expected.insert(index, "GELU")
    assert names == expected and [key for key, _ in entries] == ["0", "1", "2", "3"]
    assert length == 4


@needs_torch
@pytest.mark.parametrize("index,size", [(-1, 3), (-2, 3), (-1, 1), (5, 1), (0, 0), (2, 3)])
def test_module_list_insert_as_torch(index, size):
    assert _module_list_after(tapegrad, index, size) == _module_list_after(torch, index, size)


@needs_torch
def test_full_backward_hook_resizing_gradient_error_as_torch():
    """A full backward hook returning a gradient of the wrong size: the message names the
    engine-side hook as PyTorch does."""
    def case(lib):
        lin = lib.nn.Linear(2, 2)
        lin.register_full_backward_hook(lambda m, grad_in, grad_out: (lib.ones(3),))
        lin(lib.ones(1, 2, requires_grad=True)).sum().backward()
    assert_same(case, torch)


def test_vector_to_parameters_shares_memory_and_dtype():
    """The parameters become views of ``vec`` (PyTorch assigns ``.data``): later writes to
    ``vec`` show through, and a float64 vector makes float64 parameters."""
    lin = nn.Linear(2, 2)
    vec = tapegrad.arange(6, dtype=tapegrad.float64)
    tapegrad.nn.utils.vector_to_parameters(vec, lin.parameters())
    assert lin.weight.dtype == tapegrad.float64 and isinstance(lin.weight, nn.Parameter)
    vec[0] = 100.0
    assert lin.weight[0, 0].item() == 100.0 and lin.bias.tolist() == [4.0, 5.0]


@needs_torch
@pytest.mark.parametrize("vec", ["float64", "strided", "numpy", "short"])
def test_vector_to_parameters_as_torch(vec):
    def case(lib):
        lin = lib.nn.Linear(2, 2)
        values = {"float64": lambda: lib.arange(6, dtype=lib.float64),
                  "strided": lambda: lib.arange(12.0)[::2],
                  "numpy": lambda: np.zeros(6),
                  "short": lambda: lib.zeros(5)}[vec]()
        lib.nn.utils.vector_to_parameters(values, lin.parameters())
        return lin.weight, lin.bias, str(lin.weight.dtype)
    assert_same(case, torch)


@needs_torch
def test_parameters_to_vector_views_each_parameter_as_torch():
    """A non-contiguous parameter cannot be viewed flat: PyTorch's error."""
    def case(lib):
        return lib.nn.utils.parameters_to_vector([lib.nn.Parameter(lib.ones(2, 3).t())])
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("which", ["structured", "missing amount", "container", "set_submodule",
                                   "state_dict type", "state_dict value"])
def test_error_messages_name_classes_as_torch(which):
    """Messages that show a class (the pruning method, the offending object's type) or a
    method's ``__init__`` give PyTorch's names."""
    def case(lib):
        prune = lib.nn.utils.prune
        lin = lib.nn.Linear(2, 2)
        if which == "structured":
            prune.global_unstructured([(lin, "weight")], prune.LnStructured, amount=1, n=1, dim=0)
        elif which == "missing amount":
            prune.global_unstructured([(lin, "weight")], prune.L1Unstructured)
        elif which == "container":
            prune.PruningContainer().add_pruning_method(lib.ones(1))
        elif which == "set_submodule":
            lib.nn.Sequential(lib.nn.ReLU()).set_submodule("0", lib.ones(1))
        elif which == "state_dict type":
            lin.load_state_dict(lib.ones(1))
        else:
            lin.load_state_dict({"weight": lib.nn.ReLU(), "bias": lib.ones(2)})
    assert_same(case, torch)


class _Tagged:
    """A cooperative mixin: takes a keyword and passes the rest on."""

    def __init__(self, *args, tag=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tag = tag


def test_call_super_init_passes_arguments_to_the_mixin():
    class Tagged(nn.Module, _Tagged):
        call_super_init = True

        def __init__(self):
            super().__init__(tag="probe")
            self.fc = nn.Linear(1, 1)

    model = Tagged()
    assert model.tag == "probe" and list(model.state_dict()) == ["fc.weight", "fc.bias"]
    assert nn.Module.call_super_init is False and nn.Module.dump_patches is False


@needs_torch
@pytest.mark.parametrize("call", ["positional", "keyword", "both"])
def test_module_init_argument_errors_as_torch(call):
    def case(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                args, kwargs = {"positional": ((3, 4), {}), "keyword": ((), {"foo": 1}),
                                "both": ((3,), {"foo": 1})}[call]
                super().__init__(*args, **kwargs)
        Net()
    assert_same(case, torch)


@pytest.fixture
def future_flags():
    """Restores the ``torch.__future__`` conversion flags a test sets."""
    yield tapegrad.__future__
    tapegrad.__future__.set_overwrite_module_params_on_conversion(False)
    tapegrad.__future__.set_swap_module_params_on_conversion(False)


def test_overwrite_on_conversion_assigns_new_parameters(future_flags):
    future_flags.set_overwrite_module_params_on_conversion(True)
    lin = nn.Linear(2, 2)
    lin(tapegrad.ones(1, 2)).sum().backward()
    weight = lin.weight
    lin.double()
    assert lin.weight is not weight and weight.dtype == tapegrad.float32
    assert isinstance(lin.weight, nn.Parameter) and lin.weight.grad.dtype == tapegrad.float64
    future_flags.set_swap_module_params_on_conversion(True)  # takes precedence: objects stay
    weight = lin.weight
    lin.float()
    assert lin.weight is weight and weight.dtype == tapegrad.float32


@needs_torch
@pytest.mark.parametrize("overwrite,swap", [(False, False), (True, False), (True, True)])
def test_conversion_flags_as_torch(overwrite, swap):
    def case(lib):
        lib.__future__.set_overwrite_module_params_on_conversion(overwrite)
        lib.__future__.set_swap_module_params_on_conversion(swap)
        try:
            lin = lib.nn.Linear(2, 2)
            lin.bias.requires_grad_(False)
            lin(lib.ones(1, 2)).sum().backward()
            weight, bias, grad = lin.weight, lin.bias, lin.weight.grad
            lin.double()
            return (lin.weight is weight, lin.bias is bias, lin.weight.grad is grad,
                    str(lin.weight.grad.dtype), lin.bias.requires_grad, lin.weight.requires_grad)
        finally:
            lib.__future__.set_overwrite_module_params_on_conversion(False)
            lib.__future__.set_swap_module_params_on_conversion(False)
    assert_same(case, torch)


@needs_torch
def test_hook_objects_print_under_torch_names():
    """What ``print(module._forward_pre_hooks)`` and ``print(handle)`` show, addresses and
    hook ids aside."""
    def shown(lib):
        prune = lib.nn.utils.prune
        conv = lib.nn.Conv2d(1, 2, 3)
        prune.l1_unstructured(conv, "weight", amount=2)
        prune.random_structured(conv, "weight", amount=1, dim=0)
        container = next(iter(conv._forward_pre_hooks.values()))
        handle = conv.register_forward_hook(lambda *args: None)
        legacy = lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            old_norm = lib.nn.utils.weight_norm(lib.nn.Linear(2, 2))
        text = "\n".join(repr(x) for x in (conv._forward_pre_hooks, list(container), handle,
                                           legacy._forward_pre_hooks, old_norm._forward_pre_hooks))
        return re.sub(r"0x[0-9a-f]+", "0x", re.sub(r"\(\d+, ", "(", text))
    assert shown(tapegrad) == shown(torch)
