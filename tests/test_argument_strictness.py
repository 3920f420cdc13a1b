"""Arguments PyTorch refuses, refused here with its exception and words, and the dict form of
``autograd.grad``'s inputs: a program that relied on a lenient tapegrad would break on PyTorch,
and one that catches PyTorch's error would miss tapegrad's."""
import types
import warnings

import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _error(lib, call):
    try:
        call(lib)
    except Exception as exc:  # noqa: BLE001  the exception is the result compared
        return type(exc).__name__, str(exc)
    return None


@pytest.mark.parametrize("flag, name", [(1, "int"), (0, "int"), (1.0, "float"), (None, "NoneType"),
                                        (np.bool_(True), "numpy.bool")])
def test_requires_grad_takes_only_a_bool(flag, name):
    t = tapegrad.zeros(2)
    with pytest.raises(TypeError, match=rf"^requires_grad_\(\): argument 'requires_grad' "
                                        rf"\(position 1\) must be bool, not {name}$"):
        t.requires_grad_(flag)
    assert not t.requires_grad
    with pytest.raises(RuntimeError, match="^requires_grad must be a bool$"):
        t.requires_grad = flag
    assert not t.requires_grad


def test_a_parameter_refuses_a_non_bool_flag_before_it_is_made():
    with pytest.raises(TypeError, match=r"^_make_subclass\(\): argument 'require_grad' "
                                        r"\(position 3\) must be bool, not int$"):
        tapegrad.nn.Parameter(tapegrad.zeros(2), requires_grad=1)


def test_size_concatenates_tuples_only():
    size = tapegrad.Size([1, 2])
    with pytest.raises(TypeError,
                       match=r"^can only concatenate tuple \(not list\) to torch.Size$"):
        size + [3]
    with pytest.raises(TypeError):
        [3] + size
    assert size + (3,) == (1, 2, 3) and type(size + (3,)) is tapegrad.Size
    assert type((3,) + size) is tapegrad.Size and (3,) + size == (3, 1, 2)


@pytest.mark.parametrize("name", ["int", "torch.int", "torch.int32", "IntTensor",
                                  "torch.FooTensor"])
def test_type_names_only_the_legacy_classes(name):
    with pytest.raises(ValueError, match=f"^invalid type: '{name}'$"):
        tapegrad.zeros(2).type(name)
    assert tapegrad.zeros(2).type("torch.IntTensor").dtype == tapegrad.int32


def test_a_view_cannot_be_detached_in_place_even_without_history():
    base = tapegrad.zeros(3)
    view = base[1:]
    with pytest.raises(RuntimeError, match=r"^Can't detach views in-place\. Use detach\(\) "
                                           r"instead\. If you are using DistributedDataParallel"):
        view.detach_()
    assert view._base is base


def test_an_inference_tensor_has_no_version():
    with tapegrad.inference_mode():
        t = tapegrad.zeros(2)
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter.$"):
        t._version
    assert tapegrad.zeros(2)._version == 0


def test_grad_of_a_dict_of_inputs_is_a_dict_with_the_same_keys():
    model = tapegrad.nn.Linear(3, 1)
    x = tapegrad.tensor([[1.0, 2.0, 3.0]])
    grads = tapegrad.autograd.grad(model(x).sum(), dict(model.named_parameters()))
    assert list(grads) == ["weight", "bias"]
    np.testing.assert_array_equal(grads["weight"].numpy(), [[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(grads["bias"].numpy(), [1.0])


def test_grad_refuses_other_mappings_and_empty_inputs_before_warning():
    x = tapegrad.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match=r"^`inputs` argument to `grad\(\)` must be a dict, not "
                                        r"mappingproxy\. Other Mapping types are not "
                                        r"supported\.$"):
        tapegrad.autograd.grad(x.sum(), types.MappingProxyType({"x": x}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (the only_inputs warning would come first otherwise)
        with pytest.raises(RuntimeError, match=r"^`inputs` argument to `grad\(\)` cannot be "
                                               r"empty\.$"):
            tapegrad.autograd.grad(x.sum(), {}, only_inputs=False)


def test_randperm_takes_an_integer_and_a_generator():
    with pytest.raises(TypeError, match=r"^randperm\(\): argument 'n' \(position 1\) must be int, "
                                        "not float$"):
        tapegrad.randperm(2.0)
    with pytest.raises(TypeError, match="expected a torch.Generator as generator, but got int"):
        tapegrad.randperm(4, generator=3)



@pytest.mark.parametrize("factory", [
    lambda flag: tapegrad.tensor([1.0], requires_grad=flag),
    lambda flag: tapegrad.zeros(2, requires_grad=flag),
    lambda flag: tapegrad.full((2,), 1.0, requires_grad=flag),
    lambda flag: tapegrad.ones(2).new_zeros(2, requires_grad=flag),
    lambda flag: tapegrad.zeros_like(tapegrad.ones(2), requires_grad=flag),
    lambda flag: tapegrad.randn(2, requires_grad=flag),
    lambda flag: tapegrad.rand_like(tapegrad.ones(2), requires_grad=flag),
])
def test_factories_refuse_a_non_bool_flag_before_drawing(factory):
    tapegrad.manual_seed(0)
    expected = tapegrad.rand(1)
    tapegrad.manual_seed(0)
    with pytest.raises(TypeError, match=r"\(\): argument 'requires_grad' must be bool, not int$"):
        factory(1)
    assert tapegrad.equal(tapegrad.rand(1), expected)  # nothing was drawn
    assert factory(True).requires_grad and not factory(False).requires_grad


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.zeros(2).requires_grad_(1),
    lambda lib: lib.nn.Linear(2, 2).requires_grad_(None),
    lambda lib: lib.nn.Parameter(lib.zeros(2), 0),
    lambda lib: lib.Size([1]) + [2],
    lambda lib: lib.zeros(2).type("int"),
    lambda lib: lib.zeros(3)[1:].detach_(),
    lambda lib: lib.autograd.grad(lib.ones(1, requires_grad=True).sum(), [],
                                  materialize_grads=True, allow_unused=False),
    lambda lib: lib.autograd.grad(lib.ones(1, requires_grad=True).sum(), []),
    lambda lib: lib.autograd.grad(lib.ones(1, requires_grad=True).sum(),
                                  {"a": lib.ones(1, requires_grad=True)}),
    lambda lib: lib.zeros(2, requires_grad=1),
    lambda lib: lib.tensor([1.0], requires_grad=None),
    lambda lib: lib.ones(2, requires_grad="yes"),
    lambda lib: lib.full((2,), 1.0, requires_grad=1.0),
    lambda lib: lib.empty_strided((2,), (1,), requires_grad=1),
    lambda lib: lib.ones_like(lib.ones(2), requires_grad=np.bool_(True)),
    lambda lib: lib.ones(2).new_tensor([1.0], requires_grad=1),
    lambda lib: lib.ones(2).new_full((2,), 1.0, requires_grad=1),
])
def test_errors_are_pytorchs(call):
    assert _error(tapegrad, call) == _error(torch, call)
