"""Double backward of activations, losses and pooling: under ``create_graph`` a first derivative
is recorded as PyTorch's ``XxxBackwardBackward0`` node and stays connected to the input, also
where the op is piecewise linear and its second derivative is zero (WGAN-GP gradient penalties,
PINN residuals, Hessians). Checked against PyTorch (values, node names, second derivatives) and
with gradcheck / gradgradcheck in float64.
"""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from tapegrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
torch_F = torch.nn.functional

_KINKS = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 6.0, 0.7, -0.7])


def _values(*shape, seed=0):
    """Values in [-4, 4) at least 0.05 away from every kink the functions below have (finite
    differences across a kink are meaningless)."""
    values = np.random.default_rng(seed).uniform(-4, 4, shape)
    near = np.abs(values[..., None] - _KINKS).min(-1) < 0.05
    return np.where(near, values + 0.1, values)


# id, function of (F, x, *others), shapes of x and the others, node of the first derivative
CASES = [
    ("leaky_relu", lambda F, x: F.leaky_relu(x, 0.1), [(3, 4)], "LeakyReluBackwardBackward0"),
    ("leaky_relu_inplace", lambda F, x: F.leaky_relu(x * 2, 0.1, inplace=True), [(3, 4)],
     "MulBackward0"),
    ("elu", lambda F, x: F.elu(x, 0.7), [(3, 4)], "EluBackwardBackward0"),
    ("elu_inplace", lambda F, x: F.elu(x * 2, 0.7, inplace=True), [(3, 4)], "MulBackward0"),
    ("selu", lambda F, x: F.selu(x), [(3, 4)], "EluBackwardBackward0"),
    ("celu", lambda F, x: F.celu(x, 0.5), [(3, 4)], "EluBackwardBackward0"),
    ("celu_inplace", lambda F, x: F.celu(x * 2, 0.5, inplace=True), [(3, 4)], "MulBackward0"),
    ("softplus", lambda F, x: F.softplus(x, beta=2.0, threshold=6.0), [(3, 4)],
     "SoftplusBackwardBackward0"),
    ("silu", lambda F, x: F.silu(x), [(3, 4)], "MulBackward0"),
    ("hardtanh", lambda F, x: F.hardtanh(x, -0.5, 1.0), [(3, 4)], "HardtanhBackwardBackward0"),
    ("relu6", lambda F, x: F.relu6(x), [(3, 4)], "HardtanhBackwardBackward0"),
    ("logsigmoid", lambda F, x: F.logsigmoid(x), [(3, 4)], "LogSigmoidBackwardBackward0"),
    ("hardswish", lambda F, x: F.hardswish(x), [(3, 4)], "HardswishBackwardBackward0"),
    ("threshold", lambda F, x: F.threshold(x, 0.5, -2.0), [(3, 4)],
     "ThresholdBackwardBackward0"),
    ("softshrink", lambda F, x: F.softshrink(x, 0.7), [(3, 4)], "SoftshrinkBackwardBackward0"),
    ("hardshrink", lambda F, x: F.hardshrink(x, 0.7), [(3, 4)], "HardshrinkBackwardBackward0"),
    ("rrelu_eval", lambda F, x: F.rrelu(x, training=False), [(3, 4)],
     "RreluWithNoiseBackwardBackward0"),
    ("prelu", lambda F, x, w: F.prelu(x, w), [(2, 3, 4), (3,)], "PreluKernelBackwardBackward0"),
    ("prelu_one_slope", lambda F, x, w: F.prelu(x, w), [(3, 4), (1,)],
     "PreluKernelBackwardBackward0"),
    ("mse_loss", lambda F, x, y: F.mse_loss(x, y), [(3, 4), (3, 4)], "MseLossBackwardBackward0"),
    ("mse_loss_none", lambda F, x, y: F.mse_loss(x, y, reduction="none"), [(3, 4), (3, 4)],
     "MseLossBackwardBackward0"),
    ("huber_loss", lambda F, x, y: F.huber_loss(x, y, delta=1.5), [(3, 4), (3, 4)],
     "HuberLossBackwardBackward0"),
    ("smooth_l1_loss", lambda F, x, y: F.smooth_l1_loss(x, y, reduction="sum", beta=2.0),
     [(3, 4), (3, 4)], "SmoothL1LossBackwardBackward0"),
    ("bce_with_logits", lambda F, x, y: F.binary_cross_entropy_with_logits(x, y.sigmoid()),
     [(3, 4), (3, 4)], "DivBackward1"),
    ("max_pool2d", lambda F, x: F.max_pool2d(x, 2, 1, 1), [(1, 2, 3, 4)],
     "MaxPool2DWithIndicesBackwardBackward0"),
    ("max_pool3d", lambda F, x: F.max_pool3d(x, 2), [(1, 1, 2, 2, 4)],
     "MaxPool3DWithIndicesBackwardBackward0"),
    ("adaptive_avg_pool2d", lambda F, x: F.adaptive_avg_pool2d(x, (2, 3)), [(1, 2, 3, 5)],
     "AdaptiveAvgPool2DBackwardBackward0"),
    ("adaptive_max_pool2d", lambda F, x: F.adaptive_max_pool2d(x, (2, 3)), [(1, 2, 3, 5)],
     "AdaptiveMaxPool2DBackwardBackward0"),
]


