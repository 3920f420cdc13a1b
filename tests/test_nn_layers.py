"""Every layer against PyTorch's on the same parameters, and its gradients against finite differences.

Each case builds the tapegrad layer and PyTorch's twin, copies tapegrad's (randomly initialised)
parameters into PyTorch's, and compares outputs, input gradients, parameter gradients, the
recorded ``grad_fn`` and the repr. ``gradcheck`` in float64 checks the same layers without PyTorch.
"""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck


def _float_input(shape, rng):
    return rng.standard_normal(shape)


def _index_input(high):
    return lambda shape, rng: rng.integers(0, high, shape)


# name: (constructor arguments, input shape, input maker, PyTorch's grad_fn of the output or None)
LAYERS = {
    "Linear": (lambda m: m.Linear(5, 3), (4, 5), _float_input, "AddmmBackward0"),
    "Linear-nobias": (lambda m: m.Linear(5, 3, bias=False), (4, 5), _float_input, "MmBackward0"),
    "Linear-3d": (lambda m: m.Linear(5, 3), (2, 4, 5), _float_input, "ViewBackward0"),
    "Linear-1d": (lambda m: m.Linear(5, 3), (5,), _float_input, "ViewBackward0"),
    "Linear-1d-nobias": (lambda m: m.Linear(5, 3, bias=False), (5,), _float_input,
                         "SqueezeBackward4"),
    "Identity": (lambda m: m.Identity(7, foo=1), (2, 3), _float_input, None),
    "ReLU": (lambda m: m.ReLU(), (3, 4), _float_input, "ReluBackward0"),
    "GELU": (lambda m: m.GELU(), (3, 4), _float_input, "GeluBackward0"),
    "GELU-tanh": (lambda m: m.GELU(approximate="tanh"), (3, 4), _float_input, "GeluBackward0"),
    "Tanh": (lambda m: m.Tanh(), (3, 4), _float_input, "TanhBackward0"),
    "Sigmoid": (lambda m: m.Sigmoid(), (3, 4), _float_input, "SigmoidBackward0"),
    "Softmax": (lambda m: m.Softmax(dim=1), (3, 4), _float_input, "SoftmaxBackward0"),
    "LogSoftmax": (lambda m: m.LogSoftmax(dim=-1), (3, 4), _float_input, "LogSoftmaxBackward0"),
    "Dropout-eval": (lambda m: m.Dropout(0.3).eval(), (3, 4), _float_input, None),
    "LeakyReLU": (lambda m: m.LeakyReLU(0.2), (3, 4), _float_input, "LeakyReluBackward0"),
    "ELU": (lambda m: m.ELU(0.5), (3, 4), _float_input, "EluBackward0"),
    "SELU": (lambda m: m.SELU(), (3, 4), _float_input, "EluBackward0"),
    "SiLU": (lambda m: m.SiLU(), (3, 4), _float_input, "SiluBackward0"),
    "Softplus": (lambda m: m.Softplus(beta=2, threshold=1), (3, 4), _float_input,
                 "SoftplusBackward0"),
    "Mish": (lambda m: m.Mish(), (3, 4), _float_input, "MishBackward0"),
    "Hardtanh": (lambda m: m.Hardtanh(-0.5, 0.75), (3, 4), _float_input, "HardtanhBackward0"),
    "ReLU6": (lambda m: m.ReLU6(), (3, 4), lambda shape, rng: 4 * rng.standard_normal(shape),
              "HardtanhBackward0"),
    "LogSigmoid": (lambda m: m.LogSigmoid(), (3, 4), _float_input, "LogSigmoidBackward0"),
    "Softsign": (lambda m: m.Softsign(), (3, 4), _float_input, "DivBackward0"),
    "Hardswish": (lambda m: m.Hardswish(), (3, 4),
                  lambda shape, rng: 3 * rng.standard_normal(shape), "HardswishBackward0"),
    "Hardsigmoid": (lambda m: m.Hardsigmoid(), (3, 4),
                    lambda shape, rng: 3 * rng.standard_normal(shape), "HardsigmoidBackward0"),
    "BatchNorm1d": (lambda m: m.BatchNorm1d(4), (5, 4), _float_input, "NativeBatchNormBackward0"),
    "BatchNorm1d-3d": (lambda m: m.BatchNorm1d(3, affine=False), (4, 3, 2), _float_input,
                       "NativeBatchNormBackward0"),
    "BatchNorm2d": (lambda m: m.BatchNorm2d(3, momentum=0.3), (2, 3, 2, 3), _float_input,
                    "NativeBatchNormBackward0"),
    "BatchNorm2d-eval": (lambda m: _trained_eval_batch_norm(m), (2, 3, 2, 3), _float_input,
                         "NativeBatchNormBackward0"),
    "BatchNorm2d-untracked": (lambda m: m.BatchNorm2d(3, track_running_stats=False).eval(),
                              (2, 3, 2, 2), _float_input, "NativeBatchNormBackward0"),
    "AvgPool2d": (lambda m: m.AvgPool2d(2), (2, 3, 4, 6), _float_input, None),
    "AvgPool2d-padded": (lambda m: m.AvgPool2d(3, stride=2, padding=1), (1, 2, 5, 6),
                         _float_input, None),
    "AvgPool2d-ceil": (lambda m: m.AvgPool2d(3, stride=2, padding=1, ceil_mode=True),
                       (1, 2, 6, 5), _float_input, None),
    "AvgPool2d-ceil-uncounted-pad": (lambda m: m.AvgPool2d((2, 3), stride=2, padding=1,
                                                           ceil_mode=True,
                                                           count_include_pad=False),
                                     (2, 2, 5, 6), _float_input, None),
    "AvgPool2d-divisor": (lambda m: m.AvgPool2d(2, padding=1, ceil_mode=True,
                                                divisor_override=3), (1, 1, 5, 5), _float_input,
                          None),
    "AvgPool2d-unbatched": (lambda m: m.AvgPool2d(2, stride=1, padding=1,
                                                  count_include_pad=False), (2, 4, 3),
                            _float_input, None),
    "AdaptiveAvgPool2d-1": (lambda m: m.AdaptiveAvgPool2d(1), (2, 3, 4, 5), _float_input,
                            "MeanBackward1"),
    "AdaptiveAvgPool2d-uneven": (lambda m: m.AdaptiveAvgPool2d((2, 3)), (1, 2, 5, 7),
                                 _float_input, None),
    "LayerNorm": (lambda m: m.LayerNorm(4), (3, 4), _float_input, "NativeLayerNormBackward0"),
    "LayerNorm-2d": (lambda m: m.LayerNorm([3, 4], eps=1e-3), (2, 3, 4), _float_input,
                     "NativeLayerNormBackward0"),
    "LayerNorm-noaffine": (lambda m: m.LayerNorm(4, elementwise_affine=False), (3, 4),
                           _float_input, None),
    "GroupNorm": (lambda m: m.GroupNorm(2, 4), (3, 4, 5), _float_input,
                  "NativeGroupNormBackward0"),
    "GroupNorm-4d-nobias": (lambda m: m.GroupNorm(3, 6, eps=1e-3, bias=False), (2, 6, 2, 3),
                            _float_input, "NativeGroupNormBackward0"),
    "GroupNorm-noaffine": (lambda m: m.GroupNorm(1, 3, affine=False), (4, 3), _float_input,
                           "NativeGroupNormBackward0"),
    "Embedding": (lambda m: m.Embedding(6, 3), (2, 5), _index_input(6), "EmbeddingBackward0"),
    "Embedding-padding": (lambda m: m.Embedding(6, 3, padding_idx=2), (2, 5), _index_input(6),
                          None),
    "Flatten": (lambda m: m.Flatten(), (2, 3, 2, 2), _float_input, "ViewBackward0"),
    "Conv2d": (lambda m: m.Conv2d(2, 3, 3), (2, 2, 6, 5), _float_input,
               "ConvolutionBackward0"),
    "Conv2d-strided": (lambda m: m.Conv2d(2, 4, (3, 2), stride=2, padding=1, dilation=(1, 2)),
                       (2, 2, 7, 8), _float_input, "ConvolutionBackward0"),
    "Conv2d-groups": (lambda m: m.Conv2d(4, 6, 3, groups=2, bias=False), (1, 4, 5, 5),
                      _float_input, "ConvolutionBackward0"),
    "Conv2d-same": (lambda m: m.Conv2d(2, 2, 4, padding="same"), (1, 2, 5, 6), _float_input,
                    "ConvolutionBackward0"),
    "Conv2d-unbatched": (lambda m: m.Conv2d(2, 3, 2), (2, 4, 4), _float_input,
                         "SqueezeBackward1"),
    "Conv1d": (lambda m: m.Conv1d(2, 3, 3), (2, 2, 7), _float_input, "ConvolutionBackward0"),
    "Conv1d-strided-groups": (lambda m: m.Conv1d(4, 6, 3, stride=2, padding=1, dilation=2,
                                                 groups=2, bias=False), (2, 4, 9), _float_input,
                              "ConvolutionBackward0"),
    "Conv1d-same-unbatched": (lambda m: m.Conv1d(2, 2, 4, padding="same"), (2, 6), _float_input,
                              "SqueezeBackward1"),
    "MaxPool2d": (lambda m: m.MaxPool2d(2), (2, 3, 6, 6), _float_input,
                  "MaxPool2DWithIndicesBackward0"),
    "MaxPool2d-padded": (lambda m: m.MaxPool2d(3, stride=2, padding=1), (1, 2, 7, 6),
                         _float_input, "MaxPool2DWithIndicesBackward0"),
    "MaxPool2d-ceil": (lambda m: m.MaxPool2d(2, ceil_mode=True, dilation=1), (1, 2, 5, 7),
                       _float_input, "MaxPool2DWithIndicesBackward0"),
    "MaxPool2d-dilated": (lambda m: m.MaxPool2d((2, 3), stride=(1, 2), dilation=2),
                          (1, 1, 7, 9), _float_input, "MaxPool2DWithIndicesBackward0"),
    "MaxPool1d": (lambda m: m.MaxPool1d(3, stride=2, padding=1, ceil_mode=True), (2, 3, 8),
                  _float_input, "SqueezeBackward1"),
    "MaxPool1d-unbatched": (lambda m: m.MaxPool1d((2,), dilation=2), (3, 7), _float_input,
                            "SqueezeBackward1"),
    "AvgPool1d": (lambda m: m.AvgPool1d(3, stride=2, padding=1, ceil_mode=True,
                                        count_include_pad=False), (2, 3, 8), _float_input,
                  "SqueezeBackward1"),
    "AvgPool1d-unbatched": (lambda m: m.AvgPool1d(2), (3, 7), _float_input, "SqueezeBackward1"),
    "Unflatten": (lambda m: m.Unflatten(1, (2, 3)), (4, 6, 2), _float_input, "ViewBackward0"),
    "Unflatten-list": (lambda m: m.Unflatten(-1, [3, -1]), (2, 6), _float_input,
                       "ViewBackward0"),
    "Sequential": (lambda m: m.Sequential(m.Linear(4, 8), m.ReLU(), m.Linear(8, 2)), (3, 4),
                   _float_input, "AddmmBackward0"),
    "CNN": (lambda m: m.Sequential(m.Conv2d(1, 2, 3, padding=1), m.ReLU(), m.MaxPool2d(2),
                                   m.Flatten(), m.Linear(8, 3)), (2, 1, 4, 4), _float_input,
            "AddmmBackward0"),
}


