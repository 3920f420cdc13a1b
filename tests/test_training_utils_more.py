"""Training utilities against PyTorch: the ``utils.data`` package layout, collation dtypes,
DataLoader option checks and iterators, Module train()/state-dict extension points, optimizer
hooks, Adafactor, and the scheduler's resume error."""
import importlib
import io
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import tapegrad
import tapegrad.nn as nn
from tapegrad.utils.data import (DataLoader, IterableDataset, TensorDataset, default_collate,
                                 default_convert, get_worker_info)

torch = pytest.importorskip("torch")


# ------------------------------------------------------------------------------- data package

@pytest.mark.parametrize("path", ["utils.data.dataset", "utils.data.sampler",
                                  "utils.data.dataloader", "utils.data._utils.collate",
                                  "utils.data.distributed", "utils.hooks", "nn.modules.utils",
                                  "nn.modules.batchnorm", "nn.modules.module"])
def test_pytorch_module_paths_exist(path):
    ours = importlib.import_module("tapegrad." + path)
    theirs = importlib.import_module("torch." + path)
    public = getattr(theirs, "__all__", [])
    expected = {"DataLoader", "Sampler", "Dataset", "default_collate", "RemovableHandle",
                "consume_prefix_in_state_dict_if_present", "BatchNorm1d", "Module",
                "DistributedSampler", "SubsetRandomSampler", "Subset"}
    for name in expected & set(public):
        assert hasattr(ours, name), name


@pytest.mark.parametrize("sample", [np.float32(0.5), np.float64(1.5), np.float16(2.0),
                                    np.int32(3), np.int64(4), np.uint8(5), np.bool_(True),
                                    1.5, 7, True])
def test_default_collate_keeps_the_dtype_of_numbers(sample):
    ours = default_collate([sample, sample])
    theirs = torch.utils.data.default_collate([sample, sample])
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("arrays", [[np.array(["cat"]), np.array(["dog"])],
                                    [np.array([1, None]), np.array([2, 3])],
                                    [np.array([b"x"]), np.array([b"y"])]])
def test_default_collate_refuses_string_and_object_arrays(arrays):
    with pytest.raises(TypeError) as theirs:
        torch.utils.data.default_collate(arrays)
    with pytest.raises(TypeError, match=str(theirs.value).replace("(", r"\(")) as ours:
        default_collate(arrays)
    assert str(ours.value) == str(theirs.value)


def test_default_convert_turns_numpy_into_tensors_inside_containers():
    sample = {"a": np.array([1, 2]), "b": (np.float32(1.0), "s"), "c": np.array(["x"])}
    ours, theirs = default_convert(sample), torch.utils.data.default_convert(sample)
    assert ours["a"].tolist() == theirs["a"].tolist() and str(ours["a"].dtype) == str(
        theirs["a"].dtype)
    assert isinstance(ours["b"], list) and ours["b"][1] == "s"
    assert str(ours["b"][0].dtype) == str(theirs["b"][0].dtype)
    assert isinstance(ours["c"], np.ndarray)


@pytest.mark.parametrize("kwargs", [dict(batch_size=None, drop_last=True), dict(timeout=-1),
                                    dict(prefetch_factor=2), dict(persistent_workers=True),
                                    dict(num_workers=-1), dict(multiprocessing_context="fork"),
                                    dict(num_workers=1, prefetch_factor=-1)])
def test_dataloader_option_errors_match_pytorch(kwargs):
    with pytest.raises(ValueError) as theirs:
        torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.zeros(4)), **kwargs)
    with pytest.raises(ValueError) as ours:
        DataLoader(TensorDataset(tapegrad.zeros(4)), **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_dataloader_attributes_are_frozen_after_init():
    loader = DataLoader(TensorDataset(tapegrad.zeros(4)), batch_size=2)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after "
                                         "DataLoader is initialized"):
        loader.batch_size = 3


