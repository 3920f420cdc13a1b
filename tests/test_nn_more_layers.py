"""More layers, losses, containers, initialisers, optimizer and scheduler behaviour: PReLU, GLU,
CELU, Threshold, the shrinks, RReLU, Bilinear, the ranking / margin / NLL losses, the distance
modules, Sequential arithmetic, dirac_ / sparse_, SGD and LBFGS state, MultiplicativeLR and
CyclicLR — against finite differences (the new primitives, in float64) and against PyTorch
(values, gradients, grad_fn names, reprs, error messages).

Rows are written against a module ``T``: ``tapegrad`` or PyTorch itself, so one table serves both.
"""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(0)


def _data(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape)


def _pair(T, array, requires_grad=False, dtype=None):
    return T.tensor(array, dtype=dtype or T.float64, requires_grad=requires_grad)


# ------------------------------------------------------------------ primitives: finite differences

def _away_from(array, kinks, gap=0.05):
    """``array`` nudged off the points where a piecewise function has no derivative."""
    for kink in kinks:
        near = np.abs(array - kink) < gap
        array = np.where(near, kink + 2 * gap, array)
    return array


GRADCHECKS = {
    "prelu": (lambda F, x, w: F.prelu(x, w), [(3, 4, 2), (4,)]),
    "prelu_shared": (lambda F, x, w: F.prelu(x, w), [(5,), (1,)]),
    "glu": (lambda F, x: F.glu(x, 1), [(3, 4, 2)]),
    "celu": (lambda F, x: F.celu(x, 0.7), [(3, 4)]),
    "threshold": (lambda F, x: F.threshold(x, 0.3, -1.0), [(3, 4)]),
    "softshrink": (lambda F, x: F.softshrink(x, 0.5), [(3, 4)]),
    "hardshrink": (lambda F, x: F.hardshrink(x, 0.5), [(3, 4)]),
    "rrelu_eval": (lambda F, x: F.rrelu(x, 0.1, 0.3), [(3, 4)]),
    "soft_margin": (lambda F, x: F.soft_margin_loss(x, tapegrad.tensor(
        [[1.0, -1.0, 1.0, 1.0], [-1.0, -1.0, 1.0, -1.0], [1.0, 1.0, -1.0, 1.0]],
        dtype=tapegrad.float64)), [(3, 4)]),  # no gradient for the target, as in PyTorch
    "multi_margin_p1": (lambda F, x: F.multi_margin_loss(
        x, tapegrad.tensor([1, 0, 3]), margin=0.7), [(3, 4)]),
    "multi_margin_p2_weighted": (lambda F, x: F.multi_margin_loss(
        x, tapegrad.tensor([1, 0, 3]), p=2, weight=tapegrad.tensor([1.0, 2.0, 0.5, 3.0],
                                                                   dtype=tapegrad.float64),
        reduction="none"), [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRADCHECKS))
def test_primitive_gradients_match_finite_differences(name):
    fn, shapes = GRADCHECKS[name]
    F = tapegrad.nn.functional
    inputs = tuple(tapegrad.tensor(_away_from(_data(*shape), (-0.5, 0.0, 0.3, 0.5)),
                                   requires_grad=True) for shape in shapes)
    assert gradcheck(lambda *xs: fn(F, *xs), inputs)
    # (multi_margin_loss has no second derivative in PyTorch either: its backward refuses one)
    if name not in ("threshold", "hardshrink", "softshrink", "rrelu_eval", "multi_margin_p1",
                    "multi_margin_p2_weighted"):
        assert gradgradcheck(lambda *xs: fn(F, *xs), inputs)


# ------------------------------------------------------------------ functions against PyTorch

torch = None


@pytest.fixture(scope="module")
def T():
    global torch
    torch = pytest.importorskip("torch")
    return torch


CASES = [
    # id, fn(T, F, *tensors), shapes, the grad_fn name both record (None: they differ)
    ("prelu", lambda T, F, x, w: F.prelu(x, w), [(2, 3, 4), (3,)], "PreluKernelBackward0"),
    ("glu", lambda T, F, x: F.glu(x), [(2, 6)], "GluBackward0"),
    ("softmin", lambda T, F, x: F.softmin(x, 1), [(2, 5)], "SoftmaxBackward0"),
    ("celu", lambda T, F, x: F.celu(x, 1.5), [(2, 5)], "CeluBackward0"),
    ("threshold", lambda T, F, x: F.threshold(x, 0.2, 7.0), [(2, 5)], "ThresholdBackward0"),
    ("softshrink", lambda T, F, x: F.softshrink(x, 0.4), [(2, 5)], "SoftshrinkBackward0"),
    ("hardshrink", lambda T, F, x: F.hardshrink(x), [(2, 5)], "HardshrinkBackward0"),
    ("tanhshrink", lambda T, F, x: F.tanhshrink(x), [(2, 5)], "SubBackward0"),
    ("rrelu_eval", lambda T, F, x: F.rrelu(x), [(2, 5)], "RreluWithNoiseBackward0"),
    ("bilinear", lambda T, F, a, b, w, c: F.bilinear(a, b, w, c),
     [(4, 2, 3), (4, 2, 5), (6, 3, 5), (6,)], "AddBackward0"),
    ("margin_ranking", lambda T, F, a, b: F.margin_ranking_loss(
        a, b, T.tensor([1.0, -1.0, 1.0, -1.0], dtype=T.float64), margin=0.3),
     [(4,), (4,)], "MeanBackward0"),
    ("hinge_embedding", lambda T, F, x: F.hinge_embedding_loss(
        x, T.tensor([1.0, -1.0, -1.0, 1.0], dtype=T.float64), margin=1.5, reduction="sum"),
     [(3, 4)], "SumBackward0"),
    ("soft_margin", lambda T, F, x: F.soft_margin_loss(
        x, T.tensor([1.0, -1.0, -1.0, 1.0], dtype=T.float64)), [(3, 4)],
     "SoftMarginLossBackward0"),
    ("multilabel_soft_margin", lambda T, F, x: F.multilabel_soft_margin_loss(
        x, T.tensor([[1.0, 0.0, 1.0, 0.0]] * 3, dtype=T.float64),
        weight=T.tensor([1.0, 2.0, 0.5, 1.0], dtype=T.float64)), [(3, 4)], "MeanBackward0"),
    ("multi_margin", lambda T, F, x: F.multi_margin_loss(x, T.tensor([2, 0, 1]), p=2,
                                                         margin=0.5), [(3, 4)],
     "MultiMarginLossBackward0"),
    ("multi_margin_1d", lambda T, F, x: F.multi_margin_loss(x, T.tensor(1), reduction="none"),
     [(4,)], "MultiMarginLossBackward0"),
    ("triplet", lambda T, F, a, p, n: F.triplet_margin_loss(a, p, n, margin=2.0, p=1.0),
     [(3, 4), (3, 4), (3, 4)], "MeanBackward0"),
    ("triplet_swap", lambda T, F, a, p, n: F.triplet_margin_loss(a, p, n, swap=True,
                                                                 reduction="none"),
     [(3, 4), (3, 4), (3, 4)], "ClampMinBackward0"),
    ("triplet_with_distance", lambda T, F, a, p, n: F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), margin=0.5),
     [(3, 4), (3, 4), (3, 4)], "MeanBackward0"),
    ("gaussian_nll", lambda T, F, x, t, v: F.gaussian_nll_loss(x, t, v.abs(), full=True),
     [(3, 4), (3, 4), (3, 1)], "MeanBackward0"),
    ("poisson_nll", lambda T, F, x, t: F.poisson_nll_loss(x, t.abs() * 2, full=True),
     [(3, 4), (3, 4)], "MeanBackward0"),
    ("poisson_nll_rates", lambda T, F, x, t: F.poisson_nll_loss(
        x.abs(), t.abs(), log_input=False, reduction="sum"), [(3, 4), (3, 4)], "SumBackward0"),
    # PyTorch's ATen calls norm (NormBackward1); tapegrad's norm is linalg.vector_norm's node
    ("pairwise_distance", lambda T, F, a, b: F.pairwise_distance(a, b, p=3.0, keepdim=True),
     [(3, 4), (4,)], None),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_functions_match_pytorch(T, case):
    _, fn, shapes, node = case
    arrays = [_away_from(_data(*shape), (-0.4, 0.0, 0.2, 0.4)) for shape in shapes]
    results = {}
    for lib in (tapegrad, T):
        inputs = [_pair(lib, a, requires_grad=True) for a in arrays]
        out = fn(lib, lib.nn.functional, *inputs)
        out.sum().backward()
        results[lib.__name__] = (out.detach().numpy(), [i.grad.numpy() for i in inputs],
                                 out.grad_fn.name())
    ours, theirs = results["tapegrad"], results["torch"]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10, atol=1e-12)
    for mine, reference in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(mine, reference, rtol=1e-9, atol=1e-12)
    if node is not None:
        assert ours[2] == theirs[2] == node


