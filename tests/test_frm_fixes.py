"""Module internals as framework code uses them, exactly as in PyTorch: full backward hooks on
modules with several inputs and tuple outputs, the deprecated backward hook stored with the full
ones, global backward (pre-)hooks, ``load_state_dict`` copying what fits before it raises,
spectral-norm checkpoint metadata, old weight-norm checkpoints loading into the new
parametrization, ``functional_call(strict=True)`` with tied weights, the type names in
registration errors, and ``convert_conv2d_weight_memory_format``.

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); independent checks (analytic gradients, the values copied) run without PyTorch.
"""
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn as nn

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def grads_seen(lib, module, *args, backward=lambda outputs: outputs[0].sum()):
    """What a module's full backward pre-hook and hook receive (None or numpy per slot)."""
    seen = {}

    def as_arrays(grads):
        return tuple(None if g is None else g.detach().numpy().copy() for g in grads)

    module.register_full_backward_pre_hook(lambda m, go: seen.update(pre=as_arrays(go)))
    module.register_full_backward_hook(
        lambda m, gi, go: seen.update(grad_input=as_arrays(gi), grad_output=as_arrays(go)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        backward(module(*args)).backward()
    return seen


def assert_same_slots(ours, theirs):
    assert ours.keys() == theirs.keys()
    for key in theirs:
        assert len(ours[key]) == len(theirs[key]), key
        for a, b in zip(ours[key], theirs[key]):
            assert (a is None) == (b is None), key
            if b is not None:
                np.testing.assert_allclose(a, b, rtol=1e-6)


def two_outputs(lib):
    class Two(lib.nn.Module):
        def forward(self, a, b, scale=1.0):
            return a * b * scale, a + b
    return Two()


# ------------------------------------------------------------- full backward hooks, many slots

def test_unused_tuple_output_gets_a_none_slot():
    """``(a*b, a+b)`` with only the first used: grad_output has two slots, the second None;
    the input ``b`` needing no gradient gets zeros (since ``a`` does), the float ``scale``
    None; d(a*b)/da = b."""
    a = tapegrad.ones(2, requires_grad=True)
    b = tapegrad.full((2,), 3.0)
    seen = grads_seen(tapegrad, two_outputs(tapegrad), a, b, 2.0)
    assert seen["pre"][1] is None and seen["grad_output"][1] is None
    np.testing.assert_array_equal(seen["grad_input"][0], [6.0, 6.0])
    np.testing.assert_array_equal(seen["grad_input"][1], [0.0, 0.0])
    assert seen["grad_input"][2] is None


@pytest.mark.parametrize("use", ["first", "second", "both"])
@pytest.mark.parametrize("b_requires_grad", [False, True])
def test_hook_slots_match_pytorch(torch, use, b_requires_grad):
    def backward(outputs):
        picked = {"first": outputs[:1], "second": outputs[1:], "both": outputs}[use]
        return sum(o.sum() for o in picked)

    def case(lib):
        a = lib.tensor([1.0, -2.0], requires_grad=True)
        b = lib.tensor([3.0, 0.5], requires_grad=b_requires_grad)
        return grads_seen(lib, two_outputs(lib), a, b, 2.0, backward=backward)
    assert_same_slots(case(tapegrad), case(torch))


def test_namedtuple_output_keeps_its_type(torch):
    def case(lib):
        from collections import namedtuple
        Out = namedtuple("Out", "logits aux")

        class Head(lib.nn.Module):
            def forward(self, x):
                return Out(x * 2, x * 3)
        head = Head()
        head.register_full_backward_hook(lambda m, gi, go: None)
        out = head(lib.ones(2, requires_grad=True))
        return type(out).__name__, out._fields, out.aux.grad_fn.name()
    assert case(tapegrad) == case(torch)


def test_list_output_warns_and_is_not_hooked(torch):
    def case(lib):
        class Pair(lib.nn.Module):
            def forward(self, x):
                return [x * 2, x * 3]
        pair, calls = Pair(), []
        pair.register_full_backward_hook(lambda m, gi, go: calls.append(1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = pair(lib.ones(2, requires_grad=True))
        out[0].sum().backward()
        return [str(w.message) for w in caught], calls, out[0].grad_fn.name()
    assert case(tapegrad) == case(torch)


def test_hook_returning_all_none_without_grad_inputs_is_accepted(torch):
    def case(lib):
        lin = lib.nn.Linear(2, 2)
        lin.register_full_backward_hook(lambda m, gi, go: (None,))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lin(lib.ones(1, 2)).sum().backward()
        return lin.bias.grad
    assert_same(case, torch)


# ------------------------------------------------------ deprecated and global backward hooks

def test_deprecated_hook_lives_in_backward_hooks(torch):
    def case(lib):
        lin = lib.nn.Linear(2, 2)
        seen = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            handle = lin.register_backward_hook(
                lambda m, gi, go: seen.append([None if g is None else tuple(g.shape) for g in gi]))
            lin(lib.ones(3, 2, requires_grad=True)).sum().backward()
        kinds = [(w.category.__name__, str(w.message)[:60]) for w in caught]
        state = (len(lin._backward_hooks), lin._is_full_backward_hook)
        handle.remove()
        try:
            lin.register_full_backward_hook(lambda m, gi, go: None)
            refused = None
        except RuntimeError as error:
            refused = str(error)
        return seen, kinds, state, refused
    assert case(tapegrad) == case(torch)


def test_global_backward_pre_hook_and_kind_check(torch):
    def case(lib):
        from importlib import import_module
        hooks = import_module(lib.__name__ + ".nn.modules.module")
        seen = []
        h1 = hooks.register_module_full_backward_pre_hook(
            lambda m, go: seen.append((type(m).__name__, len(go))))
        h2 = hooks.register_module_full_backward_hook(lambda m, gi, go: None)
        try:
            hooks.register_module_backward_hook(lambda m, gi, go: None)
        except RuntimeError as error:
            seen.append(str(error))
        finally:
            net = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Tanh())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                net(lib.ones(1, 2)).sum().backward()
            h1.remove()
            h2.remove()
        return seen
    assert case(tapegrad) == case(torch)


def test_global_hook_kind_is_sticky():
    import tapegrad.nn.modules.module as module
    saved = module._GLOBAL_HOOKS.is_full_backward
    try:
        module.register_module_full_backward_hook(lambda m, gi, go: None).remove()
        with pytest.raises(RuntimeError, match="as a global Module hook"):
            module.register_module_backward_hook(lambda m, gi, go: None)
    finally:
        module._GLOBAL_HOOKS.is_full_backward = saved


# --------------------------------------------------------------------------- load_state_dict

def test_failed_load_still_copies_what_fits(torch):
    def case(lib):
        src = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Linear(3, 4))
        dst = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Linear(3, 2))
        with lib.no_grad():
            for i, p in enumerate(src.parameters()):
                p.fill_(i + 1.0)
            for p in dst.parameters():
                p.fill_(-1.0)
        try:
            dst.load_state_dict(src.state_dict())
        except RuntimeError as error:
            message = str(error)
        return message, tuple(p for p in dst.parameters())
    ours, theirs = case(tapegrad), case(torch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    np.testing.assert_array_equal(ours[1][0].detach().numpy(), np.ones((3, 2)))  # copied
    np.testing.assert_array_equal(ours[1][3].detach().numpy(), -np.ones(2))      # refused


def test_override_sees_loaded_values_after_super():
    """A ``_load_from_state_dict`` override that derives state after ``super()`` sees the
    checkpoint's values (PyTorch copies inside ``_load_from_state_dict``)."""
    class Cached(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(tapegrad.ones(2))
            self.total = None

        def _load_from_state_dict(self, *args, **kwargs):
            super()._load_from_state_dict(*args, **kwargs)
            self.total = self.weight.sum().item()

    module = Cached()
    module.load_state_dict({"weight": tapegrad.tensor([2.0, 5.0])})
    assert module.total == 7.0


@pytest.mark.parametrize("value", [[4.0], [4.0, 5.0], 4.0])
def test_scalar_buffer_from_one_element_vector(torch, value):
    def case(lib):
        m = lib.nn.Module()
        m.register_buffer("count", lib.tensor(1.0))
        result = m.load_state_dict({"count": lib.tensor(value)})
        return m.count, repr(result)
    assert_same(case, torch)


def test_children_get_their_own_filtered_dict(torch):
    def case(lib):
        seen = []
        outer = lib.nn.Sequential(lib.nn.Linear(1, 1))
        outer[0]._register_load_state_dict_pre_hook(
            lambda sd, prefix, *rest: seen.append((type(sd).__name__, sorted(sd))))
        outer.load_state_dict(lib.nn.Sequential(lib.nn.Linear(1, 1)).state_dict())
        return seen
    assert case(tapegrad) == case(torch)


def test_extra_state_key_without_set_extra_state_is_unexpected(torch):
    def case(lib):
        lin = lib.nn.Linear(1, 1)
        state = dict(lin.state_dict(), _extra_state=3)
        return repr(lin.load_state_dict(state, strict=False))
    assert case(tapegrad) == case(torch)


# ------------------------------------------------------------- spectral norm, weight norm

def fill(lib, module):
    with lib.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(lib.linspace(-1, 1, p.numel()).view_as(p) + 0.1 * i)
    return module


def test_spectral_norm_metadata_and_removal(torch):
    def case(lib):
        sn = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 2))
        before = sn.state_dict()._metadata[""]
        reloaded = repr(lib.nn.utils.spectral_norm(lib.nn.Linear(3, 2)).load_state_dict(
            sn.state_dict()))
        lib.nn.utils.remove_spectral_norm(sn)
        return before, reloaded, sn.state_dict()._metadata[""], len(sn._state_dict_hooks)
    assert case(tapegrad) == case(torch)


def test_spectral_norm_loads_a_version_0_checkpoint():
    """The old layout saved ``weight`` but no ``weight_v``: ``v`` is solved so that the
    eval-mode weight comes out as saved."""
    sn = fill(tapegrad, nn.utils.spectral_norm(nn.Linear(3, 3)))
    with tapegrad.no_grad():
        sn.weight_u.copy_(tapegrad.tensor([0.6, 0.8, 0.0]))
        sn.weight_v.copy_(tapegrad.tensor([0.0, 0.6, 0.8]))
    sn.eval()
    expected = sn(tapegrad.ones(1, 3)).detach().numpy()
    old = {k: v for k, v in sn.state_dict().items() if k != "weight_v"}
    old["weight"] = sn.weight.detach().clone()
    fresh = nn.utils.spectral_norm(nn.Linear(3, 3)).eval()
    assert repr(fresh.load_state_dict(old)) == "<All keys matched successfully>"
    np.testing.assert_allclose(fresh(tapegrad.ones(1, 3)).detach().numpy(), expected, rtol=1e-4)


def test_old_weight_norm_checkpoint_loads_into_parametrization(torch):
    def case(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            old = fill(lib, lib.nn.utils.weight_norm(lib.nn.Linear(3, 2)))
        new = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(3, 2))
        result = repr(new.load_state_dict(old.state_dict()))
        return new(lib.ones(1, 3)), new.parametrizations.weight.original0, result
    assert_same(case, torch)


# ---------------------------------------------------------------------- functional_call, misc

def test_functional_call_strict_counts_tied_names(torch):
    def case(lib):
        m = lib.nn.Module()
        m.emb = lib.nn.Embedding(4, 2)
        m.out = lib.nn.Linear(2, 4, bias=False)
        m.out.weight = m.emb.weight
        m.forward = lambda idx: m.out(m.emb(idx))
        fresh = {"emb.weight": lib.ones(4, 2)}
        return lib.func.functional_call(m, fresh, (lib.tensor([1]),), strict=True)
    assert_same(case, torch)


@pytest.mark.parametrize("value", [3, "x", "list", "tensor", "module", "user"])
def test_registration_errors_name_the_type_as_torch_typename(torch, value):
    def case(lib):
        class User:
            pass
        v = {"tensor": lib.ones(1, dtype=lib.long), "module": lib.nn.ReLU(), "list": [1],
             "user": User()}.get(value, value)
        m = lib.nn.Module()
        m.register_buffer("b", lib.ones(1))
        m.p = lib.nn.Parameter(lib.ones(1))
        messages = []
        for attempt in (lambda: m.add_module("a", v), lambda: m.register_buffer("c", v),
                        lambda: m.register_parameter("d", v), lambda: setattr(m, "b", v),
                        lambda: setattr(m, "p", v)):
            try:
                attempt()
            except (TypeError, KeyError) as error:
                messages.append(str(error).replace("__main__", "").replace("test_frm_fixes", ""))
        return messages
    assert case(tapegrad) == case(torch)


def test_convert_conv2d_weight_memory_format(torch):
    def case(lib):
        net = lib.nn.Sequential(lib.nn.Conv2d(2, 3, 3), lib.nn.Sequential(
            lib.nn.ConvTranspose2d(3, 2, 2), lib.nn.Conv3d(2, 2, 1)), lib.nn.Linear(2, 2))
        weight = net[0].weight
        same = lib.nn.utils.convert_conv2d_weight_memory_format(net, lib.channels_last)
        lib.nn.utils.convert_conv3d_weight_memory_format(net, lib.channels_last_3d)
        return (same is net, net[0].weight is weight, net[0].weight.stride(),
                net[1][0].weight.stride(), net[1][1].weight.stride(),
                net[0].weight.is_contiguous(memory_format=lib.channels_last))
    assert case(tapegrad) == case(torch)


# ------------------------------------------------------------------------------- containers

def test_sequential_operator_errors_name_torch_classes(torch):
    def case(lib):
        messages = []
        for attempt in (lambda: lib.nn.Sequential() + lib.nn.ReLU(),
                        lambda: lib.nn.Sequential() * 0, lambda: lib.nn.Sequential() * 1.5):
            try:
                attempt()
            except (TypeError, ValueError) as error:
                messages.append(str(error))
        return messages
    assert case(tapegrad) == case(torch)


def test_container_item_assignment_goes_through_setattr(torch):
    def case(lib):
        messages = []
        for container in (lib.nn.ModuleList([lib.nn.ReLU()]), lib.nn.Sequential(lib.nn.ReLU())):
            try:
                container[0] = 3
            except TypeError as error:
                messages.append(str(error))
        return messages
    assert case(tapegrad) == case(torch)


def test_deleting_renumbers_into_an_ordered_dict_without_registration_hooks(torch):
    def case(lib):
        from importlib import import_module
        module = import_module(lib.__name__ + ".nn.modules.module")
        registered = []
        handle = module.register_module_module_registration_hook(
            lambda parent, name, child: registered.append(name))
        try:
            blocks = lib.nn.ModuleList([lib.nn.ReLU(), lib.nn.Tanh(), lib.nn.GELU()])
            del blocks[0]
        finally:
            handle.remove()
        return type(blocks._modules).__name__, list(blocks._modules), registered, \
            [k for k in dir(blocks) if k.isdigit()]
    assert case(tapegrad) == case(torch)


def test_parameter_dict_mapping_methods(torch):
    def case(lib):
        pd = lib.nn.ParameterDict({"a": lib.ones(1), "b": lib.ones(2)})
        got = [pd.setdefault("c", lib.zeros(3)).shape, list(reversed(pd)), pd.popitem()[0],
               list(pd), type(pd.copy()).__name__, pd.copy()["a"] is pd["a"]]
        got.append(list(pd | lib.nn.ParameterDict({"z": lib.ones(1)})))
        pd |= {"y": lib.ones(1)}
        got += [list(pd), list(pd.fromkeys(["p", "q"], lib.ones(1)))]
        for attempt in (lambda: pd(1), lambda: lib.nn.ParameterList()(1), lambda: pd[3]):
            try:
                attempt()
            except (RuntimeError, TypeError) as error:
                got.append(str(error))
        return got
    assert case(tapegrad) == case(torch)


# ------------------------------------------------------------------------- _apply, state_dict

def test_conversions_go_through_an_overridable_apply(torch):
    """A subclass's ``_apply`` override sees every conversion (``float``, ``double``, ``to``,
    ``half``, ``cpu``, ``type``) and converts its own cache; parameters keep their identity,
    buffers are replaced, integer buffers keep their dtype."""
    def case(lib):
        class WithCache(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(2, 2)
                self.register_buffer("steps", lib.tensor(3))
                self.register_buffer("scale", lib.ones(2))
                self.cache = lib.ones(2)
                self.calls = 0

            def _apply(self, fn, recurse=True):
                self.calls += 1
                self.cache = fn(self.cache)
                return super()._apply(fn, recurse)

        m = WithCache()
        weight, scale = m.lin.weight, m.scale
        m.lin.weight.grad = lib.ones(2, 2)
        seen = []
        for convert in (lambda: m.double(), lambda: m.to(lib.float32), lambda: m.half(),
                        lambda: m.cpu(), lambda: m.type(lib.float64), lambda: m.float(),
                        lambda: m.to(memory_format=lib.channels_last)):
            assert convert() is m
            seen.append((str(m.cache.dtype), str(m.lin.weight.dtype), str(m.lin.weight.grad.dtype),
                         str(m.steps.dtype), str(m.scale.dtype)))
        return seen, m.calls, m.lin.weight is weight, m.scale is scale, scale.dtype == lib.float32
    assert case(tapegrad) == case(torch)


def test_apply_without_recursion(torch):
    def case(lib):
        outer = lib.nn.Linear(1, 1)
        outer.inner = lib.nn.Linear(1, 1)
        outer._apply(lambda t: t.double(), recurse=False)
        return str(outer.weight.dtype), str(outer.inner.weight.dtype)
    assert case(tapegrad) == case(torch)


def test_state_dict_positional_arguments_warn_and_apply(torch):
    def case(lib):
        m = lib.nn.Linear(1, 1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            state = m.state_dict(None, "enc.", True)
        return ([w.category.__name__ for w in caught], list(state),
                type(state["enc.weight"]).__name__)
    assert case(tapegrad) == case(torch)


def test_unpickling_an_older_module_fills_in_new_attributes():
    """A module pickled before ``_is_full_backward_hook`` (or a hook table) existed still
    takes hooks after loading."""
    import pickle
    state = dict(nn.Linear(2, 2).__dict__)
    del state["_is_full_backward_hook"], state["_forward_hooks"]
    old = nn.Linear.__new__(nn.Linear)
    old.__setstate__(state)
    calls = []
    old.register_forward_hook(lambda m, i, o: calls.append("fwd"))
    old.register_full_backward_hook(lambda m, gi, go: calls.append("bwd"))
    old(tapegrad.ones(1, 2, requires_grad=True)).sum().backward()
    assert calls == ["fwd", "bwd"]
    assert pickle.loads(pickle.dumps(nn.Linear(1, 1)))._is_full_backward_hook is None