def test_pin_memory_warns_that_no_accelerator_is_found():
    loader = DataLoader(TensorDataset(tapegrad.zeros(4)), batch_size=2, pin_memory=True)
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no "
                                         "accelerator is found"):
        iter(loader)


def test_iterator_is_a_single_process_iterator_with_a_length():
    loader = DataLoader(TensorDataset(tapegrad.arange(5.0)), batch_size=2)
    it = iter(loader)
    assert type(it).__name__ == "_SingleProcessDataLoaderIter"
    assert len(it) == 3 and iter(it) is it
    assert [b[0].tolist() for b in it] == [[0.0, 1.0], [2.0, 3.0], [4.0]]
    with pytest.raises(StopIteration):
        next(it)


class _Sharded:
    """An iterable dataset splitting its range between workers, the documented idiom."""

    def __init__(self, lib, n):
        self.lib, self.n = lib, n

    def __iter__(self):
        info = self.lib.utils.data.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


def test_workers_shard_an_iterable_dataset_as_pytorch_workers_do():
    class Ours(_Sharded, IterableDataset):
        pass

    class Theirs(_Sharded, torch.utils.data.IterableDataset):
        pass

    theirs = [b.tolist() for b in torch.utils.data.DataLoader(Theirs(torch, 7), batch_size=2,
                                                              num_workers=2)]
    seen = []
    loader = DataLoader(Ours(tapegrad, 7), batch_size=2, num_workers=2,
                        worker_init_fn=seen.append)
    it = iter(loader)
    assert type(it).__name__ == "_MultiProcessingDataLoaderIter"
    assert [b.tolist() for b in it] == theirs
    assert seen == [0, 1] and get_worker_info() is None


def test_map_style_dataset_with_workers_gives_the_single_process_batches():
    ds = TensorDataset(tapegrad.arange(10))
    assert [b[0].tolist() for b in DataLoader(ds, batch_size=3, num_workers=2)] == \
        [b[0].tolist() for b in DataLoader(ds, batch_size=3)]


def test_distributed_sampler_splits_indices_between_replicas():
    ds = list(range(10))
    for drop_last in (False, True):
        for rank in range(3):
            ours = tapegrad.utils.data.DistributedSampler(ds, 3, rank, shuffle=False,
                                                          drop_last=drop_last)
            theirs = torch.utils.data.DistributedSampler(ds, 3, rank, shuffle=False,
                                                         drop_last=drop_last)
            assert list(ours) == list(theirs) and len(ours) == len(theirs)


def test_consume_prefix_strips_keys_and_metadata():
    sd = nn.Sequential(nn.Linear(2, 2)).state_dict()
    prefixed = OrderedDict(("module." + k, v) for k, v in sd.items())
    prefixed._metadata = OrderedDict(("module." + k if k else "module", v)
                                     for k, v in sd._metadata.items())
    nn.modules.utils.consume_prefix_in_state_dict_if_present(prefixed, "module.")
    assert list(prefixed) == list(sd) and list(prefixed._metadata) == ["", "0"]


# ---------------------------------------------------------------------------- Module train()

def test_train_calls_each_childs_own_train():
    def build(lib, calls):
        class Frozen(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.bn = lib.nn.BatchNorm1d(2)

            def train(self, mode=True):
                calls.append(mode)
                super().train(mode)
                self.bn.eval()
                return self

        return lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Sequential(Frozen()))

    for lib in (tapegrad, torch):
        calls = []
        model = build(lib, calls)
        model.eval()
        model.train()
        assert calls == [False, True]
        assert [m.training for m in model.modules()] == [True, True, True, True, False]


# ----------------------------------------------------------------------- state dict extension

class _Counter:
    """Mixin: a module with extra state and a custom ``_save_to_state_dict``."""

    _version = 3

    def get_extra_state(self):
        return {"calls": self.calls}

    def set_extra_state(self, state):
        self.calls = state["calls"]

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "norm"] = self.weight.detach().norm()


