"""Differences found by differential fuzzing of the ``nn.Module`` API against PyTorch (fzm):
random module trees (Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict, custom
modules) compared by repr, ``dir``, named_* listings, state dicts and load results after random
registrations, assignments, deletions and container edits; random forward, backward and
state-dict hooks; and the argument forms of ``Module.to``."""
import collections
import copy
import warnings

import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _same_text(case):
    """``case(lib)`` gives the same text (or the same error) with both libraries."""
    assert outcome(tapegrad, case) == outcome(torch, case)


# -- dir(): names that are no identifiers are left out, as in PyTorch --------------------------

def _dir_of_module_with_odd_names(lib):
    module = lib.nn.Linear(1, 1)
    module.register_buffer("0", lib.ones(1))
    setattr(module, "1", lib.nn.ReLU())
    module.forward_ = 3
    setattr(module, "forward", lib.nn.Tanh())  # a submodule shadowing a method: listed twice
    return [name for name in dir(module) if not name.startswith("_")
            and name not in ("T_destination", "ipu", "mtia", "xpu")]


def test_dir_leaves_out_names_starting_with_a_digit_in_any_module():
    names = _dir_of_module_with_odd_names(tapegrad)
    assert "0" not in names and "1" not in names
    assert names.count("forward") == 2
    assert "forward_" in names


@needs_torch
def test_dir_as_torch():
    assert _dir_of_module_with_odd_names(tapegrad) == _dir_of_module_with_odd_names(torch)


# -- registration -------------------------------------------------------------------------------

def test_assigning_a_buffer_over_a_plain_attribute_is_a_clash():
    module = tapegrad.nn.Linear(1, 1)
    module.scale = 3
    with pytest.raises(KeyError, match="attribute 'scale' already exists"):
        module.scale = tapegrad.nn.Buffer(tapegrad.ones(1))
    with pytest.raises(KeyError, match="attribute 'training' already exists"):
        module.training = tapegrad.nn.Buffer(tapegrad.ones(1))
    assert module.scale == 3 and "scale" not in module._buffers


@needs_torch
@pytest.mark.parametrize("name", ["scale", "training", "forward"])
def test_assigning_a_buffer_over_an_attribute_as_torch(name):
    def case(lib):
        module = lib.nn.Linear(1, 1)
        module.scale = 3
        setattr(module, name, lib.nn.Buffer(lib.ones(1)))
        return sorted(module._buffers)
    _same_text(case)


def test_registering_a_none_parameter_runs_no_registration_hook():
    seen = []
    handle = tapegrad.nn.modules.module.register_module_parameter_registration_hook(
        lambda module, name, param: seen.append(name))
    try:
        module = tapegrad.nn.Linear(1, 1)
        module.register_parameter("nothing", None)
        module.register_parameter("something", tapegrad.nn.Parameter(tapegrad.ones(1)))
    finally:
        handle.remove()
    assert seen == ["weight", "bias", "something"]


def test_a_module_added_before_init_fails_on_storing_it():
    class Early(tapegrad.nn.Module):
        def __init__(self):
            self.add_module("child", None)

    with pytest.raises(AttributeError, match="'Early' object has no attribute '_modules'"):
        Early()


def test_train_assigns_the_mode_so_a_parameter_named_training_refuses_it():
    module = tapegrad.nn.Tanh()
    module.training = tapegrad.nn.Parameter(tapegrad.ones(1))
    with pytest.raises(TypeError, match="cannot assign 'bool' as parameter 'training'"):
        module.train()


def test_get_submodule_of_a_non_string_fails_as_in_torch():
    with pytest.raises(AttributeError, match="'int' object has no attribute 'split'"):
        tapegrad.nn.Sequential(tapegrad.nn.ReLU()).get_submodule(0)


def test_a_parameter_of_a_non_tensor_fails_as_detaching_it():
    with pytest.raises(AttributeError, match="'list' object has no attribute 'detach'"):
        tapegrad.nn.Parameter([1.0])


# -- conversions: buffers are converted with their history, as PyTorch converts them ------------

def test_a_buffer_that_requires_grad_keeps_its_history_through_a_conversion():
    module = tapegrad.nn.Linear(1, 1)
    module.register_buffer("tracked", tapegrad.ones(2, requires_grad=True))
    module.double()
    assert module.tracked.dtype == tapegrad.float64
    assert module.tracked.grad_fn is not None and not module.weight.grad_fn
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(module)


# -- containers ---------------------------------------------------------------------------------

