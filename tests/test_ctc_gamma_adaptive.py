"""CTC loss, the regularized incomplete gamma functions and the adaptive softmax: against
independent truths (brute-force alignment sums, closed forms, finite differences in float64) and,
where PyTorch is installed, against PyTorch (values, gradients, node names, error messages)."""
import itertools
import math

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

from same_as_torch import assert_same

F = tapegrad.nn.functional


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


# -- incomplete gamma: independent truths ---------------------------------------------------------

def test_igamma_closed_forms():
    x = tapegrad.tensor([1e-3, 0.3, 1.0, 2.5, 7.0, 30.0], dtype=tapegrad.float64)
    xs = x.numpy()
    np.testing.assert_allclose(tapegrad.igamma(tapegrad.ones_like(x), x).numpy(),
                               -np.expm1(-xs), rtol=1e-13)
    half = tapegrad.full_like(x, 0.5)
    np.testing.assert_allclose(tapegrad.special.gammainc(half, x).numpy(),
                               [math.erf(math.sqrt(v)) for v in xs], rtol=1e-13)
    np.testing.assert_allclose(tapegrad.special.gammaincc(tapegrad.full_like(x, 3.0), x).numpy(),
                               np.exp(-xs) * (1 + xs + xs ** 2 / 2), rtol=1e-12)


def test_igamma_and_igammac_are_complements_across_both_expansions():
    a = tapegrad.tensor([[0.01], [0.7], [5.0], [80.0], [2000.0]], dtype=tapegrad.float64)
    x = tapegrad.tensor([0.05, 0.9, 6.0, 79.0, 95.0, 2100.0], dtype=tapegrad.float64)
    total = tapegrad.igamma(a, x) + tapegrad.igammac(a, x)
    np.testing.assert_allclose(total.numpy(), 1.0, rtol=1e-12)
    # the median of Gamma(a) is close to a - 1/3 for large a
    np.testing.assert_allclose(tapegrad.igamma(a[3:], a[3:] - 1 / 3).numpy(), 0.5, atol=1e-3)


def test_igamma_edge_values():
    inf, nan = math.inf, math.nan
    a = tapegrad.tensor([0.0, 0.0, 1.0, 2.0, -1.0, inf, 1.0, nan, 1.0, 3.0, inf, 0.0])
    x = tapegrad.tensor([0.0, 1.0, 0.0, inf, 1.0, 1.0, inf, 1.0, nan, -1.0, inf, inf])
    lower = [nan, 1, 0, 1, nan, 0, 1, nan, nan, nan, nan, 1]
    np.testing.assert_array_equal(tapegrad.igamma(a, x).numpy(), np.float32(lower))
    np.testing.assert_array_equal(tapegrad.igammac(a, x).numpy(), np.float32(1) - lower)


def test_igamma_is_differentiable_in_x_only():
    a = tapegrad.tensor([[0.6], [2.0], [7.5]], dtype=tapegrad.float64)
    x = tapegrad.tensor([0.4, 3.0, 9.0], dtype=tapegrad.float64, requires_grad=True)
    for function in (tapegrad.igamma, tapegrad.igammac):
        assert gradcheck(lambda x: function(a, x), (x,))
        assert gradgradcheck(lambda x: function(a, x), (x,))
    a.requires_grad_()
    with pytest.raises(NotImplementedError, match="the derivative for 'igammac: input' is not"):
        tapegrad.igammac(a, x).sum().backward()


def test_gamma_cdf_is_the_regularized_incomplete_gamma():
    value = tapegrad.tensor([0.5, 2.0, 6.0], dtype=tapegrad.float64)
    chi2 = tapegrad.distributions.Chi2(tapegrad.tensor(2.0, dtype=tapegrad.float64))
    np.testing.assert_allclose(chi2.cdf(value).numpy(), -np.expm1(-value.numpy() / 2), rtol=1e-13)
    gamma = tapegrad.distributions.Gamma(tapegrad.tensor(1.0), tapegrad.tensor(3.0))
    np.testing.assert_allclose(gamma.cdf(value.float()).numpy(), -np.expm1(-3 * value.numpy()),
                               rtol=1e-6)


# -- incomplete gamma: PyTorch ---------------------------------------------------------------------