def _counter(lib):
    module = type("Counter", (_Counter, lib.nn.Linear), {})(2, 1)
    module.calls = 5
    return module


def test_extra_state_and_save_override_and_metadata_match_pytorch():
    ours = nn.Sequential(_counter(tapegrad)).state_dict()
    theirs = torch.nn.Sequential(_counter(torch)).state_dict()
    assert list(ours) == list(theirs) == ["0.weight", "0.bias", "0._extra_state", "0.norm"]
    assert ours["0._extra_state"] == theirs["0._extra_state"]
    assert ours._metadata == theirs._metadata


def test_extra_state_loads_and_is_required_under_strict():
    sd = nn.Sequential(_counter(tapegrad)).state_dict()
    sd.pop("0.norm")
    target = nn.Sequential(_counter(tapegrad))
    target[0].calls = 0
    assert str(target.load_state_dict(sd)) == "<All keys matched successfully>"
    assert target[0].calls == 5
    del sd["0._extra_state"]
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: '
                                           '"0._extra_state"'):
        target.load_state_dict(sd)


def test_save_and_load_keep_a_state_dicts_metadata():
    sd = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).state_dict()
    buffer = io.BytesIO()
    tapegrad.save(sd, buffer)
    buffer.seek(0)
    loaded = tapegrad.load(buffer)
    assert loaded._metadata == sd._metadata
    assert loaded._metadata["1"] == {"version": 2}


def test_state_dict_and_load_hooks_run_in_pytorchs_order():
    def record(lib):
        log = []
        inner = lib.nn.Linear(2, 2)
        model = lib.nn.Sequential(inner)
        inner.register_state_dict_pre_hook(lambda m, prefix, keep: log.append(("pre", prefix)))
        inner.register_state_dict_post_hook(
            lambda m, sd, prefix, md: log.append(("post", prefix, len(sd), md)))
        model._register_state_dict_hook(lambda m, sd, prefix, md: log.append(("old", len(sd))))

        def load_pre(module, sd, prefix, md, strict, missing, unexpected, errors):
            sd[prefix + "weight"] = sd.pop(prefix + "w")
            log.append(("load_pre", prefix, md.get("version")))

        inner.register_load_state_dict_pre_hook(load_pre)
        inner.register_load_state_dict_post_hook(
            lambda m, keys: log.append(("load_post", list(keys.missing_keys))))
        model.register_load_state_dict_post_hook(
            lambda m, keys: keys.unexpected_keys.clear())
        sd = model.state_dict()
        sd["0.w"] = sd.pop("0.weight")
        sd["extra"] = lib.zeros(1)
        result = model.load_state_dict(sd)
        return log, repr(result)

    assert record(tapegrad) == record(torch)


def test_public_state_dict_post_hook_must_return_none():
    model = nn.Linear(1, 1)

    def hook(module, sd, prefix, md):
        return {}

    model.register_state_dict_post_hook(hook)
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        model.state_dict()
    with pytest.raises(RuntimeError, match="Cannot register the same function"):
        model._register_state_dict_hook(hook)


def test_set_submodule_matches_pytorch():
    for lib in (tapegrad, torch):
        model = lib.nn.Sequential(lib.nn.Sequential(lib.nn.Linear(2, 2)))
        model.set_submodule("0.0", lib.nn.Identity())
        assert type(model[0][0]).__name__ == "Identity"
    errors = []
    for lib in (tapegrad, torch):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2))
        messages = []
        for target, module, strict in [("", lib.nn.Identity(), False),
                                       ("0", "x", False), ("0.weight", lib.nn.Identity(), False),
                                       ("1", lib.nn.Identity(), True),
                                       ("3.lin", lib.nn.Identity(), False)]:
            with pytest.raises((ValueError, AttributeError)) as info:
                model.set_submodule(target, module, strict=strict)
            messages.append(str(info.value).replace("torch", "tapegrad"))
        errors.append(messages)
    assert errors[0][1].startswith("`module` is not an nn.Module")
    assert errors[0][:1] + errors[0][2:] == errors[1][:1] + errors[1][2:]