def _trained_eval_batch_norm(m):
    """A BatchNorm2d in eval mode whose running statistics are not the initial ones."""
    layer = m.BatchNorm2d(3)
    layer.running_mean.fill_(0.5)
    layer.running_var.fill_(2.0)
    return layer.eval()


def _pair(name, torch, dtype=np.float32):
    """The tapegrad layer, PyTorch's twin with the same parameters, and one input for both."""
    make, shape, make_input, _ = LAYERS[name]
    ours = make(nn)
    theirs = make(torch.nn)
    theirs.train(ours.training)
    if dtype == np.float64:
        ours.double()
        theirs.double()
    own_state = ours.state_dict()
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in own_state.items()})
    data = make_input(shape, np.random.default_rng(0))
    if data.dtype.kind == "f":
        data = data.astype(dtype)
    return ours, theirs, data


@pytest.mark.filterwarnings("ignore:Using padding='same'")  # PyTorch's note about its own copy
@pytest.mark.parametrize("name", LAYERS)
def test_forward_and_gradients_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    ours, theirs, data = _pair(name, torch)
    floating = data.dtype.kind == "f"
    x = tapegrad.tensor(data, requires_grad=floating)
    tx = torch.tensor(data, requires_grad=floating)
    out, tout = ours(x), theirs(tx)
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-5, atol=1e-6)
    expected_node = LAYERS[name][3]
    if expected_node is not None:
        assert out.grad_fn.name() == type(tout.grad_fn).__name__ == expected_node
    seed = np.random.default_rng(1).standard_normal(tuple(out.shape)).astype(np.float32)
    out.backward(tapegrad.tensor(seed))
    tout.backward(torch.tensor(seed))
    if floating:
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    theirs_params = dict(theirs.named_parameters())
    for pname, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), theirs_params[pname].grad.numpy(), rtol=1e-4,
                                   atol=1e-5, err_msg=pname)