IGAMMA_CASES = {
    "values": lambda lib: (lib.igamma(lib.tensor([[0.3], [2.0], [40.0]]),
                                      lib.tensor([0.1, 1.9, 45.0, 300.0])),
                           lib.special.gammaincc(lib.tensor([0.3, 2.0], dtype=lib.float64),
                                                 lib.tensor(1.5, dtype=lib.float64))),
    "method": lambda lib: lib.tensor([1.5, 2.5]).igammac(lib.tensor([1.0, 4.0])),
    "in-place": lambda lib: lib.tensor([1.5, 2.5]).igamma_(lib.tensor([1.0, 4.0])),
    "mixed dtypes": lambda lib: lib.igamma(lib.tensor([1, 2]), lib.tensor([2.0])),
    "integers": lambda lib: lib.igamma(lib.tensor([1, 2]), lib.tensor([2])),
    "a number": lambda lib: lib.igamma(lib.tensor([1.0, 2.0]), 2.0),
    "shapes": lambda lib: lib.igammac(lib.ones(2), lib.ones(3)),
    "gamma cdf": lambda lib: lib.distributions.Gamma(lib.tensor([2.0, 3.0]),
                                                     lib.tensor([1.0, 0.5])).cdf(
        lib.tensor([1.5, 4.0])),
    "chi2 cdf": lambda lib: lib.distributions.Chi2(lib.tensor(3.0)).cdf(
        lib.tensor([0.5, 7.8147])),
}


@pytest.mark.parametrize("name", IGAMMA_CASES)
def test_igamma_as_torch(name, torch):
    assert_same(IGAMMA_CASES[name], torch)


@pytest.mark.parametrize("function", ["igamma", "igammac"])
@pytest.mark.parametrize("a_requires_grad", [False, True])
def test_igamma_gradient_and_node_as_torch(function, a_requires_grad, torch):
    def run(lib):
        a = lib.tensor([[1.5], [0.3]], requires_grad=a_requires_grad)
        x = lib.tensor([0.7, 3.0], requires_grad=True)
        y = getattr(lib, function)(a, x)
        y.sum().backward()  # a's gradient: not implemented
        return y, x.grad, type(y.grad_fn).__name__
    assert_same(run, torch)


# -- CTC: independent truths -----------------------------------------------------------------------

def _collapse(path, blank):
    merged = [k for k, _ in itertools.groupby(path)]
    return tuple(k for k in merged if k != blank)


def _brute_force_nll(log_probs, target, frames, blank):
    """-log of the summed probability of every path over ``frames`` frames that collapses to
    ``target``."""
    classes = log_probs.shape[1]
    total = sum(math.exp(sum(log_probs[t, k] for t, k in enumerate(path)))
                for path in itertools.product(range(classes), repeat=frames)
                if _collapse(path, blank) == tuple(target))
    return -math.log(total) if total else math.inf


def _log_probs(frames, batch, classes, dtype=tapegrad.float64):
    logits = tapegrad.linspace(-2, 2, frames * batch * classes, dtype=dtype)
    return (logits.reshape(frames, batch, classes) * 1.7).sin().log_softmax(2)


@pytest.mark.parametrize("blank, targets", [
    (0, [[1, 1], [2, 1, 3], [], [3], [2, 2, 2]]), (2, [[1, 1], [3, 1, 0], [], [3], [0, 0, 0]])])
def test_ctc_loss_sums_every_alignment(blank, targets):
    lengths = [5, 5, 4, 3, 5]
    log_probs = _log_probs(5, len(targets), 4)
    flat = [label for row in targets for label in row]
    losses = F.ctc_loss(log_probs, tapegrad.tensor(flat), lengths, [len(t) for t in targets],
                        blank=blank, reduction="none")
    expected = [_brute_force_nll(log_probs.numpy()[:, b], target, lengths[b], blank)
                for b, target in enumerate(targets)]
    np.testing.assert_allclose(losses.numpy(), expected, rtol=1e-12)


def test_ctc_gradient_through_log_softmax_is_the_true_gradient():
    logits = tapegrad.linspace(-1, 1, 6 * 2 * 4, dtype=tapegrad.float64).reshape(6, 2, 4).cos()
    logits.requires_grad_()
    targets = tapegrad.tensor([[1, 2, 2], [3, 1, 0]])
    for reduction in ("none", "mean", "sum"):
        assert gradcheck(lambda z: F.ctc_loss(z.log_softmax(2), targets, (6, 4), (3, 2),
                                              reduction=reduction), (logits,))