def test_global_registration_hooks_see_what_pytorchs_see():
    def record(lib):
        module = importlib.import_module(lib.__name__ + ".nn.modules.module")
        log = []
        handles = [
            module.register_module_parameter_registration_hook(
                lambda m, name, value: log.append(("param", name))),
            module.register_module_buffer_registration_hook(
                lambda m, name, value: log.append(("buffer", name))),
            module.register_module_module_registration_hook(
                lambda m, name, value: lib.nn.Identity() if name == "swap" else None),
        ]
        model = lib.nn.Sequential(lib.nn.Linear(1, 1), lib.nn.BatchNorm1d(1))
        model.swap = lib.nn.ReLU()
        model[1].running_mean = lib.zeros(1)
        model[0].bias = None
        for handle in handles:
            handle.remove()
        lib.nn.Linear(1, 1)
        return log, type(model.swap).__name__

    assert record(tapegrad) == record(torch)


def test_to_empty_keeps_shapes_and_dtypes():
    model = nn.Linear(3, 2).double()
    assert model.to_empty(device="cpu") is model
    assert model.weight.shape == (2, 3) and model.weight.dtype == tapegrad.float64
    assert model.share_memory() is model


# -------------------------------------------------------------------------- optimizer hooks

def _sgd_run(lib, with_global):
    log = []
    w = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.SGD([w], lr=0.1, momentum=0.9)
    handles = [
        opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", len(args),
                                                                          dict(kwargs)))),
        opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", len(o.state)))),
        opt.register_state_dict_pre_hook(lambda o: log.append("sd_pre")),
        opt.register_state_dict_post_hook(lambda o, sd: {**sd, "tag": 1}),
        opt.register_load_state_dict_pre_hook(lambda o, sd: log.append(("load_pre", sorted(sd)))),
        opt.register_load_state_dict_post_hook(lambda o: log.append("load_post")),
    ]
    if with_global:
        module = importlib.import_module(lib.__name__ + ".optim.optimizer")
        handles.append(module.register_optimizer_step_pre_hook(
            lambda o, args, kwargs: log.append("global_pre")))
        handles.append(module.register_optimizer_step_post_hook(
            lambda o, args, kwargs: log.append("global_post")))
    w.grad = lib.ones(2)
    opt.step()
    opt.step(closure=None)
    sd = opt.state_dict()
    log.append(sorted(sd))
    opt.load_state_dict(sd)
    for handle in handles:
        handle.remove()
    opt.step()
    return log


@pytest.mark.parametrize("with_global", [False, True])
def test_optimizer_hooks_match_pytorch(with_global):
    assert _sgd_run(tapegrad, with_global) == _sgd_run(torch, with_global)


def test_step_pre_hook_may_replace_the_arguments_and_super_step_hooks_per_patched_class():
    # As PyTorch, the hooks wrap the step of each class an instance was made of: a subclass step
    # calling super().step() runs them once, until the parent class has had an instance too.
    class Parent(tapegrad.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 1.0})

        def step(self, closure=None):
            for p in self.param_groups[0]["params"]:
                p.data.sub_(p.grad)
            return closure() if closure is not None else None

    class Child(Parent):
        def step(self, closure=None):
            return super().step(closure)

    w = nn.Parameter(tapegrad.ones(1))
    opt = Child([w])
    calls = []
    replace = opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": lambda: 3.0}))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append(kwargs))
    w.grad = tapegrad.ones(1)
    assert opt.step() == 3.0
    assert len(calls) == 1 and w.item() == 0.0
    replace.remove()
    Parent([nn.Parameter(tapegrad.ones(1))])  # now Parent's step runs the hooks as well
    opt.step()
    assert len(calls) == 3