def _named(lib, **modules):
    return lib.nn.Sequential(collections.OrderedDict(modules))


CONTAINER_CASES = {
    "insert keeps given names": lambda lib: _named(lib, a=lib.nn.ReLU(), b=lib.nn.Tanh())
    .insert(1, lib.nn.GELU()),
    "insert at a negative index": lambda lib: lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh())
    .insert(-2, lib.nn.GELU()),
    "insert into a named one at its start": lambda lib: _named(lib, a=lib.nn.ReLU())
    .insert(0, lib.nn.GELU()),
    "del of a named entry renumbers": lambda lib: (lambda s: (s.__delitem__(0), s)[1])(
        _named(lib, a=lib.nn.ReLU(), b=lib.nn.Tanh())),
    "repeat in place a named one": lambda lib: _named(lib, a=lib.nn.ReLU()).__imul__(2),
    "del slice of a list with a gap": lambda lib: (lambda m: (m.__delitem__(slice(0, 2)), m)[1])(
        (lambda m: (setattr(m, "extra", lib.nn.ReLU()), m)[1])(lib.nn.ModuleList())),
    "sum of a ModuleList subclass": lambda lib: type(
        type("Sub", (lib.nn.ModuleList,), {})([lib.nn.ReLU()]) + [lib.nn.Tanh()]).__name__,
    "popitem of an empty ParameterDict": lambda lib: lib.nn.ParameterDict().popitem(),
    "ParameterDict with an unhashable key": lambda lib: lib.nn.ParameterDict().__setitem__(
        slice(0, 1), lib.ones(1)),
    "ParameterDict called": lambda lib: lib.nn.ParameterDict()(),
    "ParameterList of a tensor": lambda lib: lib.nn.ParameterList(lib.ones(3)),
    "ParameterList extended by a number": lambda lib: lib.nn.ParameterList().extend(5),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(CONTAINER_CASES))
def test_container_edits_as_torch(name):
    _same_text(lambda lib: repr(CONTAINER_CASES[name](lib)))


def test_sequential_insert_moves_entries_by_number_and_keeps_names():
    seq = _named(tapegrad, a=tapegrad.nn.ReLU(), b=tapegrad.nn.Tanh())
    seq.insert(2, tapegrad.nn.GELU())
    assert list(seq._modules) == ["a", "b", "2"]
    with pytest.raises(KeyError, match="'1'"):  # no entry "1" to move up
        seq.insert(1, tapegrad.nn.GELU())
    seq = tapegrad.nn.Sequential(tapegrad.nn.ReLU(), tapegrad.nn.Tanh())
    seq.insert(-2, tapegrad.nn.GELU())
    assert [type(m).__name__ for m in seq] == ["GELU", "ReLU", "Tanh"]


def test_module_list_deletes_a_slice_by_number():
    modules = tapegrad.nn.ModuleList()
    modules.extra = tapegrad.nn.ReLU()
    with pytest.raises(AttributeError, match="'ModuleList' object has no attribute '0'"):
        del modules[:2]


def test_parameter_containers_refuse_as_dicts_and_lists_do():
    with pytest.raises(KeyError, match="popitem"):
        tapegrad.nn.ParameterDict().popitem()
    with pytest.raises(TypeError, match="unhashable type: 'slice'"):
        tapegrad.nn.ParameterDict()[0:1] = tapegrad.ones(1)
    with pytest.raises(TypeError, match="should be called with an iterable, but got Tensor"):
        tapegrad.nn.ParameterList(tapegrad.ones(3))


# -- forward hooks with always_call ------------------------------------------------------------

def _always_called_log(lib, fail_in):
    """What the always-called hooks see when the forward or a forward hook raises."""
    log = []
    module = lib.nn.Identity()

    def failing_hook(mod, args, output):
        raise ValueError("hook failed")

    if fail_in == "hook":
        module.register_forward_hook(failing_hook)
    module.register_forward_hook(lambda mod, args, output: log.append(("first", output)) or 5,
                                 always_call=True)
    module.register_forward_hook(lambda mod, args, output: log.append(("second", output)),
                                 always_call=True)
    module.register_forward_hook(lambda mod, args, output: 1 / 0, always_call=True)
    if fail_in == "forward":
        module.forward = lambda x: x.missing
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            module(7)
        except (ValueError, AttributeError) as error:
            log.append(type(error).__name__)
    return log, [str(w.message) for w in caught]


