"""The Module API: registration by assignment, traversal, state dicts, modes, reprs, containers."""
from collections import OrderedDict

import numpy as np
import pytest

import tapegrad
from tapegrad import nn


class Net(nn.Module):
    """A module with a parameter, a persistent and a non-persistent buffer, and submodules."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(tapegrad.ones(3))
        self.register_buffer("running", tapegrad.zeros(3))
        self.register_buffer("scratch", tapegrad.zeros(1), persistent=False)
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 3))
        self.head = nn.Linear(3, 2)

    def forward(self, x):
        return self.head(self.body(x) * self.scale + self.running)


def test_parameters_buffers_and_children_are_registered_in_order():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias", "head.weight",
        "head.bias"]
    assert [n for n, _ in net.named_buffers()] == ["running", "scratch"]
    assert [n for n, _ in net.named_children()] == ["body", "head"]
    assert [n for n, _ in net.named_modules()] == ["", "body", "body.0", "body.1", "body.2",
                                                   "head"]
    assert len(list(net.parameters(recurse=False))) == 1
    assert net.get_parameter("body.2.bias") is net.body[2].bias
    assert net.get_submodule("body.0") is net.body[0]


def test_shared_parameters_are_listed_once():
    shared = nn.Linear(2, 2)
    tied = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(tied.parameters())) == 2
    assert [n for n, _ in tied.named_modules()] == ["", "0", "1"]


def test_state_dict_has_persistent_tensors_sharing_memory():
    net = Net()
    state = net.state_dict()
    assert list(state) == ["scale", "running", "body.0.weight", "body.0.bias", "body.2.weight",
                           "body.2.bias", "head.weight", "head.bias"]
    assert not state["scale"].requires_grad
    with tapegrad.no_grad():
        net.scale.mul_(2)
    np.testing.assert_array_equal(state["scale"].numpy(), [2, 2, 2])


def test_state_dict_round_trip_gives_identical_outputs():
    source, target = Net(), Net()
    with tapegrad.no_grad():
        source.running.fill_(0.5)
    result = target.load_state_dict(source.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    x = tapegrad.randn(5, 3)
    np.testing.assert_array_equal(target(x).detach().numpy(), source(x).detach().numpy())


def test_failed_load_reports_every_problem_and_loads_what_fits():
    """As PyTorch: the entries that fit are copied before the problems are raised."""
    net = Net()
    before = {k: v.numpy().copy() for k, v in net.state_dict().items()}
    state = Net().state_dict()
    state["head.weight"] = tapegrad.zeros(5, 3)
    del state["head.bias"]
    state["extra"] = tapegrad.zeros(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(state)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "head.bias". '
        '\n\tUnexpected key(s) in state_dict: "extra". \n\tsize mismatch for head.weight: copying '
        "a param with shape torch.Size([5, 3]) from checkpoint, the shape in current model is "
        "torch.Size([2, 3]).")
    for key, value in net.state_dict().items():
        expected = before[key] if key.startswith("head.") else state[key].numpy()
        np.testing.assert_array_equal(value.numpy(), expected)


def test_non_strict_load_reports_keys_and_loads_the_rest():
    net = Net()
    state = Net().state_dict()
    del state["head.bias"]
    state["extra"] = tapegrad.zeros(1)
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == ["head.bias"] and result.unexpected_keys == ["extra"]
    np.testing.assert_array_equal(net.head.weight.detach().numpy(), state["head.weight"].numpy())


def test_load_with_assign_takes_the_tensors():
    net = nn.Linear(2, 2)
    weight = tapegrad.ones(2, 2)
    net.load_state_dict({"weight": weight, "bias": tapegrad.zeros(2)}, assign=True)
    assert isinstance(net.weight, nn.Parameter) and net.weight.requires_grad
    assert np.shares_memory(net.weight.numpy(force=True), weight.numpy())


def test_train_eval_zero_grad_requires_grad_and_apply():
    net = Net()
    assert net.training and net.body[1].training
    assert net.eval() is net and not net.body[1].training
    net.train()
    assert net.head.training
    net(tapegrad.randn(2, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(not p.grad.numpy().any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.body.requires_grad_(False)
    assert [n for n, p in net.named_parameters() if p.requires_grad] == ["scale", "head.weight",
                                                                         "head.bias"]
    visited = []
    net.apply(lambda m: visited.append(type(m).__name__))
    assert visited == ["Linear", "ReLU", "Linear", "Sequential", "Linear", "Net"]
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_seed_freeze_counts_only_the_last_layer():
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    for param in model[0].parameters():
        param.requires_grad_(False)
    assert sum(p.numel() for p in model.parameters() if p.requires_grad) == 66


def test_double_converts_parameters_in_place():
    net = nn.Linear(2, 3)
    weight = net.weight
    net.double()
    assert net.weight is weight and weight.dtype == tapegrad.float64
    assert net(tapegrad.randn(1, 2, dtype=tapegrad.float64)).dtype == tapegrad.float64


def test_assignment_errors_are_pytorchs():
    net = nn.Linear(2, 2)
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        net.weight = tapegrad.zeros(2, 2)
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'nothing'"):
        net.nothing
    with pytest.raises(NotImplementedError, match='missing the required "forward" function'):
        nn.Module()(1)

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(tapegrad.zeros(1))

    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__"):
        Early()


def test_reassigning_an_attribute_changes_its_kind():
    net = nn.Module()
    net.thing = nn.Linear(1, 1)
    assert "thing" in net._modules
    net.thing = nn.Parameter(tapegrad.zeros(1))
    assert "thing" in net._parameters and "thing" not in net._modules
    del net.thing
    assert not hasattr(net, "thing")


def test_reprs_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for build in (
        lambda m: m.Sequential(m.Linear(10, 32), m.ReLU(), m.Linear(32, 2)),
        lambda m: m.ModuleList([m.Linear(2, 2), m.Linear(2, 2), m.Linear(2, 2), m.Tanh()]),
        lambda m: m.ModuleDict({"a": m.ReLU(), "b": m.Sequential(m.Linear(1, 1))}),
        lambda m: m.Sequential(OrderedDict(conv=m.Conv2d(1, 8, 3, padding=1, bias=False),
                                           pool=m.MaxPool2d(2), drop=m.Dropout(0.1))),
        lambda m: m.Sequential(m.Embedding(10, 3, padding_idx=0), m.LayerNorm(3), m.GELU("tanh"),
                               m.Softmax(dim=-1), m.Flatten(0), m.Identity()),
        lambda m: m.ModuleList(),
        lambda m: m.CrossEntropyLoss(label_smoothing=0.1),
    ):
        assert repr(build(nn)) == repr(build(torch.nn))


def test_sequential_indexing_slicing_and_editing():
    seq = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 3))
    assert isinstance(seq[-1], nn.Linear) and seq[-1].out_features == 3
    assert isinstance(seq[1:], nn.Sequential) and len(seq[1:]) == 2
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    del seq[1]
    assert list(seq._modules) == ["0", "1"]
    seq.append(nn.Tanh())
    assert seq(tapegrad.zeros(4, 1)).shape == (4, 3)
    named = nn.Sequential(OrderedDict(first=nn.Linear(1, 1)))
    assert named.first is named[0]


def test_module_list_and_dict_register_their_members():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    layers.insert(0, nn.ReLU())
    del layers[1]
    assert len(layers) == 3 and len(list(layers.parameters())) == 4
    layers += [nn.Linear(2, 1)]
    assert isinstance(layers[-1], nn.Linear) and layers[-1].out_features == 1
    heads = nn.ModuleDict({"cls": nn.Linear(2, 3)})
    heads["reg"] = nn.Linear(2, 1)
    assert list(heads) == ["cls", "reg"] and "reg" in heads
    assert [n for n, _ in heads.named_parameters()] == ["cls.weight", "cls.bias", "reg.weight",
                                                        "reg.bias"]
    assert heads.pop("cls").out_features == 3 and list(heads.keys()) == ["reg"]


def test_reassigning_keeps_the_place_in_the_order_as_pytorch_does():
    lin = nn.Linear(2, 2)
    lin.weight = nn.Parameter(tapegrad.zeros(2, 2))
    assert list(lin.state_dict()) == ["weight", "bias"]
    lin.weight = None
    lin.weight = nn.Parameter(tapegrad.zeros(2, 2))
    assert [n for n, _ in lin.named_parameters()] == ["weight", "bias"]
    net = nn.Module()
    net.a, net.b = nn.Linear(1, 1), nn.ReLU()
    net.a = nn.Tanh()
    assert list(net._modules) == ["a", "b"]
    plist = nn.ParameterList([tapegrad.ones(1), tapegrad.ones(2)])
    plist[0] = tapegrad.zeros(3)
    assert list(plist.state_dict()) == ["0", "1"]


def test_tied_weights_keep_the_decoders_key_order():
    torch = pytest.importorskip("torch")
    keys = []
    for library in (tapegrad, torch):
        model = library.nn.Module()
        model.encoder = library.nn.Embedding(5, 3)
        model.decoder = library.nn.Linear(3, 5)
        model.decoder.weight = model.encoder.weight
        model.scale = library.nn.Parameter(library.ones(1))  # a plain-attribute turned parameter
        model.register_buffer("step", library.zeros(1))
        model.step = library.nn.Parameter(library.ones(1))  # a buffer turned parameter
        keys.append(([n for n, _ in model.named_parameters(remove_duplicate=False)],
                     list(model.state_dict()), list(model._buffers)))
    assert keys[0] == keys[1]


def test_get_buffer_parameter_and_submodule_answer_as_pytorchs():
    torch = pytest.importorskip("torch")
    targets = ["", "bn", "bn.running_mean", "bn.weight", "bn.num_batches_tracked", "fc.bias",
               "fc.training", "fc.in_features", "bn.missing", "nope.x", "fc.weight.x", "gone.x",
               "gone"]
    answers = []
    for library in (tapegrad, torch):
        net = library.nn.Sequential(OrderedDict(fc=library.nn.Linear(2, 2, bias=False),
                                                bn=library.nn.BatchNorm1d(2)))
        net.gone = None
        answers.append([_lookup(getattr(net, method), target) for target in targets
                        for method in ("get_submodule", "get_parameter", "get_buffer")])
    assert answers[0] == answers[1]
    assert nn.BatchNorm1d(2).get_buffer("running_mean").tolist() == [0.0, 0.0]


def _lookup(method, target):
    """What a ``get_*`` lookup returned (its repr) or the error it raised."""
    try:
        return repr(method(target))
    except AttributeError as error:
        return f"AttributeError: {error}"


class _Normalized(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)


def test_state_dict_metadata_records_each_modules_version():
    state = _Normalized().state_dict()
    assert state._metadata == {"": {"version": 1}, "fc": {"version": 1}, "bn": {"version": 2}}
    assert nn.Linear(1, 1).state_dict(prefix="p.")._metadata == {"p": {"version": 1}}
    destination = {}
    nn.Linear(1, 1).state_dict(destination=destination)
    assert not hasattr(destination, "_metadata") and list(destination) == ["weight", "bias"]


def test_plain_dict_checkpoint_without_num_batches_tracked_loads_as_pytorch():
    old = {k: v for k, v in nn.BatchNorm1d(2).state_dict().items() if k != "num_batches_tracked"}
    assert repr(nn.BatchNorm1d(2).load_state_dict(old)) == "<All keys matched successfully>"
    bn = nn.BatchNorm1d(2)
    bn(tapegrad.ones(3, 2))
    bn.load_state_dict(old)
    assert bn.num_batches_tracked.item() == 1  # the module keeps its own count
    nested = {k: v for k, v in _Normalized().state_dict().items() if "num_batches" not in k}
    del nested["fc.bias"]
    result = _Normalized().load_state_dict(nested, strict=False)
    assert result.missing_keys == ["fc.bias"] and result.unexpected_keys == []
    current = nn.BatchNorm1d(2).state_dict()  # carries version 2: the key is really missing
    del current["num_batches_tracked"]
    missing = 'Missing key\\(s\\) in state_dict: "num_batches_tracked"'
    with pytest.raises(RuntimeError, match=missing):
        nn.BatchNorm1d(2).load_state_dict(current)
    current._metadata[""]["version"] = 1
    assert repr(nn.BatchNorm1d(2).load_state_dict(current)) == "<All keys matched successfully>"


def test_load_reports_keys_in_pytorchs_order_and_assign_keeps_the_order():
    torch = pytest.importorskip("torch")
    reports = []
    for library in (tapegrad, torch):
        net = library.nn.Sequential(OrderedDict(fc=library.nn.Linear(2, 2),
                                                bn=library.nn.BatchNorm1d(2)))
        state = {"fc.zz": library.ones(1), **net.state_dict(), "yy": library.ones(1),
                 "bn.q.r": library.ones(1)}
        del state["fc.bias"]
        result = net.load_state_dict(state, strict=False)
        weight = library.nn.Parameter(library.ones(2, 2), requires_grad=False)
        net.load_state_dict({**net.state_dict(), "fc.weight": weight}, assign=True)
        reports.append((result.missing_keys, result.unexpected_keys, list(net.state_dict()),
                        net.fc.weight is weight, net.fc.weight.requires_grad))
    assert reports[0] == reports[1]