@pytest.mark.parametrize("name", LAYERS)
def test_repr_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    make = LAYERS[name][0]
    assert repr(make(nn)) == repr(make(torch.nn))


def _as_function_of_weights(layer):
    """``run(x, *weights)`` calls ``layer`` with ``weights`` in place of its parameters, so that
    gradcheck can perturb and differentiate them; and a copy of the current weights."""
    slots = [(module, name) for module in layer.modules()
             for name, param in module._parameters.items() if param is not None]

    def run(x, *weights):
        for (module, name), weight in zip(slots, weights):
            module._parameters[name] = weight
        return layer(x)

    weights = [module._parameters[name].detach().clone().requires_grad_()
               for module, name in slots]
    return run, weights


# The padding row's gradient is zero by design, not by calculus: finite differences disagree.
@pytest.mark.parametrize("name", [n for n in LAYERS if n not in ("Identity", "Embedding-padding")])
def test_gradients_match_finite_differences(name):
    make, shape, make_input, _ = LAYERS[name]
    tapegrad.manual_seed(0)
    layer = make(nn).double()
    data = make_input(shape, np.random.default_rng(2))
    if data.dtype.kind == "f":
        x = tapegrad.tensor(data, dtype=tapegrad.float64, requires_grad=True)
    else:
        x = tapegrad.tensor(data)
    run, weights = _as_function_of_weights(layer)
    assert gradcheck(run, (x, *weights))


