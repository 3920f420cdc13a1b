"""Lazy modules and uninitialized parameters, against PyTorch: reprs before and after the first
forward, the shapes inferred from it, the class each becomes, an optimizer built before it,
state dicts and loading into a lazy module, and the errors.

Rows are written against a module ``T``: ``tapegrad`` or PyTorch itself, so one table serves both.
"""
import numpy as np
import pytest

import tapegrad

torch = pytest.importorskip("torch")


def _lifecycle(T, make, input_shape):
    """What a lazy module shows before and after its first forward (values aside)."""
    T.manual_seed(0)
    module = make(T)
    before = (repr(module), [repr(p) for p in module.parameters()],
              [type(b).__name__ for b in module.buffers()])
    output = module(T.ones(input_shape))
    after = (repr(module), type(module).__name__, tuple(output.shape),
             [(name, tuple(p.shape), type(p).__name__) for name, p in module.named_parameters()],
             [(name, tuple(b.shape), type(b).__name__) for name, b in module.named_buffers()],
             list(module.state_dict()), len(module._forward_pre_hooks))
    return before, after


LAYERS = {
    "linear": (lambda T: T.nn.LazyLinear(8), (2, 4)),
    "linear no bias": (lambda T: T.nn.LazyLinear(3, bias=False), (2, 5, 4)),
    "conv1d": (lambda T: T.nn.LazyConv1d(4, 3, padding=1), (2, 3, 7)),
    "conv1d unbatched": (lambda T: T.nn.LazyConv1d(4, 3), (3, 7)),
    "conv2d": (lambda T: T.nn.LazyConv2d(6, 3, stride=2, groups=2, bias=False), (1, 4, 9, 9)),
    "conv_transpose1d": (lambda T: T.nn.LazyConvTranspose1d(2, 3, stride=2), (1, 3, 5)),
    "conv_transpose2d": (lambda T: T.nn.LazyConvTranspose2d(4, 2, groups=2), (1, 2, 3, 3)),
    "batch_norm1d": (lambda T: T.nn.LazyBatchNorm1d(), (4, 3)),
    "batch_norm2d": (lambda T: T.nn.LazyBatchNorm2d(momentum=0.5, affine=False), (2, 3, 2, 2)),
    "batch_norm untracked": (lambda T: T.nn.LazyBatchNorm1d(track_running_stats=False), (4, 3)),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_lazy_layers_infer_their_shapes_and_become_the_eager_layer_as_torch(name):
    make, shape = LAYERS[name]
    assert _lifecycle(tapegrad, make, shape) == _lifecycle(torch, make, shape)


def test_uninitialized_parameter_refuses_its_shape_as_torch():
    outcomes = []
    for T in (tapegrad, torch):
        weight = T.nn.LazyLinear(8).weight
        with pytest.raises(RuntimeError) as error:
            weight.shape
        outcomes.append((repr(weight), str(weight), type(weight).__name__, str(error.value),
                         weight.requires_grad, repr(T.nn.parameter.UninitializedBuffer())))
    assert outcomes[0] == outcomes[1]


def test_an_optimizer_built_before_the_first_forward_updates_the_materialized_parameters():
    results = []
    for T in (tapegrad, torch):
        T.manual_seed(0)
        model = T.nn.Sequential(T.nn.LazyLinear(3), T.nn.ReLU(), T.nn.LazyLinear(1))
        optimizer = T.optim.SGD(model.parameters(), lr=0.1)
        x = T.linspace(-1, 1, 8).reshape(2, 4)
        model(x)
        with T.no_grad():
            for i, p in enumerate(model.parameters()):
                p.copy_(T.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
        model(x).pow(2).sum().backward()
        optimizer.step()
        results.append([p.detach().numpy().copy() for p in optimizer.param_groups[0]["params"]])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_loading_a_state_dict_materializes_a_lazy_module():
    outcomes = []
    for T in (tapegrad, torch):
        module = T.nn.LazyLinear(2)
        module.load_state_dict({"weight": T.ones(2, 3), "bias": T.zeros(2)})
        outcomes.append((type(module).__name__, type(module.weight).__name__,
                         tuple(module.weight.shape), module(T.ones(1, 3)).tolist(),
                         type(module).__name__))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name, fn", [
    ("conv rank", lambda T: T.nn.LazyConv2d(4, 3)(T.ones(3, 3))),
    ("conv groups", lambda T: T.nn.LazyConv1d(4, 3, groups=2)(T.ones(1, 3, 5))),
])
def test_lazy_layer_errors_match_torch(name, fn):
    messages = []
    for T in (tapegrad, torch):
        with pytest.raises(Exception) as error:
            fn(T)
        messages.append((type(error.value).__name__, str(error.value)))
    assert messages[0] == messages[1]


def test_uninitialized_parameters_refuse_other_devices():
    for make in (lambda: tapegrad.nn.parameter.UninitializedParameter(device="cuda"),
                 lambda: tapegrad.nn.parameter.UninitializedBuffer(device="cuda"),
                 lambda: tapegrad.nn.LazyLinear(3, device="cuda")):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            make()
    assert tapegrad.nn.LazyLinear(3, device="cpu").weight.device.type == "cpu"