def test_optimizer_hooks_survive_deepcopy_as_empty_tables():
    import copy
    opt = tapegrad.optim.SGD([nn.Parameter(tapegrad.ones(1))], lr=0.1)
    opt.register_step_pre_hook(lambda *a: None)
    clone = copy.deepcopy(opt)
    assert not clone._optimizer_step_pre_hooks and len(opt._optimizer_step_pre_hooks) == 1


# ------------------------------------------------------------------------------- Adafactor

@pytest.mark.parametrize("kwargs", [{}, dict(lr=0.5, weight_decay=0.1, maximize=True),
                                    dict(eps=(1e-3, 1e-2), d=2.0, beta2_decay=-0.5)])
def test_adafactor_steps_match_pytorch(kwargs):
    rng = np.random.default_rng(0)
    shapes = [(3, 4), (5,), (2, 3, 4)]
    init = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(4)]

    def run(lib):
        params = [lib.nn.Parameter(lib.tensor(a.copy())) for a in init]
        opt = lib.optim.Adafactor(params, **kwargs)
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = lib.tensor(g)
            opt.step()
        state = {i: {k: np.asarray(v.tolist()) for k, v in s.items()}
                 for i, s in opt.state_dict()["state"].items()}
        return [p.detach().numpy() for p in params], state, repr(opt)

    ours, theirs = run(tapegrad), run(torch)
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours[1].keys() == theirs[1].keys()
    for i in ours[1]:
        assert sorted(ours[1][i]) == sorted(theirs[1][i])
        for key in ours[1][i]:
            np.testing.assert_allclose(ours[1][i][key], theirs[1][i][key], rtol=1e-5)
    assert ours[2] == theirs[2]


@pytest.mark.parametrize("kwargs", [dict(lr=-1.0), dict(beta2_decay=0.5), dict(eps=(-1, 1e-3)),
                                    dict(eps=(None, -1)), dict(d=0.5), dict(weight_decay=-1)])
def test_adafactor_argument_errors_match_pytorch(kwargs):
    with pytest.raises(ValueError) as theirs:
        torch.optim.Adafactor([torch.nn.Parameter(torch.ones(1))], **kwargs)
    with pytest.raises(ValueError) as ours:
        tapegrad.optim.Adafactor([nn.Parameter(tapegrad.ones(1))], **kwargs)
    assert str(ours.value) == str(theirs.value)


# ------------------------------------------------------------------------------- schedulers

def test_resuming_without_initial_lr_raises_pytorchs_key_error():
    def message(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        with pytest.raises(KeyError) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.optim.lr_scheduler.StepLR(opt, step_size=2, last_epoch=3)
        return str(info.value)

    assert message(tapegrad) == message(torch)


# ------------------------------------------------------------------------------------ Muon

@pytest.mark.parametrize("kwargs", [{}, dict(nesterov=False, weight_decay=0.0, lr=0.05),
                                    dict(adjust_lr_fn="match_rms_adamw", ns_steps=3)])
def test_muon_steps_match_pytorch(kwargs):
    rng = np.random.default_rng(1)
    shapes = [(3, 5), (6, 2)]
    init = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(3)]

    def run(lib):
        params = [lib.nn.Parameter(lib.tensor(a.copy())) for a in init]
        opt = lib.optim.Muon(params, **kwargs)
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = lib.tensor(g)
            opt.step()
        return [p.detach().numpy() for p in params], sorted(opt.param_groups[0])

    ours, theirs = run(tapegrad), run(torch)
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert ours[1] == theirs[1]


def test_muon_refuses_parameters_that_are_not_matrices():
    with pytest.raises(ValueError) as theirs:
        torch.optim.Muon(torch.nn.Linear(2, 2).parameters())
    with pytest.raises(ValueError) as ours:
        tapegrad.optim.Muon(nn.Linear(2, 2).parameters())
    assert str(ours.value) == str(theirs.value)