def test_ctc_zero_infinity_zeroes_impossible_losses_and_their_gradients():
    log_probs = _log_probs(3, 2, 3).requires_grad_()
    losses = F.ctc_loss(log_probs, tapegrad.tensor([[1, 1], [2, 1]]), (2, 3), (2, 2),
                        reduction="none", zero_infinity=True)
    assert losses[0].item() == 0.0 and math.isfinite(losses[1].item())
    losses.sum().backward()
    assert not log_probs.grad[:, 0].any() and log_probs.grad[:, 1].abs().sum() > 0


def test_ctc_backward_is_not_differentiable():
    log_probs = _log_probs(4, 1, 3).requires_grad_()
    loss = F.ctc_loss(log_probs, tapegrad.tensor([[1, 2]]), (4,), (2,))
    grad, = tapegrad.autograd.grad(loss, log_probs, create_graph=True)
    assert grad.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::_ctc_loss_backward is not"):
        grad.sum().backward()


def test_compiled_ctc_reads_lengths_as_data():
    """Lengths given as tensors are inputs of the compiled graph, not constants of its trace."""
    def loss(log_probs, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, tapegrad.tensor([[1, 2, 2], [3, 1, 0]]), input_lengths,
                          target_lengths, reduction="none")
    compiled = tapegrad.compile(loss)
    log_probs = _log_probs(6, 2, 4, dtype=tapegrad.float32)
    for lengths in [([6, 5], [3, 2]), ([4, 6], [2, 3])]:
        lengths = [tapegrad.tensor(v) for v in lengths]
        np.testing.assert_allclose(compiled(log_probs, *lengths).numpy(),
                                   loss(log_probs, *lengths).numpy(), rtol=1e-6)


# -- CTC: PyTorch ----------------------------------------------------------------------------------

def _ctc_case(targets, input_lengths, target_lengths, shape=(6, 2, 4), dtype="float32",
              as_tensors=True, **options):
    """A CTC loss and its gradient on deterministic log-probabilities, with ``lib``."""
    def run(lib):
        log_probs = (lib.linspace(-2, 2, math.prod(shape), dtype=getattr(lib, dtype))
                     .reshape(shape).sin().log_softmax(-1).detach().requires_grad_())
        lengths = ((lib.tensor(input_lengths), lib.tensor(target_lengths)) if as_tensors
                   else (input_lengths, target_lengths))
        loss = lib.nn.functional.ctc_loss(log_probs, lib.tensor(targets), *lengths, **options)
        loss.sum().backward()
        return loss, log_probs.grad, type(loss.grad_fn).__name__
    return run


PADDED = [[1, 2, 2], [3, 1, 0]]
CTC_CASES = {
    "mean": _ctc_case(PADDED, [6, 5], [3, 2]),
    "sum": _ctc_case(PADDED, [6, 5], [3, 2], reduction="sum"),
    "none float64": _ctc_case(PADDED, [6, 5], [3, 2], dtype="float64", reduction="none"),
    "concatenated tuples": _ctc_case([1, 2, 2, 3, 1], (6, 5), (3, 2), as_tensors=False),
    "blank 3": _ctc_case([[1, 2, 2], [0, 1, 0]], [6, 4], [3, 2], blank=3, reduction="none"),
    "label equal to blank": _ctc_case([[1, 0, 2], [3, 1, 0]], [6, 5], [3, 2], reduction="none"),
    "empty target": _ctc_case([[1, 2, 2], [3, 1, 0]], [6, 5], [0, 2]),
    "no frames": _ctc_case(PADDED, [0, 5], [0, 2], reduction="none"),
    "impossible": _ctc_case(PADDED, [2, 5], [3, 2], reduction="none"),
    "zero_infinity": _ctc_case(PADDED, [2, 5], [3, 2], zero_infinity=True),
    "unbatched": _ctc_case([1, 2, 2], [6], [3], shape=(6, 4), reduction="none"),
    "unbatched mean": _ctc_case([1, 2, 2], (6,), (3,), shape=(6, 4), as_tensors=False),
    "lengths too long": _ctc_case(PADDED, [7, 5], [3, 2]),
    "negative length": _ctc_case(PADDED, [6, 5], [-1, 2]),
    "target too short": _ctc_case(PADDED, [6, 5], [4, 2]),
    "concatenated too short": _ctc_case([1, 2, 2, 3], [6, 5], [3, 2]),
    "lengths count": _ctc_case(PADDED, [6, 5, 4], [3, 2]),
    "float lengths": _ctc_case(PADDED, [6.0, 5.0], [3, 2]),
    "blank out of range": _ctc_case(PADDED, [6, 5], [3, 2], blank=4),
    "3-d targets": _ctc_case([PADDED], [6, 5], [3, 2]),
    "4-d log_probs": _ctc_case(PADDED, [6, 5], [3, 2], shape=(1, 6, 2, 4)),
    "bad reduction": _ctc_case(PADDED, [6, 5], [3, 2], reduction="avg"),
}