def test_inplace_activations_record_pytorchs_nodes(T):
    for lib in (tapegrad, T):
        F = lib.nn.functional
        x = lib.tensor([-1.0, 0.5, 2.0], requires_grad=True)
        names = [F.celu(x.clone(), inplace=True).grad_fn.name(),
                 F.threshold(x.clone(), 0.6, 3.0, inplace=True).grad_fn.name(),
                 F.rrelu(x.clone(), inplace=True).grad_fn.name()]
        assert names == ["CeluBackward1", "ThresholdBackward1", "RreluWithNoiseBackward1"]


def test_rrelu_training_draws_slopes_between_the_bounds():
    x = tapegrad.full((1000,), -1.0, requires_grad=True)
    y = tapegrad.nn.functional.rrelu(x, 0.1, 0.3, training=True)
    slopes = -y.detach().numpy()
    assert 0.1 <= slopes.min() and slopes.max() <= 0.3 and slopes.std() > 0.03
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), slopes, rtol=1e-6)


ERRORS = [
    lambda T, F: F.prelu(T.ones(2, 4), T.ones(3)),
    lambda T, F: F.prelu(T.ones(4), T.ones(4)),
    lambda T, F: F.prelu(T.ones(2, 3), T.ones(3, 1)),
    lambda T, F: F.glu(T.ones(3, 3), 1),
    lambda T, F: F.celu(T.ones(3), alpha=0.0),
    lambda T, F: F.softshrink(T.ones(3), -1.0),
    lambda T, F: F.rrelu(T.ones(3), 0.5, 0.1),
    lambda T, F: F.bilinear(T.ones(2, 3), T.ones(3, 4), T.ones(5, 3, 4)),
    lambda T, F: F.bilinear(T.ones(2, 3), T.ones(2, 4), T.ones(5, 3, 3)),
    lambda T, F: F.bilinear(T.ones(2, 3), T.ones(2, 4), T.ones(5, 3, 4), T.ones(4)),
    lambda T, F: F.margin_ranking_loss(T.ones(3), T.ones(3), T.ones(1, 3)),
    lambda T, F: F.triplet_margin_loss(T.ones(2, 3), T.ones(2, 3), T.ones(3)),
    lambda T, F: F.triplet_margin_loss(T.ones(2, 3), T.ones(2, 3), T.ones(2, 3), margin=0.0),
    lambda T, F: F.multi_margin_loss(T.ones(3, 4), T.tensor([1, 5, 0])),
    lambda T, F: F.multi_margin_loss(T.ones(3, 4), T.tensor([1, 2])),
    lambda T, F: F.multi_margin_loss(T.ones(3, 4), T.tensor([1, 2, 0]), weight=T.ones(3)),
    lambda T, F: F.multi_margin_loss(T.ones(3, 4), T.tensor([1, 2, 0]), p=3),
    lambda T, F: F.gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), T.ones(2, 4)),
    lambda T, F: F.gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), -T.ones(3, 4)),
    lambda T, F: F.one_hot(T.tensor([0, 3]), 3),
    lambda T, F: F.one_hot(T.tensor([-1, 2]), 3),
    lambda T, F: F.one_hot(T.tensor([], dtype=T.int64)),
    lambda T, F: F.cross_entropy(T.ones(2, 3), T.ones(2, 3), ignore_index=0),
    lambda T, F: F.cross_entropy(T.ones(2, 3), T.ones(2, 3, dtype=T.int64), ignore_index=0),
    lambda T, F: T.nn.TripletMarginLoss(margin=-1.0),
    lambda T, F: T.nn.MultiMarginLoss(weight=T.ones(2, 2)),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_pytorch(T, index):
    messages = []
    for lib in (tapegrad, T):
        with pytest.raises(Exception) as caught:
            ERRORS[index](lib, lib.nn.functional)
        messages.append((type(caught.value).__name__, str(caught.value)))
    assert messages[0] == messages[1]