@pytest.mark.parametrize("name", ["GELU", "GELU-tanh", "Conv2d-strided", "Conv2d-groups",
                                  "MaxPool2d-padded", "LayerNorm"])
def test_second_derivatives_match_finite_differences(name):
    make, shape, make_input, _ = LAYERS[name]
    tapegrad.manual_seed(0)
    layer = make(nn).double()
    x = tapegrad.tensor(make_input(shape, np.random.default_rng(3)), dtype=tapegrad.float64,
                        requires_grad=True)
    run, weights = _as_function_of_weights(layer)
    assert gradgradcheck(run, (x, *weights))


# ---------------------------------------------------------------------------- behaviour

def test_default_initialisation_has_pytorchs_bounds_and_spread():
    tapegrad.manual_seed(0)
    layer = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w, b = layer.weight.detach().numpy(), layer.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert w.std() == pytest.approx(bound / math.sqrt(3), rel=0.02)  # std of U(-a, a)
    conv = nn.Conv2d(16, 32, 3)
    conv_bound = 1 / math.sqrt(16 * 9)
    assert np.abs(conv.weight.detach().numpy()).max() <= conv_bound
    assert conv.weight.detach().numpy().std() == pytest.approx(conv_bound / math.sqrt(3), rel=0.03)


def test_parameters_are_leaves_that_require_grad():
    layer = nn.Linear(3, 2)
    assert isinstance(layer.weight, nn.Parameter)
    assert layer.weight.is_leaf and layer.weight.requires_grad
    assert repr(layer.bias).startswith("Parameter containing:\ntensor([")
    assert str(nn.Parameter(tapegrad.tensor([1., 2.]))) == (
        "Parameter containing:\ntensor([1., 2.], requires_grad=True)")
    assert type(layer.weight * 2) is tapegrad.Tensor


