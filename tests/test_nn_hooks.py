"""Module hooks against PyTorch's: forward pre-hooks, forward hooks, full backward hooks and
backward pre-hooks, their calling conventions, what their return values replace, and handles."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn

X = np.array([[1.0, -1.0, 0.5], [0.25, 2.0, -0.75]])


def _model(library):
    """Linear-ReLU-Linear with deterministic weights, in tapegrad or PyTorch."""
    model = library.nn.Sequential(library.nn.Linear(3, 4), library.nn.ReLU(),
                                  library.nn.Linear(4, 2)).double()
    with library.no_grad():
        for i, p in enumerate(model.parameters()):
            values = np.sin(np.arange(p.numel()) * 1.3 + i).reshape(tuple(p.shape))
            p.copy_(library.tensor(values))
    return model


def _both():
    torch = pytest.importorskip("torch")
    return (tapegrad, _model(tapegrad)), (torch, _model(torch))


def _numpy(value):
    return None if value is None else value.detach().numpy()


def _assert_same(ours, theirs):
    assert type(ours) is type(theirs) or len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if a is None or b is None:
            assert a is None and b is None
        else:
            np.testing.assert_allclose(_numpy(a), _numpy(b), rtol=1e-12)


def test_forward_hooks_see_and_replace_inputs_and_outputs():
    results = []
    for library, model in _both():
        seen = []
        model[1].register_forward_hook(lambda m, args, out: seen.append((args[0], out)))
        model[0].register_forward_pre_hook(lambda m, args: args[0] * 2)  # one value: wrapped
        model[2].register_forward_hook(lambda m, args, out: out + 1)
        out = model(library.tensor(X))
        results.append((seen[0][0], seen[0][1], out))
    _assert_same(*results)


def test_hooks_with_kwargs_prepend_and_removal():
    for library, model in _both():
        calls = []
        layer = model[0]
        first = layer.register_forward_hook(lambda m, a, out: calls.append("first"))
        layer.register_forward_hook(lambda m, a, out: calls.append("prepended"), prepend=True)
        layer.register_forward_pre_hook(lambda m, args, kwargs: calls.append(sorted(kwargs)),
                                        with_kwargs=True)
        layer.register_forward_hook(lambda m, a, kw, out: calls.append(("kw", type(kw))),
                                    with_kwargs=True)
        layer(library.tensor(X))
        assert calls == [[], "prepended", "first", ("kw", dict)]
        first.remove()
        first.remove()  # a second remove does nothing, as in PyTorch
        calls.clear()
        layer(library.tensor(X))
        assert calls == [[], "prepended", ("kw", dict)]
        assert type(first).__name__ == "RemovableHandle"


def test_handle_as_context_manager_removes_the_hook():
    layer = nn.Linear(3, 2)
    calls = []
    with layer.register_forward_hook(lambda *a: calls.append(1)):
        layer(tapegrad.ones(3))
    layer(tapegrad.ones(3))
    assert calls == [1]


def test_always_call_hook_runs_when_forward_raises():
    layer = nn.Linear(3, 2)
    calls = []
    layer.register_forward_hook(lambda m, a, out: calls.append(out), always_call=True)
    with pytest.raises(RuntimeError):
        layer(tapegrad.ones(4))
    assert calls == [None]


def test_full_backward_hook_gets_pytorchs_gradients():
    results = []
    for library, model in _both():
        seen = {}
        for i in (0, 2):
            model[i].register_full_backward_hook(
                lambda m, gin, gout, i=i: seen.update({i: (gin, gout)}))
        x = library.tensor(X, requires_grad=True)
        (model(x) ** 2).sum().backward()
        results.append((seen, x.grad))
    (ours, our_grad), (theirs, their_grad) = results
    for i in (0, 2):
        _assert_same(ours[i][0], theirs[i][0])
        _assert_same(ours[i][1], theirs[i][1])
    np.testing.assert_allclose(our_grad.numpy(), their_grad.numpy(), rtol=1e-12)


def test_backward_hooks_replace_gradients_as_pytorchs():
    results = []
    for library, model in _both():
        model[2].register_full_backward_pre_hook(lambda m, gout: (gout[0] * 3,))
        model[1].register_full_backward_hook(lambda m, gin, gout: (gin[0].clamp(min=0),))
        x = library.tensor(X, requires_grad=True)
        out = model(x)
        out.sum().backward()
        results.append([x.grad, *[p.grad for p in model.parameters()]])
    _assert_same(*results)


@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
def test_backward_hook_without_input_gradient_gets_none():
    results = []
    for library, model in _both():
        seen = []
        model[0].register_full_backward_hook(lambda m, gin, gout: seen.append((gin, gout)))
        model(library.tensor(X)).sum().backward()
        results.append(seen)
    (ours,), (theirs,) = results
    assert ours[0] == (None,) and theirs[0] == (None,)
    _assert_same(ours[1], theirs[1])


def test_backward_hook_records_pytorchs_identity_node():
    torch = pytest.importorskip("torch")
    ours, theirs = nn.Linear(3, 2), torch.nn.Linear(3, 2)
    for layer in (ours, theirs):
        layer.register_full_backward_hook(lambda *a: None)
    out = ours(tapegrad.ones(2, 3, requires_grad=True))
    their_out = theirs(torch.ones(2, 3, requires_grad=True))
    assert out.grad_fn.name() == their_out.grad_fn.name() == "BackwardHookFunctionBackward"