# ------------------------------------------------------------------ modules against PyTorch

def _modules(T):
    nn = T.nn
    return [nn.PReLU(), nn.PReLU(3, init=0.1), nn.GLU(), nn.Softmin(dim=1), nn.CELU(2.0, True),
            nn.Threshold(0.1, 20), nn.Threshold(0.1, 20, inplace=True), nn.Softshrink(),
            nn.Hardshrink(0.3), nn.Tanhshrink(), nn.RReLU(), nn.RReLU(0.1, 0.3, inplace=True),
            nn.Bilinear(2, 3, 4), nn.Bilinear(2, 3, 4, bias=False), nn.CosineSimilarity(dim=0),
            nn.PairwiseDistance(p=1.0, keepdim=True), nn.MarginRankingLoss(0.5),
            nn.TripletMarginLoss(swap=True), nn.TripletMarginWithDistanceLoss(),
            nn.HingeEmbeddingLoss(), nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss(),
            nn.MultiMarginLoss(p=2), nn.GaussianNLLLoss(), nn.PoissonNLLLoss()]


def test_module_reprs_and_state_dicts_match_pytorch(T):
    for ours, theirs in zip(_modules(tapegrad), _modules(T)):
        assert repr(ours) == repr(theirs)
        assert {k: tuple(v.shape) for k, v in ours.state_dict().items()} == \
               {k: tuple(v.shape) for k, v in theirs.state_dict().items()}