def _inputs(library, shapes, dtype):
    return [library.tensor(_values(*shape, seed=i), dtype=dtype, requires_grad=True)
            for i, shape in enumerate(shapes)]


def _first_and_second(library, F, fn, shapes):
    """The first derivatives (create_graph) and the second derivatives of a weighted sum of
    them, for every input; the output weighted too, so nothing cancels by symmetry."""
    inputs = _inputs(library, shapes, library.float64)
    out = fn(F, *inputs)
    weights = library.tensor(np.linspace(0.5, 1.5, out.numel()).reshape(out.shape))
    firsts = library.autograd.grad((out * weights).sum(), inputs, create_graph=True)
    penalty = sum(((g * library.tensor(np.linspace(-1, 2, g.numel()).reshape(g.shape))) ** 2)
                  .sum() for g in firsts)
    seconds = library.autograd.grad(penalty, inputs, allow_unused=True,
                                    materialize_grads=True)
    return firsts, seconds


@pytest.mark.parametrize("id, fn, shapes, node", CASES, ids=[c[0] for c in CASES])
def test_matches_pytorch(id, fn, shapes, node):
    firsts, seconds = _first_and_second(tapegrad, TF, fn, shapes)
    want_firsts, want_seconds = _first_and_second(torch, torch_F, fn, shapes)
    assert firsts[0].requires_grad
    assert firsts[0].grad_fn.name() == want_firsts[0].grad_fn.name() == node
    for got, want in zip((*firsts, *seconds), (*want_firsts, *want_seconds)):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("id, fn, shapes, node", CASES, ids=[c[0] for c in CASES])
def test_gradcheck_and_gradgradcheck(id, fn, shapes, node):
    inputs = _inputs(tapegrad, shapes, tapegrad.float64)
    assert gradcheck(lambda *xs: fn(TF, *xs), inputs)
    assert gradgradcheck(lambda *xs: fn(TF, *xs), inputs)


def test_hardsigmoid_has_no_second_derivative():
    """PyTorch has no derivative for hardsigmoid_backward: a NotImplemented node that refuses."""
    x = tapegrad.tensor(_values(5), requires_grad=True)
    (g,) = tapegrad.autograd.grad(TF.hardsigmoid(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward is not"):
        tapegrad.autograd.grad(g.sum(), x)


def test_gradient_penalty_reaches_the_first_layer_bias():
    """WGAN-GP: the critic's input gradient through a LeakyReLU depends on the weights only, yet
    the penalty's backward reaches every parameter, the bias with a zero gradient."""
    def run(library):
        library.manual_seed(0)
        lin1 = library.nn.Linear(3, 4).double()
        lin2 = library.nn.Linear(4, 1).double()
        with library.no_grad():
            for p, value in zip([*lin1.parameters(), *lin2.parameters()],
                                [_values(4, 3), _values(4, seed=1), _values(1, 4, seed=2),
                                 _values(1, seed=3)]):
                p.copy_(library.tensor(value))
        x = library.tensor(_values(5, 3, seed=4), requires_grad=True)
        critic = lin2(library.nn.LeakyReLU(0.2)(lin1(x)))
        (g,) = library.autograd.grad(critic.sum(), x, create_graph=True)
        ((g.norm(2, dim=1) - 1) ** 2).mean().backward()
        return lin1.bias.grad, lin1.weight.grad
    (bias, weight), (want_bias, want_weight) = run(tapegrad), run(torch)
    np.testing.assert_array_equal(bias.numpy(), want_bias.numpy())
    np.testing.assert_allclose(weight.numpy(), want_weight.numpy(), rtol=1e-12)


def test_hessian_and_jacobian_of_piecewise_linear():
    x = tapegrad.tensor(_values(4))
    hessian = tapegrad.autograd.functional.hessian(
        lambda v: TF.leaky_relu(v, 0.1).sum(), x, strict=True)
    assert hessian.shape == (4, 4) and not hessian.any()
    jacobian = tapegrad.autograd.functional.jacobian(
        lambda v: TF.leaky_relu(v, 0.1), x, create_graph=True)
    want = torch.autograd.functional.jacobian(
        lambda v: torch_F.leaky_relu(v, 0.1), torch.tensor(_values(4)), create_graph=True)
    assert jacobian.grad_fn.name() == want.grad_fn.name()
    np.testing.assert_array_equal(jacobian.detach().numpy(), want.detach().numpy())
