"""The meta device: tensors with a shape and a dtype but no data, as PyTorch's. Models are built
there without memory, operations compute shapes (and record the graph), and to_empty or
load_state_dict(assign=True) gives them real tensors."""
import copy

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn
from tapegrad.func import functional_call


def test_factories_and_operations_give_meta_tensors_with_shapes_and_history():
    x = tg.randn(3, 4, device="meta", requires_grad=True)
    assert x.is_meta and x.device == tg.device("meta") and x.shape == (3, 4)
    assert repr(x) == "tensor(..., device='meta', size=(3, 4), requires_grad=True)"
    assert repr(tg.zeros(2, dtype=tg.int64, device="meta")) == \
        "tensor(..., device='meta', size=(2,), dtype=torch.int64)"
    y = (x @ tg.empty(4, 5, device="meta")).relu().sum(1)
    assert y.is_meta and y.shape == (3,) and type(y.grad_fn).__name__ == "SumBackward1"
    assert repr(x * 2) == "tensor(..., device='meta', size=(3, 4), grad_fn=<MulBackward0>)"
    values, indices = x.max(1)
    assert values.is_meta and indices.is_meta and indices.dtype == tg.int64
    assert tg.empty_like(x).is_meta and x.new_zeros(2).is_meta
    assert not tg.zeros_like(x, device="cpu").is_meta


def test_the_default_device_context_and_setting_are_restored():
    with tg.device("meta"):
        layer = nn.Linear(4, 3)
        assert tg.arange(5).is_meta
    assert layer.weight.is_meta and isinstance(layer.weight, nn.Parameter)
    assert not tg.ones(1).is_meta
    tg.set_default_device("meta")
    try:
        assert tg.ones(1).is_meta and tg.get_default_device() == tg.device("meta")
    finally:
        tg.set_default_device("cpu")
    assert not tg.ones(1).is_meta


def test_data_is_refused_and_writes_are_checked_but_skipped():
    x = tg.empty(3, 4, device="meta")
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor; no data!"):
        x.tolist()
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        tg.zeros(3, 4).copy_(x)
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        x.to("cpu")
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
        x.numpy()
    with pytest.raises(RuntimeError, match="Tensor.item\\(\\) cannot be called on meta tensors"):
        x.sum().item()
    nn.init.normal_(x)  # no data to draw into: the tensor stays as it was
    version = x._version
    assert x.add_(1) is x and x.is_meta and x._version == version + 1
    leaf = tg.empty(2, device="meta", requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        leaf.add_(1)


def test_a_meta_copy_of_a_model_runs_with_real_parameters_as_in_the_ensembling_tutorial():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    base = copy.deepcopy(model).to("meta")
    assert all(p.is_meta for p in base.parameters()) and base[0].weight.shape == (3, 2)
    assert all(p.is_meta for p in copy.deepcopy(base).parameters())
    assert not any(p.is_meta for p in model.parameters())
    params = {name: p.detach() for name, p in model.named_parameters()}
    x = tg.ones(4, 2)
    np.testing.assert_array_equal(functional_call(base, params, (x,)).numpy(),
                                  model(x).detach().numpy())


def test_to_empty_and_assign_give_a_meta_model_real_tensors():
    with tg.device("meta"):
        model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    source = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    model.load_state_dict(source.state_dict(), assign=True)
    assert not any(t.is_meta for t in (*model.parameters(), *model.buffers()))
    np.testing.assert_array_equal(model[0].weight.detach().numpy(),
                                  source[0].weight.detach().numpy())
    with tg.device("meta"):
        empty = nn.Linear(2, 3)
    assert empty.to_empty(device="cpu") is empty
    assert not empty.weight.is_meta and empty.weight.shape == (3, 2)
    lazy = nn.LazyLinear(3, device="meta")
    lazy(tg.ones(2, 4, device="meta"))
    assert lazy.weight.is_meta and lazy.weight.shape == (3, 4)


def test_a_compiled_function_runs_meta_arguments_eagerly():
    double_sum = tg.compile(lambda x: (x * 2).sum())
    assert double_sum(tg.ones(2)).item() == 4.0  # compiled for CPU tensors
    result = double_sum(tg.empty(2, device="meta"))
    assert result.is_meta and result.shape == ()
    assert double_sum(tg.ones(2)).item() == 4.0