@pytest.mark.parametrize("fail_in", ["forward", "hook"])
def test_always_called_hooks_chain_their_results_and_only_warn_of_their_errors(fail_in):
    log, warned = _always_called_log(tapegrad, fail_in)
    if fail_in == "forward":
        assert log == [("first", None), ("second", 5), "AttributeError"]
    else:  # the failing hook ran first: the others get forward's output
        assert log == [("first", 7), ("second", 5), "ValueError"]
    assert warned == ["module forward hook with ``always_call=True`` raised an exception that "
                      "was silenced as another error was raised in forward: division by zero"]


@needs_torch
@pytest.mark.parametrize("fail_in", ["forward", "hook"])
def test_always_called_hooks_as_torch(fail_in):
    assert _always_called_log(tapegrad, fail_in) == _always_called_log(torch, fail_in)


# -- backward hooks -----------------------------------------------------------------------------

def _legacy_hook_beside_a_pre_hook(lib):
    """A deprecated backward hook and a full backward pre-hook that halves the gradient."""
    seen = []
    module = lib.nn.Identity()
    module.register_full_backward_pre_hook(lambda mod, grad_output: (grad_output[0] * 0.5,))

    def legacy(mod, grad_input, grad_output):
        seen.append((grad_input[0].tolist(), grad_output[0].tolist()))
    module.register_backward_hook(legacy)
    x = lib.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module(x * 1).sum().backward()
    return seen, x.grad.tolist()


def test_a_deprecated_backward_hook_sees_the_gradient_before_the_pre_hooks_change():
    assert _legacy_hook_beside_a_pre_hook(tapegrad) == ([([0.5, 0.5], [1.0, 1.0])], [0.5, 0.5])


@needs_torch
def test_a_deprecated_backward_hook_beside_a_pre_hook_as_torch():
    assert _legacy_hook_beside_a_pre_hook(tapegrad) == _legacy_hook_beside_a_pre_hook(torch)


def _legacy_hook_returning_too_many(lib):
    module = lib.nn.Linear(2, 2)

    def too_many(mod, grad_input, grad_output):
        return (None,) * (len(grad_input) + 1)
    module.register_backward_hook(too_many)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module(lib.ones(1, 2, requires_grad=True)).sum().backward()


def test_a_deprecated_backward_hook_is_named_in_the_engines_error():
    with pytest.raises(RuntimeError, match="hook 'too_many' has returned an incorrect number"):
        _legacy_hook_returning_too_many(tapegrad)


@needs_torch
def test_a_deprecated_backward_hook_error_as_torch():
    assert_same(_legacy_hook_returning_too_many, torch)


def _full_hook_without_grad(lib):
    module = type("Dict", (lib.nn.Module,), {"forward": lambda self, x: {"out": x}})()
    module.register_full_backward_hook(lambda *args: None)
    with warnings.catch_warnings(record=True) as caught, lib.no_grad():
        warnings.simplefilter("always")
        module(lib.ones(1))
    return [str(w.message) for w in caught]


def test_a_full_backward_hook_under_no_grad_still_warns_of_an_output_it_cannot_hook():
    assert any("module output should be a Tensor or a tuple of Tensors" in w
               for w in _full_hook_without_grad(tapegrad))


@needs_torch
def test_a_full_backward_hook_under_no_grad_as_torch():
    assert _full_hook_without_grad(tapegrad) == _full_hook_without_grad(torch)


# -- Module.to: PyTorch's argument parser ------------------------------------------------------

def _model(lib):
    return lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2))


TO_CASES = {
    "dtype, non_blocking": lambda lib: (lib.float64, True),
    "device, dtype, non_blocking": lambda lib: ("cpu", lib.float64, True),
    "device, None, non_blocking": lambda lib: ("cpu", None, True),
    "python float": lambda lib: (1.5,),
    "python complex": lambda lib: (1j,),
    "python type": lambda lib: (float,),
    "python bool": lambda lib: (True,),
    "python int is a device index": lambda lib: (0,),
    "two devices": lambda lib: ("cpu", "cpu"),
    "tensor and device": lambda lib: (lib.zeros(1), "cpu"),
    "dtype and an int": lambda lib: (lib.float64, 1),
    "layout": lambda lib: (lib.strided,),
    "too many positional": lambda lib: ("cpu", lib.float64, False, False, 5),
    "six positional": lambda lib: (1, 2, 3, 4, 5, 6),
}
TO_KEYWORD_CASES = {
    "tensor keyword": lambda lib: {"tensor": lib.zeros(1, dtype=lib.float64)},
    "copy": lambda lib: {"dtype": lib.float64, "copy": True},
    "non_blocking None": lambda lib: {"dtype": lib.float64, "non_blocking": None},
    "memory_format int": lambda lib: {"memory_format": 3},
    "dtype as a string": lambda lib: {"dtype": "float"},
    "every keyword, device wrong": lambda lib: {"device": 1.5, "dtype": None,
                                                "non_blocking": False, "copy": False,
                                                "memory_format": None},
}
TO_MIXED_CASES = {
    "multiple values": lambda lib: (("cpu", lib.float64, False, True), {"dtype": lib.float64}),
    "unexpected keyword": lambda lib: (("cpu", lib.float64, False, True), {"bogus": 1}),
    "six with keywords": lambda lib: (("cpu", lib.float64, False, False),
                                      {"memory_format": None, "non_blocking": True}),
}