def test_prelu_and_bilinear_modules_initialise_as_pytorch(T):
    prelu = tapegrad.nn.PReLU(3, init=0.1)
    assert prelu.weight.tolist() == pytest.approx([0.1] * 3)
    bilinear = tapegrad.nn.Bilinear(4, 3, 200)
    bound = 1 / 2
    for p in (bilinear.weight, bilinear.bias):
        assert -bound <= p.min().item() and p.max().item() <= bound
        assert p.max().item() > 0.9 * bound
    x = tapegrad.tensor(_data(2, 3, 4, 4), dtype=tapegrad.float32)
    y = prelu(x)
    y.sum().backward()
    reference = T.nn.PReLU(3, init=0.1)
    expected = reference(T.tensor(x.numpy()))
    expected.sum().backward()
    np.testing.assert_allclose(y.detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(prelu.weight.grad.numpy(), reference.weight.grad.numpy(),
                               rtol=1e-5)


def test_rrelu_module_follows_training_mode():
    module = tapegrad.nn.RReLU(0.1, 0.3).eval()
    assert module(-tapegrad.ones(3)).tolist() == pytest.approx([-0.2] * 3)
    module.train()
    assert len(set(module(-tapegrad.ones(50)).tolist())) > 1


# ------------------------------------------------------------------ containers

def _sequential_story(T):
    nn = T.nn
    lines = []
    a = nn.Sequential(nn.ReLU(), nn.Tanh())
    b = nn.Sequential(nn.Sigmoid())
    lines.append(repr(a + b))
    lines.append(repr(2 * b) + repr(b * 3))
    a += b
    lines.append(repr(a))
    b *= 2
    lines.append(repr(b))
    lines.append(repr(a.pop(1)) + repr(a))
    lines.append(repr(a.insert(-1, nn.GELU())))
    listed = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    lines.append(repr(listed.pop(-2)) + repr(listed))
    for bad in (lambda: a + listed, lambda: a * 0, lambda: a * 1.5, lambda: a.insert(9, nn.ReLU()),
                lambda: a.insert(0, "x"), lambda: listed.extend(3),
                lambda: nn.Module().add_module("a.b", None),
                lambda: nn.Module().add_module("", None),
                lambda: nn.Module().add_module(1, None),
                lambda: nn.Module().register_buffer("a.b", None),
                lambda: nn.Module().register_parameter("a.b", None),
                lambda: nn.Linear(1, 1).add_module("weight", None)):
        try:
            bad()
        except Exception as e:  # noqa: BLE001 — the message is what is compared
            lines.append(f"{type(e).__name__}: {e}".replace("torch.nn", "tapegrad.nn"))
    return lines


def test_sequential_arithmetic_and_messages_match_pytorch(T):
    assert _sequential_story(tapegrad) == _sequential_story(T)


def test_multiplied_sequential_shares_its_modules():
    layer = tapegrad.nn.Linear(2, 2)
    twice = tapegrad.nn.Sequential(layer) * 2
    assert twice[0] is twice[1] is layer and len(list(twice.parameters())) == 2


# ------------------------------------------------------------------ init

def test_dirac_matches_pytorch(T):
    for shape, groups in [((4, 2, 3), 1), ((4, 3, 3, 3), 2), ((6, 2, 3, 3, 3), 3), ((2, 5, 3), 1)]:
        ours, theirs = tapegrad.empty(shape), T.empty(shape)
        tapegrad.nn.init.dirac_(ours, groups)
        T.nn.init.dirac_(theirs, groups)
        assert np.array_equal(ours.numpy(), theirs.numpy())
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        tapegrad.nn.init.dirac_(tapegrad.empty(3, 2, 3), groups=2)
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions"):
        tapegrad.nn.init.dirac_(tapegrad.empty(3, 2))


def test_dirac_conv_is_the_identity():
    weight = tapegrad.nn.init.dirac_(tapegrad.empty(3, 3, 3, 3))
    x = tapegrad.randn(1, 3, 5, 5)
    out = tapegrad.nn.functional.conv2d(x, weight, padding=1)
    np.testing.assert_allclose(out.numpy(), x.numpy())


def test_sparse_zeroes_a_fraction_of_each_column():
    weight = tapegrad.nn.init.sparse_(tapegrad.empty(10, 6), sparsity=0.25, std=0.5)
    assert ((weight == 0).sum(0) == 3).all()
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions"):
        tapegrad.nn.init.sparse_(tapegrad.empty(3), 0.1)


# ------------------------------------------------------------------ optimizers

def _sgd_state_story(T):
    w1 = T.nn.Parameter(T.tensor([1.0, 2.0]))
    w2 = T.nn.Parameter(T.tensor([3.0]))
    opt = T.optim.SGD([{"params": [w1], "momentum": 0.9}, {"params": [w2]}], lr=0.1)
    (w1.sum() + w2.sum()).backward()
    opt.step()
    state = opt.state_dict()["state"]
    return sorted(state), [sorted(v) for v in state.values()], len(opt.state)


def test_sgd_keeps_state_only_for_momentum_groups(T):
    assert _sgd_state_story(tapegrad) == _sgd_state_story(T)


def test_duplicate_parameters_warn_as_pytorch(T):
    for lib in (tapegrad, T):
        w = lib.nn.Parameter(lib.ones(2))
        with pytest.warns(UserWarning, match="optimizer contains a parameter group with "
                                             "duplicate parameters; in future, this will cause "
                                             "an error"):
            opt = lib.optim.SGD([w, w], lr=0.1)
        assert len(opt.param_groups[0]["params"]) == 2


def _lbfgs_state_keys(T):
    w = T.nn.Parameter(T.tensor([1.5, -0.5]))
    opt = T.optim.LBFGS([w], lr=0.5, max_iter=4, history_size=3)

    def closure():
        opt.zero_grad()
        loss = ((w - T.tensor([0.3, 0.7])) ** 2).sum() + (w ** 4).sum()
        loss.backward()
        return loss

    opt.step(closure)
    state = opt.state[w]
    return sorted(state), len(state["al"]), round(float(w.detach().sum()), 5)


def test_lbfgs_state_matches_pytorch(T):
    assert _lbfgs_state_keys(tapegrad) == _lbfgs_state_keys(T)


# ------------------------------------------------------------------ schedulers

def _schedule(T, make, steps=9, optimizer="sgd"):
    w = T.nn.Parameter(T.ones(1))
    b = T.nn.Parameter(T.ones(1))
    groups = [{"params": [w]}, {"params": [b], "lr": 0.05}]
    opt = (T.optim.SGD(groups, lr=0.1, momentum=0.9) if optimizer == "sgd"
           else T.optim.Adam(groups, lr=0.1))
    scheduler = make(T.optim.lr_scheduler, opt)
    trace = []
    for _ in range(steps):
        opt.step()
        scheduler.step()
        momenta = [g["momentum"] if optimizer == "sgd" else g["betas"][0]
                   for g in opt.param_groups]
        trace.append([round(x, 12) for x in scheduler.get_last_lr() + momenta])
    state = scheduler.state_dict()
    internal = {"_get_lr_called_within_step"}  # PyTorch's guard against get_lr() outside step()
    return trace, sorted(set(state) - internal), state.get("_scale_fn_custom", "absent")


SCHEDULES = {
    "multiplicative": lambda L, opt: L.MultiplicativeLR(opt, lambda epoch: 0.9 if epoch < 3
                                                         else 0.5),
    "multiplicative_per_group": lambda L, opt: L.MultiplicativeLR(
        opt, [lambda epoch: 0.9, lambda epoch: 0.8]),
    "cyclic_triangular": lambda L, opt: L.CyclicLR(opt, 0.01, 0.1, step_size_up=3),
    "cyclic_triangular2": lambda L, opt: L.CyclicLR(opt, [0.01, 0.02], 0.1, step_size_up=2,
                                                    step_size_down=1, mode="triangular2"),
    "cyclic_exp_range": lambda L, opt: L.CyclicLR(opt, 0.01, 0.1, step_size_up=2,
                                                  mode="exp_range", gamma=0.9,
                                                  base_momentum=0.7, max_momentum=0.95),
    "cyclic_scale_fn": lambda L, opt: L.CyclicLR(opt, 0.01, 0.1, step_size_up=2,
                                                 scale_fn=lambda x: 0.8 ** x,
                                                 scale_mode="iterations",
                                                 cycle_momentum=False),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_match_pytorch(T, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _schedule(tapegrad, SCHEDULES[name]) == _schedule(T, SCHEDULES[name])


def test_cyclic_lr_cycles_adam_beta1(T):
    def make(L, opt):
        return L.CyclicLR(opt, 0.01, 0.1, step_size_up=2)

    assert _schedule(tapegrad, make, optimizer="adam") == _schedule(T, make, optimizer="adam")


def test_scheduler_errors_match_pytorch(T):
    for lib in (tapegrad, T):
        L = lib.optim.lr_scheduler
        opt = lib.optim.RMSprop([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        with pytest.raises(TypeError, match="lr_lambda should be a function, but got float"):
            L.MultiplicativeLR(lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]), 0.5)
        with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
            L.CyclicLR(opt, 0.01, 0.1, mode="bogus")
        assert issubclass(L._LRScheduler, L.LRScheduler)
        L.CyclicLR(opt, 0.01, 0.1, cycle_momentum=True)  # RMSprop has a momentum option
        with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
            L.CyclicLR(lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), 0.01, 0.1)
