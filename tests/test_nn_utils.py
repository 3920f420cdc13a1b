"""nn.utils.clip_grad_norm_ and clip_grad_value_ against PyTorch and against their definitions."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn

RNG = np.random.default_rng(0)
GRADS = [RNG.standard_normal((3, 4)) * 3, RNG.standard_normal(5)]


def _params(library, grads=GRADS):
    params = []
    for g in grads:
        p = library.nn.Parameter(library.zeros(*g.shape))
        p.grad = library.tensor(g.astype(np.float32))
        params.append(p)
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), 3])
@pytest.mark.parametrize("max_norm", [0.5, 1000.0])
def test_clip_grad_norm_equals_pytorchs(norm_type, max_norm):
    torch = pytest.importorskip("torch")
    ours, theirs = _params(tapegrad), _params(torch)
    total = nn.utils.clip_grad_norm_(ours, max_norm, norm_type)
    t_total = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type)
    assert total.item() == pytest.approx(t_total.item(), rel=1e-6)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-6)


def test_clipped_norm_is_max_norm():
    params = _params(tapegrad)
    before = np.sqrt(sum((g ** 2).sum() for g in GRADS))
    total = nn.utils.clip_grad_norm_(params, 1.0)
    after = np.sqrt(sum((p.grad.numpy().astype(float) ** 2).sum() for p in params))
    assert total.item() == pytest.approx(before, rel=1e-6)
    assert after == pytest.approx(1.0, rel=1e-5)


def test_clip_grad_value_and_nonfinite_errors():
    params = _params(tapegrad)
    nn.utils.clip_grad_value_(params, 0.5)
    assert all(np.abs(p.grad.numpy()).max() <= 0.5 for p in params)
    np.testing.assert_allclose(params[1].grad.numpy(), np.clip(GRADS[1], -0.5, 0.5), rtol=1e-6)
    broken = _params(tapegrad, [np.array([np.inf, 1.0])])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients"):
        nn.utils.clip_grad_norm_(broken, 1.0, error_if_nonfinite=True)
    assert nn.utils.clip_grad_norm_([nn.Parameter(tapegrad.ones(1))], 1.0).item() == 0.0


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
def test_pad_sequence_matches_torch_with_gradients(batch_first, padding_side):
    torch = pytest.importorskip("torch")
    lengths = [3, 1, 2]
    results = []
    for library in (tapegrad, torch):
        sequences = [library.tensor(np.arange(n * 2.0).reshape(n, 2) + n, requires_grad=True)
                     for n in lengths]
        padded = library.nn.utils.rnn.pad_sequence(sequences, batch_first=batch_first,
                                                   padding_value=-1.0, padding_side=padding_side)
        (padded * library.arange(padded.numel(), dtype=library.float32).reshape(
            padded.shape)).sum().backward()
        results.append([padded.detach().numpy(), padded.grad_fn.name()] +
                       [s.grad.numpy() for s in sequences])
    for ours, theirs in zip(*results):
        if isinstance(ours, str):
            assert ours == theirs
        else:
            np.testing.assert_array_equal(ours, theirs)


def test_pad_sequence_refuses_nothing_to_pad():
    with pytest.raises(RuntimeError, match="received an empty list of sequences"):
        nn.utils.rnn.pad_sequence([])