def test_dropout_zeroes_and_rescales_in_training_only():
    tapegrad.manual_seed(0)
    drop = nn.Dropout(0.25)
    x = tapegrad.ones(200, 100, requires_grad=True)
    y = drop(x)
    values = np.unique(y.detach().numpy())
    np.testing.assert_allclose(values, [0.0, 1 / 0.75], rtol=1e-6)
    assert (y.detach().numpy() == 0).mean() == pytest.approx(0.25, abs=0.01)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())  # gradient uses the mask
    assert drop.eval()(x) is x


def test_embedding_padding_row_gets_no_gradient_and_starts_at_zero():
    emb = nn.Embedding(5, 3, padding_idx=1)
    np.testing.assert_array_equal(emb.weight.detach().numpy()[1], 0)
    emb(tapegrad.tensor([[1, 2, 1], [0, 1, 4]])).sum().backward()
    grad = emb.weight.grad.numpy()
    np.testing.assert_array_equal(grad[1], 0)
    np.testing.assert_array_equal(grad[:, 0], [1, 0, 1, 0, 1])


def test_max_pool_returns_pytorchs_indices():
    torch = pytest.importorskip("torch")
    data = np.random.default_rng(4).standard_normal((2, 3, 7, 7)).astype(np.float32)
    values, indices = nn.functional.max_pool2d(tapegrad.tensor(data), 3, 2, 1,
                                               return_indices=True)
    t_values, t_indices = torch.nn.functional.max_pool2d(torch.tensor(data), 3, 2, 1,
                                                         return_indices=True)
    np.testing.assert_array_equal(values.numpy(), t_values.numpy())
    np.testing.assert_array_equal(indices.numpy(), t_indices.numpy())


@pytest.mark.parametrize("call, message", [
    (lambda: nn.Conv2d(3, 4, 3)(tapegrad.zeros(1, 2, 5, 5)), "to have 3 channels, but got 2"),
    (lambda: nn.Conv2d(1, 1, 5)(tapegrad.zeros(1, 1, 3, 3)), "Kernel size can't be greater"),
    (lambda: nn.MaxPool2d(2, padding=2)(tapegrad.zeros(1, 1, 4, 4)), "pad should be at most half"),
    (lambda: nn.Linear(3, 2)(tapegrad.zeros(4, 5)), "mat1 and mat2 shapes cannot be multiplied"),
    (lambda: nn.LayerNorm(3)(tapegrad.zeros(2, 4)), "Given normalized_shape=[3]"),
    (lambda: nn.GELU("cubic")(tapegrad.zeros(2)), "approximate argument must be either"),
    (lambda: nn.Conv2d(4, 6, 3, groups=4), "out_channels must be divisible by groups"),
])
def test_bad_input_gives_pytorchs_error(call, message):
    with pytest.raises((RuntimeError, ValueError)) as info:
        call()
    assert message in str(info.value)


