"""nn.init: PyTorch's gains and fan rules, checked by the statistics of what they draw."""
import copy
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.nn import init


@pytest.mark.parametrize("nonlinearity, param", [("linear", None), ("sigmoid", None),
                                                 ("tanh", None), ("relu", None),
                                                 ("leaky_relu", None), ("leaky_relu", 0.2),
                                                 ("selu", None), ("conv2d", None)])
def test_calculate_gain_equals_pytorchs(nonlinearity, param):
    torch = pytest.importorskip("torch")
    assert init.calculate_gain(nonlinearity, param) == pytest.approx(
        torch.nn.init.calculate_gain(nonlinearity, param))


def _drawn(fill, shape=(200, 300)):
    tapegrad.manual_seed(0)
    tensor = tapegrad.empty(*shape)
    assert fill(tensor) is tensor
    return tensor.numpy()


def test_uniform_normal_and_constants():
    values = _drawn(lambda t: init.uniform_(t, -2.0, 3.0))
    assert values.min() >= -2 and values.max() <= 3 and values.mean() == pytest.approx(0.5, abs=0.02)
    values = _drawn(lambda t: init.normal_(t, 1.0, 0.5))
    assert values.mean() == pytest.approx(1.0, abs=0.01) and values.std() == pytest.approx(0.5, rel=0.01)
    assert (_drawn(lambda t: init.constant_(t, 0.25)) == 0.25).all()
    assert (_drawn(init.ones_) == 1).all() and (_drawn(init.zeros_) == 0).all()


def test_xavier_scales_with_fan_in_plus_fan_out():
    bound = math.sqrt(6 / (300 + 200)) * 2.0
    values = _drawn(lambda t: init.xavier_uniform_(t, gain=2.0))
    assert np.abs(values).max() <= bound and values.std() == pytest.approx(bound / math.sqrt(3),
                                                                           rel=0.02)
    values = _drawn(init.xavier_normal_)
    assert values.std() == pytest.approx(math.sqrt(2 / 500), rel=0.02)


def test_kaiming_uses_fan_and_gain():
    values = _drawn(lambda t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"))
    assert values.std() == pytest.approx(math.sqrt(2) / math.sqrt(200), rel=0.02)
    values = _drawn(lambda t: init.kaiming_uniform_(t, a=math.sqrt(5)), shape=(64, 16, 3, 3))
    assert np.abs(values).max() <= 1 / math.sqrt(16 * 9)  # fan_in counts the receptive field
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        init.kaiming_uniform_(tapegrad.empty(5))
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(tapegrad.empty(0, 3))


def test_initialising_a_parameter_is_not_recorded():
    layer = nn.Linear(3, 3)
    init.xavier_uniform_(layer.weight)
    assert layer.weight.is_leaf and layer.weight.grad_fn is None and layer.weight.requires_grad


def test_deep_copied_model_has_its_own_parameters():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    clone = copy.deepcopy(model)
    assert isinstance(clone[0].weight, nn.Parameter) and clone[0].weight.requires_grad
    init.zeros_(clone[0].weight)
    assert model[0].weight.detach().numpy().any()
