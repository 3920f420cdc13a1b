"""PyTorch computes 1/0 = inf, log(0) = -inf and inf - inf = nan silently; numpy warns. With
warnings turned into errors (``pytest -W error``, ``warnings.simplefilter("error")``) a
tapegrad program must still run as the PyTorch one does, forward, backward and in place."""
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F


def _special():
    return tg.tensor([0.0, 1.0, -1.0, float("inf"), float("nan"), 1e30], requires_grad=True)


FUNCTIONS = {
    "log": tg.log, "sqrt": tg.sqrt, "rsqrt": tg.rsqrt, "reciprocal": tg.reciprocal,
    "divide by zero": lambda x: x / 0, "exp overflow": lambda x: tg.exp(x * 100),
    "power": lambda x: x ** -0.5, "tensor power": lambda x: x ** (x - 1),
    "atanh": tg.atanh, "logit": tg.logit, "log_softmax": lambda x: F.log_softmax(x, 0),
    "kl_div": lambda x: F.kl_div(x, x.exp(), reduction="sum"),
    "entropy": lambda x: -(x * x.log()).sum(), "float16 overflow": lambda x: x.half() * 1000,
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_forward_and_backward_ignore_numpy_warnings_turned_into_errors(name):
    with warnings.catch_warnings():
        quiet = FUNCTIONS[name](_special())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loud = FUNCTIONS[name](_special())
        loud.sum().backward()
    np.testing.assert_array_equal(loud.detach().float().numpy(), quiet.detach().float().numpy())


@pytest.mark.parametrize("method", ["log_", "sqrt_", "reciprocal_", "exp_", "atanh_", "rsqrt_"])
def test_in_place_writes_ignore_numpy_warnings_turned_into_errors(method):
    expected = getattr(_special().detach(), method[:-1])()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = _special().detach()
        getattr(x, method)()
    np.testing.assert_array_equal(x.numpy(), expected.numpy())
    assert x._version == 1  # written once


def test_scaled_in_place_add_and_gradient_sums_under_error_filter():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = tg.tensor([1.0, float("inf")], dtype=tg.float64)
        x.add_(tg.tensor([2.0, float("-inf")], dtype=tg.float64), alpha=3)  # numpy's path
        assert x.tolist()[0] == 7.0 and np.isnan(x.tolist()[1])
        w = tg.tensor([3e38, 1.0], requires_grad=True)
        (w * 10 + w * 10).sum().backward()  # two gradients meet at w: summed in place
    assert w.grad.tolist() == [20.0, 20.0]


def test_recorded_warnings_show_none_from_tapegrad_and_the_users_own():
    """A program that records warnings (``simplefilter("always")``, as tests asserting "no
    warnings" do) sees none from tapegrad's arithmetic, and still its own numpy's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = -(_special() * _special().log()).sum()
        loss.backward()
        np.log(np.zeros(1))  # the user's own numpy: warns as numpy always does
    assert [str(w.message) for w in caught] == ["divide by zero encountered in log"]


@pytest.mark.parametrize("reduction", [
    lambda: tg.empty(0, dtype=tg.float16).mean(),
    lambda: tg.empty(0, 3).var(0),
    lambda: tg.empty(0, dtype=tg.complex64).var(),
    lambda: tg.std_mean(tg.empty(0)),
], ids=["float16 mean", "var along an empty dim", "complex var", "std_mean"])
def test_reductions_of_nothing_give_nan_with_pytorchs_warning_only(reduction):
    """numpy warns of a mean or variance of no elements in its own words (whatever its
    errstate); PyTorch gives nan, with only its own degrees-of-freedom warning for var/std."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = reduction()
    values = result if isinstance(result, tuple) else (result,)
    assert all(v.isnan().all() for v in values)
    assert all("degrees of freedom is <= 0" in str(w.message) for w in caught)