def _converted(lib, args, kwargs):
    model = _model(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert model.to(*args, **kwargs) is model
    return [str(t.dtype) for t in (*model.parameters(), *model.buffers())]


@needs_torch
@pytest.mark.parametrize("name", sorted(TO_CASES))
def test_to_positional_arguments_as_torch(name):
    _same_text(lambda lib: _converted(lib, TO_CASES[name](lib), {}))


@needs_torch
@pytest.mark.parametrize("name", sorted(TO_KEYWORD_CASES))
def test_to_keyword_arguments_as_torch(name):
    _same_text(lambda lib: _converted(lib, (), TO_KEYWORD_CASES[name](lib)))


@needs_torch
@pytest.mark.parametrize("name", sorted(TO_MIXED_CASES))
def test_to_mixed_arguments_as_torch(name):
    _same_text(lambda lib: _converted(lib, *TO_MIXED_CASES[name](lib)))


def test_to_reads_non_blocking_and_python_numbers_as_torch_does():
    assert set(_converted(tapegrad, ("cpu", tapegrad.float64, True), {})) == {
        "torch.float64", "torch.int64"}
    assert "torch.float64" in _converted(tapegrad, (1.5,), {})
    assert "torch.complex128" in _converted(tapegrad, (1j,), {})
    with pytest.raises(RuntimeError, match=r"^\.to\(\) does not accept copy argument$"):
        _model(tapegrad).to(tapegrad.float64, copy=True)
    with pytest.raises(TypeError, match="^to\\(\\) got multiple values for argument 'dtype'$"):
        _model(tapegrad).to("cpu", tapegrad.float64, False, True, dtype=tapegrad.float64)
    with pytest.raises(TypeError, match="takes from 0 to 4 positional arguments but 5 were"):
        _model(tapegrad).to("cpu", tapegrad.float64, False, False, 5)
    with pytest.raises(TypeError, match=r"received an invalid combination of arguments - got "
                                        r"\(str, str\), but expected one of:"):
        _model(tapegrad).to("cpu", "cpu")


def test_to_checks_devices_only_on_tensors_it_converts():
    assert tapegrad.nn.ReLU().to("cuda") is not None
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        tapegrad.nn.Linear(1, 1).to("cuda")
    with pytest.raises(TypeError, match="only accepts floating point or complex dtypes"):
        tapegrad.nn.Linear(1, 1).to("cuda", tapegrad.int32)


def test_moving_off_the_meta_device_points_to_to_empty():
    with pytest.raises(NotImplementedError, match=r"Please use torch.nn.Module.to_empty\(\)"):
        tapegrad.nn.Linear(1, 1).to("meta").to("cpu")


# -- constructors and traversal -----------------------------------------------------------------

def test_lazy_norms_take_bias_as_the_eager_ones_do():
    norm = tapegrad.nn.LazyBatchNorm1d(bias=False)
    assert [name for name, _ in norm.named_parameters()] == ["weight"]
    norm(tapegrad.ones(2, 3))
    assert repr(norm) == ("BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=False, "
                          "track_running_stats=True)")
    assert norm.bias is None and norm.weight.shape == (3,)


def test_hardtanh_takes_the_renamed_keywords_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = tapegrad.nn.Hardtanh(min_value=0.0, max_value=2.0)
    assert [str(w.message) for w in caught] == [
        "keyword argument `min_value` is deprecated and renamed to `min_val`",
        "keyword argument `max_value` is deprecated and renamed to `max_val`"]
    assert all(w.category is FutureWarning for w in caught)
    assert (module.min_val, module.max_val) == (0.0, 2.0)


@needs_torch
@pytest.mark.parametrize("name, make", [
    ("lazy batch norm", lambda lib: lib.nn.LazyBatchNorm2d(bias=False)),
    ("lazy instance norm", lambda lib: lib.nn.LazyInstanceNorm1d(affine=False, bias=False)),
    ("hardtanh", lambda lib: lib.nn.Hardtanh(min_value=-2.0, max_value=3.0)),
])
def test_constructor_keywords_as_torch(name, make):
    _same_text(lambda lib: (repr(make(lib)), [n for n, _ in make(lib).named_parameters()]))


def _names_skipping_a_memo(lib):
    seq = lib.nn.Sequential(lib.nn.ReLU(), lib.nn.Tanh())
    return [name for name, _ in seq.named_modules(memo={seq[0]}, remove_duplicate=False)]


def test_named_modules_skips_what_a_given_memo_holds_even_keeping_duplicates():
    assert _names_skipping_a_memo(tapegrad) == ["", "1"]


@needs_torch
def test_named_modules_with_a_memo_as_torch():
    assert _names_skipping_a_memo(tapegrad) == _names_skipping_a_memo(torch)


# -- other backends: refused once there is a tensor to move ------------------------------------

BACKEND_CASES = [("cuda", ()), ("cuda", ("cpu",)), ("cuda", (2,)), ("xpu", ()), ("ipu", ()),
                 ("mtia", ())]


@pytest.mark.parametrize("method, args", BACKEND_CASES)
def test_a_module_without_tensors_moves_to_any_backend(method, args):
    module = tapegrad.nn.ReLU()
    assert getattr(module, method)(*args) is module


def test_a_module_with_tensors_is_refused_as_by_a_cpu_build():
    with pytest.raises(RuntimeError, match="^Invalid device, must be cuda device$"):
        tapegrad.nn.Linear(1, 1).cuda("cpu")
    with pytest.raises(AssertionError, match="^Torch not compiled with XPU enabled$"):
        tapegrad.nn.Linear(1, 1).xpu()


@needs_torch
@pytest.mark.parametrize("method, args", BACKEND_CASES)
def test_other_backends_as_torch(method, args):
    for make in (lambda lib: lib.nn.ReLU(), lambda lib: lib.nn.Linear(1, 1)):
        _same_text(lambda lib: repr(getattr(make(lib), method)(*args)))


# -- a numpy integer is a shape of one dimension ------------------------------------------------

@pytest.mark.parametrize("layer", ["LayerNorm", "RMSNorm"])
def test_a_numpy_integer_normalized_shape_is_one_dimension(layer):
    import numpy as np

    module = getattr(tapegrad.nn, layer)(np.int64(4))
    assert module.normalized_shape == (4,) and module.weight.shape == (4,)
    assert module(tapegrad.ones(2, 4)).shape == (2, 4)


@needs_torch
@pytest.mark.parametrize("layer", ["LayerNorm", "RMSNorm"])
def test_a_numpy_integer_normalized_shape_as_torch(layer):
    import numpy as np

    _same_text(lambda lib: repr(getattr(lib.nn, layer)(np.int64(4))))


# -- loading into a meta model ------------------------------------------------------------------

def _load_into_meta(lib, assign):
    model = lib.nn.Linear(2, 2, device="meta")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.load_state_dict(lib.nn.Linear(2, 2).state_dict(), assign=assign)
    return model.weight.is_meta, [(w.category.__name__, str(w.message)) for w in caught]


def test_copying_into_meta_parameters_warns_that_it_does_nothing():
    still_meta, warned = _load_into_meta(tapegrad, assign=False)
    assert still_meta
    assert [message[:40] for _, message in warned] == [
        "for weight: copying from a non-meta para", "for bias: copying from a non-meta parame"]
    assert _load_into_meta(tapegrad, assign=True) == (False, [])


@needs_torch
@pytest.mark.parametrize("assign", [False, True])
def test_loading_into_a_meta_model_as_torch(assign):
    assert _load_into_meta(tapegrad, assign) == _load_into_meta(torch, assign)


# -- a compiled module lists its model's names --------------------------------------------------

def _listed_by_a_compiled_sequential(lib):
    names = dir(lib.compile(lib.nn.Sequential(lib.nn.Linear(1, 1))))
    return [name in names for name in ("append", "insert", "_orig_mod", "0")]


def test_dir_of_a_compiled_module_lists_the_models_names_first():
    assert _listed_by_a_compiled_sequential(tapegrad) == [True, True, True, False]


@needs_torch
def test_dir_of_a_compiled_module_as_torch():
    assert _listed_by_a_compiled_sequential(tapegrad) == _listed_by_a_compiled_sequential(torch)