@pytest.mark.parametrize("momentum", [0.1, None])
def test_batch_norm_running_statistics_follow_pytorchs(momentum):
    torch = pytest.importorskip("torch")
    ours, theirs = nn.BatchNorm2d(3, momentum=momentum), torch.nn.BatchNorm2d(3, momentum=momentum)
    rng = np.random.default_rng(5)
    for _ in range(3):
        data = rng.standard_normal((4, 3, 2, 2)).astype(np.float32) * 2 + 1
        ours(tapegrad.tensor(data))
        theirs(torch.tensor(data))
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(getattr(ours, name).numpy(), getattr(theirs, name).numpy(),
                                   rtol=1e-5, err_msg=name)
    data = rng.standard_normal((4, 3, 2, 2)).astype(np.float32)
    np.testing.assert_allclose(ours.eval()(tapegrad.tensor(data)).detach().numpy(),
                               theirs.eval()(torch.tensor(data)).detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    assert ours.num_batches_tracked.item() == 3


@pytest.mark.parametrize("name", ["leaky_relu", "elu", "selu", "silu", "mish", "hardtanh",
                                  "relu6", "hardswish", "hardsigmoid"])
def test_inplace_activations_write_into_their_input(name):
    torch = pytest.importorskip("torch")
    data = np.linspace(-4, 4, 9)
    results = []
    for library in (tapegrad, torch):
        x = library.tensor(data, requires_grad=True)
        y = x * 1
        out = getattr(library.nn.functional, name)(y, inplace=True)
        assert out is y
        out.sum().backward()
        results.append((out.detach().numpy(), x.grad.numpy(), out.grad_fn.name()))
    (ours, our_grad, our_node), (theirs, their_grad, their_node) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-7)  # PyTorch's 1/6 is float32
    assert our_node == their_node


def test_parameter_containers_register_and_print_as_pytorchs():
    torch = pytest.importorskip("torch")
    built = []
    for library in (tapegrad, torch):
        module = library.nn.Module()
        module.plist = library.nn.ParameterList([library.nn.Parameter(library.ones(2)),
                                                 library.zeros(2, 3)])
        module.plist.append(library.nn.Parameter(library.ones(1)))
        module.pdict = library.nn.ParameterDict({"a": library.nn.Parameter(library.ones(2))})
        module.pdict["b"] = library.zeros(3)
        built.append(module)
    ours, theirs = built
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs)
    assert isinstance(ours.plist[1], nn.Parameter) and isinstance(ours.pdict["b"], nn.Parameter)
    assert len(ours.plist) == 3 and list(ours.pdict) == ["a", "b"] and "b" in ours.pdict
    assert ours.pdict.pop("a").shape == (2,) and list(ours.pdict.keys()) == ["b"]
    assert [n for n, _ in ours.named_parameters()] == ["plist.0", "plist.1", "plist.2", "pdict.b"]


def test_parameters_to_vector_and_back():
    layer = nn.Linear(3, 2)
    vector = nn.utils.parameters_to_vector(layer.parameters())
    assert vector.shape == (8,) and vector.grad_fn.name() == "CatBackward0"
    np.testing.assert_array_equal(vector.detach().numpy()[:6],
                                  layer.weight.detach().numpy().ravel())
    nn.utils.vector_to_parameters(tapegrad.arange(8.0), layer.parameters())
    np.testing.assert_array_equal(layer.bias.detach().numpy(), [6.0, 7.0])
    assert layer.weight.is_leaf and layer.weight.requires_grad


@pytest.mark.parametrize("name", ["leaky_relu", "elu", "selu"])
def test_inplace_activations_gradients_match_finite_differences(name):
    function = getattr(nn.functional, name)
    x = tapegrad.tensor(np.linspace(-2, 2, 7) + 0.05, requires_grad=True)
    assert gradcheck(lambda x: function(x * 1, inplace=True), (x,))
    assert gradgradcheck(lambda x: function(x * 1, inplace=True), (x,))


