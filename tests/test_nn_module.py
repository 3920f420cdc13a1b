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


def test_failed_load_reports_every_problem_and_changes_nothing():
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
        np.testing.assert_array_equal(value.numpy(), before[key])


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