@pytest.mark.parametrize("name", CTC_CASES)
def test_ctc_loss_as_torch(name, torch):
    assert_same(CTC_CASES[name], torch)


def test_ctc_module_and_graph_as_torch(torch):
    def run(lib):
        log_probs = lib.linspace(-2, 2, 48).reshape(6, 2, 4).sin().log_softmax(2)
        log_probs.requires_grad_()
        loss = lib.nn.CTCLoss(blank=0, zero_infinity=True)(
            log_probs, lib.tensor(PADDED), lib.tensor([6, 5]), lib.tensor([3, 2]))
        nodes, node = [], loss.grad_fn
        while node is not None and hasattr(node, "next_functions"):
            nodes.append(type(node).__name__)
            node = next((n for n, _ in node.next_functions if n is not None), None)
        return loss, str(nodes), repr(lib.nn.CTCLoss(reduction="sum"))
    assert_same(run, torch)


# -- adaptive softmax --------------------------------------------------------------------------

def _adaptive(lib, **options):
    model = lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, **options)
    with lib.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(lib.linspace(-1, 1, p.numel()).reshape(p.shape).sin() * (i + 1) * 0.5
                    + 0.05 * i)
    return model


def _inputs(lib):
    return lib.linspace(-2, 2, 40).reshape(5, 8).cos(), lib.tensor([0, 4, 9, 2, 7])


def test_adaptive_softmax_is_a_distribution_over_classes():
    model = _adaptive(tapegrad, head_bias=True)
    x, y = _inputs(tapegrad)
    log_prob = model.log_prob(x)
    np.testing.assert_allclose(log_prob.exp().sum(1).detach().numpy(), 1.0, rtol=1e-6)
    output, loss = model(x, y)
    np.testing.assert_allclose(output.detach().numpy(),
                               log_prob.gather(1, y.unsqueeze(1)).squeeze(1).detach().numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(loss.item(), -output.mean().item(), rtol=1e-6)
    assert model.predict(x).tolist() == log_prob.argmax(1).tolist()
    assert list(model.state_dict()) == ["head.weight", "head.bias", "tail.0.0.weight",
                                        "tail.0.1.weight", "tail.1.0.weight", "tail.1.1.weight"]


ADAPTIVE_CASES = {
    "forward": lambda lib: _forward(lib, *_inputs(lib)),
    "one row": lambda lib: _forward(lib, _inputs(lib)[0][1], _inputs(lib)[1][1]),
    "log_prob and predict": lambda lib: (_adaptive(lib).log_prob(_inputs(lib)[0]),
                                         _adaptive(lib).predict(_inputs(lib)[0] * 3),
                                         _adaptive(lib).predict(-_inputs(lib)[0])),
    "target out of range": lambda lib: _adaptive(lib)(_inputs(lib)[0],
                                                      lib.tensor([0, 4, 10, 2, 7])),
    "batch mismatch": lambda lib: _adaptive(lib)(_inputs(lib)[0], lib.tensor([1, 2])),
    "0-d target": lambda lib: _adaptive(lib)(_inputs(lib)[0], lib.tensor(1)),
    "2-d target": lambda lib: _adaptive(lib)(_inputs(lib)[0], lib.tensor([[1]])),
    "unsorted cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),
    "no cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
    "repr": lambda lib: repr(lib.nn.AdaptiveLogSoftmaxWithLoss(16, 20, (4, 8, 15))),
}


def _forward(lib, x, y):
    model = _adaptive(lib)
    result = model(x, y)
    result.loss.backward()
    return (result.output, result.loss, type(result.output.grad_fn).__name__,
            type(result).__name__, model.head.weight.grad, model.tail[1][0].weight.grad)


@pytest.mark.parametrize("name", ADAPTIVE_CASES)
def test_adaptive_softmax_as_torch(name, torch):
    assert_same(ADAPTIVE_CASES[name], torch)