def test_layer_norm_shape_error_is_pytorchs_whole_message():
    with pytest.raises(RuntimeError) as info:
        nn.LayerNorm(5)(tapegrad.ones(2, 3, 4))
    assert str(info.value) == ("Given normalized_shape=[5], expected input with shape [*, 5], "
                               "but got input of size[2, 3, 4]")


@pytest.mark.parametrize("options", [{"padding": 1, "count_include_pad": False},
                                     {"ceil_mode": True}])
def test_avg_pool_of_ones_is_ones_whatever_the_window_overlap(options):
    out = nn.functional.avg_pool2d(tapegrad.ones(1, 1, 3, 3), 2, **options)
    np.testing.assert_array_equal(out.numpy(), np.ones((1, 1, 2, 2)))


@pytest.mark.parametrize("call, message", [
    (lambda: nn.AvgPool2d(2, padding=2)(tapegrad.ones(1, 1, 5, 5)),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
     "dilation=1"),
    (lambda: nn.AvgPool2d(3)(tapegrad.ones(1, 1, 1, 1)),
     "Given input size: (1x1x1). Calculated output size: (1x0x0). Output size is too small"),
    (lambda: nn.AvgPool2d(2, divisor_override=0)(tapegrad.ones(1, 1, 2, 2)),
     "divisor must be not zero"),
])
def test_bad_avg_pool_gives_pytorchs_error(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


def test_one_dimensional_max_pool_returns_pytorchs_indices():
    torch = pytest.importorskip("torch")
    data = np.random.default_rng(6).standard_normal((2, 3, 9)).astype(np.float32)
    values, indices = nn.functional.max_pool1d(tapegrad.tensor(data), 3, 2, 1, ceil_mode=True,
                                               return_indices=True)
    t_values, t_indices = torch.nn.functional.max_pool1d(torch.tensor(data), 3, 2, 1,
                                                         ceil_mode=True, return_indices=True)
    np.testing.assert_array_equal(values.numpy(), t_values.numpy())
    np.testing.assert_array_equal(indices.numpy(), t_indices.numpy())


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.Unflatten(1, 5), TypeError,
     "unflattened_size must be a tuple of ints, but found type int"),
    (lambda m: m.Unflatten(1, (2.0, 5)), TypeError,
     "unflattened_size must be tuple of ints, but found element of type float at pos 0"),
    (lambda m: m.MaxPool1d(3)(tapegrad.ones(7)), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
     "input, but got:[7]"),
    (lambda m: m.functional.conv1d(tapegrad.ones(1, 2, 5), tapegrad.ones(3, 2, 2, 2)),
     RuntimeError, "Expected 4-dimensional input for 4-dimensional weight [3, 2, 2, 2], but got "
     "3-dimensional input of size [1, 2, 5] instead"),
    (lambda m: m.functional.conv1d(tapegrad.ones(1, 2, 1), tapegrad.ones(3, 2, 2)), RuntimeError,
     "Calculated padded input size per channel: (1). Kernel size: (2). Kernel size can't be "
     "greater than actual input size"),
    (lambda m: m.Conv1d(1, 2, 3)(tapegrad.ones(5)), RuntimeError,
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [5]"),
    (lambda m: m.GroupNorm(3, 4), ValueError,
     "num_channels (4) must be divisible by num_groups (3)"),
    (lambda m: m.GroupNorm(2, 4)(tapegrad.ones(2, 3, 3)), RuntimeError,
     "Expected number of channels in input to be divisible by num_groups, but got input of shape "
     "[2, 3, 3] and num_groups=2"),
    (lambda m: m.GroupNorm(2, 4)(tapegrad.ones(4)), RuntimeError,
     "Expected at least 2 dimensions for input tensor but received 1"),
    (lambda m: m.AvgPool1d(3)(tapegrad.ones(7)), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while "
     "checking arguments for avg_pool1d)"),
])
def test_bad_one_dimensional_layer_gives_pytorchs_error(call, error, message):
    with pytest.raises(error) as info:
        call(nn)
    assert str(info.value) == message
