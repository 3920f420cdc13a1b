"""``torch.compile(model)`` as training scripts use it: the ``OptimizedModule`` wrapper mirrors
the model's train/eval mode and length, and runs the model's hooks (what compiles is the
module's call, not only its ``forward``)."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn

from same_as_torch import assert_same


def _linear(lib, n_in=3, n_out=2):
    layer = lib.nn.Linear(n_in, n_out)
    with lib.no_grad():
        layer.weight.copy_(lib.linspace(-1, 1, n_in * n_out).view(n_out, n_in))
        layer.bias.fill_(0.25)
    return layer


def test_training_flag_mirrors_the_model():
    model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    compiled = tapegrad.compile(model)
    model.eval()
    assert compiled.training is False and model[1].training is False
    compiled.train()
    assert compiled.training is True and model.training is True
    compiled.training = False  # a plain assignment lands on the model too
    assert model.training is False
    assert "training" not in vars(compiled)


def test_len_is_the_models_and_an_unsized_model_says_so():
    assert len(tapegrad.compile(nn.Sequential(nn.Linear(2, 2), nn.ReLU()))) == 2
    with pytest.raises(TypeError, match="Linear does not support len()"):
        len(tapegrad.compile(nn.Linear(2, 2)))


def test_hooks_on_the_model_run_through_the_compiled_call():
    model = _linear(tapegrad)
    shapes, before = [], []
    model.register_forward_pre_hook(lambda m, args: before.append(args[0].shape[0]))
    model.register_forward_hook(lambda m, args, out: shapes.append(tuple(out.shape)))
    compiled = tapegrad.compile(model)
    x = tapegrad.linspace(-1, 1, 6).view(2, 3)
    out = compiled(x)
    assert before == [2] and shapes == [(2, 2)]
    assert tapegrad.allclose(out, x @ model.weight.T + model.bias)


def test_a_hook_that_changes_the_output_changes_the_compiled_output():
    model = _linear(tapegrad)
    model.register_forward_hook(lambda m, args, out: out * 2)
    x = tapegrad.ones(4, 3)
    assert tapegrad.allclose(tapegrad.compile(model)(x), 2 * (x @ model.weight.T + model.bias))


def test_recompile_messages_still_name_forward_and_its_arguments(caplog):
    model = _linear(tapegrad)
    compiled = tapegrad.compile(model)
    compiled(tapegrad.ones(2, 3))
    tapegrad.compile.set_logs(recompiles=True)
    try:
        with caplog.at_level("INFO"):
            compiled(tapegrad.ones(5, 3))
    finally:
        tapegrad.compile.set_logs(recompiles=False)
    assert "recompiling Linear.forward(): input.shape[0] changed 2 → 5" in caplog.text


def test_same_as_torch():
    torch = pytest.importorskip("torch")

    def eval_mode_and_hook(lib):
        model = _linear(lib)
        model.register_forward_hook(lambda m, args, out: out + 1)
        compiled = lib.compile(model)
        model.eval()
        x = lib.linspace(-1, 1, 6).view(2, 3)
        return compiled(x), lib.tensor(float(compiled.training)), lib.tensor(float(len(
            lib.compile(lib.nn.Sequential(model, lib.nn.ReLU())))))
    assert_same(eval_mode_and_hook, torch)


def test_a_kernel_mixing_a_lowered_loss_and_a_numpy_fallback_runs():
    """Cross-entropy (lowered) beside mse_loss (numpy in objmode), both returned detached: a
    kernel of this shape once crashed; it must give eager mode's values."""
    F = tapegrad.nn.functional

    def losses(logits, labels, boxes, targets):
        cls, reg = F.cross_entropy(logits, labels), F.mse_loss(boxes, targets)
        return cls + reg, cls.detach(), reg.detach()
    args = (tapegrad.sin(tapegrad.arange(12.0)).view(4, 3).requires_grad_(),
            tapegrad.tensor([0, 2, 1, 2]),
            tapegrad.linspace(0, 1, 16).view(4, 4).requires_grad_(), tapegrad.full((4, 4), 0.5))
    expected = [t.item() for t in losses(*args)]
    compiled = tapegrad.compile(losses)
    compiled(*args)  # traced (eagerly) and compiled
    found = [t.item() for t in compiled(*args)]  # the kernel
    assert found == pytest.approx(expected, rel=1e-6)


def test_a_function_storing_into_a_dict_it_was_given_runs_once_per_call():
    """The first call runs traced (eagerly); a function whose only effect is to store into a
    container it was given must not then run compiled as well, doing the work twice."""
    @tapegrad.compile
    def running_mean(state, x, momentum=0.1):
        state["mean"] = (1 - momentum) * state["mean"] + momentum * x.mean(0)
        state["count"] += 1
        return state

    x = tapegrad.arange(10.0).view(2, 5)
    state = {"mean": tapegrad.zeros(5), "count": 0}
    for i in range(3):
        state = running_mean(state, x * (i + 1))
    expected = 0.561 * np.arange(10.0).reshape(2, 5).mean(0)  # 0.1, then 0.9 m + 0.2, + 0.3
    np.testing.assert_allclose(state["mean"].numpy(), expected, rtol=1e-6)
    assert state["count"] == 3


def test_hooks_of_a_compiled_module_run_on_every_call_and_their_removal_recompiles():
    """The model's own hooks run in Python around its compiled forward (a hook that records
    runs each call, as PyTorch replays it); a submodule's hook is traced with the forward, and
    adding or removing one is a change its guards see."""
    model = tapegrad.nn.Sequential(tapegrad.nn.Linear(2, 2))
    with tapegrad.no_grad():
        model[0].weight.copy_(tapegrad.eye(2))
        model[0].bias.zero_()
    seen = []
    recorder = model.register_forward_hook(lambda m, args, out: seen.append(tuple(out.shape)))
    doubler = model[0].register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    compiled, x = tapegrad.compile(model), tapegrad.tensor([[1.0, 2.0]])
    for _ in range(3):
        out = compiled(x)
        assert out.tolist() == [[2.0, 4.0]] and out.grad_fn.name() == "CompiledFunctionBackward"
    assert seen == [(1, 2)] * 3
    recorder.remove()
    doubler.remove()
    assert compiled(x).tolist() == [[1.0, 2.0]]
    assert seen == [(1, 2)] * 3
    assert len(compiled.forward._entries) == 2
