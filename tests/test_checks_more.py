"""Argument checks and semantics of nn, optim, data, distributions and autograd utilities,
each case run on tapegrad and on PyTorch: the same values, or the same exception and message."""
import math
import warnings

import pytest

import tapegrad
from tapegrad.autograd import gradcheck

from same_as_torch import arrays, assert_equal, assert_same, outcome

torch = pytest.importorskip("torch")


def assert_same_as_torch(case):
    assert_same(case, torch)


# -- nn.functional ------------------------------------------------------------------------------

LINEAR_BIASES = {
    "wrong-length": ((10, 8), (1, 8), (8,), False),
    "folded-3d": ((3, 10, 8), (1, 8), (8,), False),
    "non-contiguous": ((3, 10, 8), (1, 8), (8,), True),
    "1d-input": ((8,), (1, 8), (2, 1), False),
    "column": ((10, 8), (1, 8), (10, 1), False),
    "too-many-dims": ((10, 8), (1, 8), (2, 10, 1), False),
    "fits": ((4, 3), (2, 3), (2,), False),
}


@pytest.mark.parametrize("case", LINEAR_BIASES, ids=list(LINEAR_BIASES))
def test_linear_bias_must_expand_to_the_output(case):
    x_shape, w_shape, b_shape, transpose = LINEAR_BIASES[case]

    def run(lib):
        x = lib.ones(*x_shape)
        x = x.transpose(0, 1) if transpose else x
        return lib.nn.functional.linear(x, lib.ones(*w_shape), lib.ones(*b_shape))
    assert_same_as_torch(run)


ATTENTION_MASKS = {
    "bool-and-causal": lambda lib: lib.tensor([[True, False, True], [True, True, False],
                                               [False, True, True]]),
    "float-and-causal": lambda lib: lib.tensor([[0., 1., 2.], [0.5, 0., -1.], [0., 0., 0.]]),
    "row-masked-out": lambda lib: lib.tensor([[False, True, True], [True, True, True],
                                             [True, True, True]]),
    "broadcast-4d": lambda lib: lib.ones(1, 1, 1, 3, dtype=lib.bool),
    "too-small": lambda lib: lib.ones(2, 2, dtype=lib.bool),
    "wrong-heads": lambda lib: lib.ones(1, 3, 3, 3, dtype=lib.bool),
}


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("mask", ATTENTION_MASKS, ids=list(ATTENTION_MASKS))
def test_attention_mask_with_and_without_causal(mask, causal):
    def run(lib):
        q = (lib.arange(24.).reshape(1, 2, 3, 4) / 10).requires_grad_()
        out = lib.nn.functional.scaled_dot_product_attention(
            q, q, q, attn_mask=ATTENTION_MASKS[mask](lib), is_causal=causal)
        out.sum().backward()
        return out, q.grad
    assert_same_as_torch(run)


@pytest.mark.parametrize("shape,dropout", [((1, 3, 4), 0.0), ((1, 1, 3, 4), 0.5)])
def test_attention_refuses_both_masks_off_the_flash_path(shape, dropout):
    def run(lib):
        q = lib.zeros(*shape)
        return lib.nn.functional.scaled_dot_product_attention(
            q, q, q, attn_mask=lib.ones(3, 3, dtype=lib.bool), dropout_p=dropout, is_causal=True)
    assert_same_as_torch(run)


BCE_WITH_LOGITS_WEIGHTS = {
    "pos_weight-short": (None, (2,)),
    "weight-short": ((2,), None),
    "weight-more-dims": ((4, 1, 1), None),
    "pos_weight-more-dims": (None, (4, 1, 3)),
    "both": ((2, 1), (2,)),
    "both-other": ((2,), (2, 1)),
    "fitting": ((3,), (2, 1)),
}


@pytest.mark.parametrize("case", BCE_WITH_LOGITS_WEIGHTS, ids=list(BCE_WITH_LOGITS_WEIGHTS))
def test_bce_with_logits_weight_shapes(case):
    weight, pos_weight = BCE_WITH_LOGITS_WEIGHTS[case]

    def run(lib):
        z = lib.linspace(-1, 1, 6).reshape(2, 3)
        return lib.nn.functional.binary_cross_entropy_with_logits(
            z, z.sigmoid(), weight=None if weight is None else lib.ones(*weight) * 2,
            pos_weight=None if pos_weight is None else lib.ones(*pos_weight) * 3)
    assert_same_as_torch(run)


BCE_INPUTS = {
    "target-above-one": ([0.9, 0.2], [2.0, 0.0], None),
    "target-below-zero": ([0.9, 0.2], [-0.1, 0.0], None),
    "target-nan": ([0.9, 0.2], [math.nan, 0.0], None),
    "input-and-target": ([1.9, 0.2], [2.0, 0.0], None),
    "input-nan": ([math.nan, 0.2], [0.5, 0.0], None),
    "weight-shape-first": ([0.9, 0.2], [2.0, 0.0], (3, False)),
    "weight-requires-grad": ([0.9, 0.2], [2.0, 0.0], (2, True)),
    "valid": ([0.9, 0.2], [1.0, 0.5], (2, False)),
}


@pytest.mark.parametrize("case", BCE_INPUTS, ids=list(BCE_INPUTS))
def test_binary_cross_entropy_checks(case):
    input, target, weight = BCE_INPUTS[case]

    def run(lib):
        w = None if weight is None else lib.ones(weight[0], requires_grad=weight[1])
        return lib.nn.functional.binary_cross_entropy(lib.tensor(input), lib.tensor(target),
                                                      weight=w)
    assert_same_as_torch(run)


CLASS_WEIGHT_LOSSES = {
    "cross_entropy": lambda F, x, t, w: F.cross_entropy(x, t, weight=w),
    "cross_entropy-smoothing": lambda F, x, t, w: F.cross_entropy(x, t, weight=w,
                                                                  label_smoothing=0.1),
    "cross_entropy-probabilities": lambda F, x, t, w: F.cross_entropy(x, x.softmax(1), weight=w),
    "nll_loss": lambda F, x, t, w: F.nll_loss(x, t, weight=w),
    "nll_loss2d": lambda F, x, t, w: F.nll_loss(x.view(2, 3, 1, 1), t.view(2, 1, 1), weight=w),
    "nll_loss-3d": lambda F, x, t, w: F.nll_loss(x.view(2, 3, 1), t.view(2, 1), weight=w),
    "multi_margin_loss": lambda F, x, t, w: F.multi_margin_loss(x, t, weight=w),
}


@pytest.mark.parametrize("grad_enabled", [True, False])
@pytest.mark.parametrize("loss", CLASS_WEIGHT_LOSSES, ids=list(CLASS_WEIGHT_LOSSES))
def test_class_weights_requiring_grad(loss, grad_enabled):
    def run(lib):
        x = lib.tensor([[0.1, 0.5, -0.2], [1.0, 0.0, 0.3]])
        with lib.set_grad_enabled(grad_enabled):
            return CLASS_WEIGHT_LOSSES[loss](lib.nn.functional, x, lib.tensor([0, 2]),
                                             lib.tensor([1., 2., 3.], requires_grad=True))
    assert_same_as_torch(run)


# -- sampling ------------------------------------------------------------------------------------

MULTINOMIAL_INPUTS = {
    "int64": (lambda lib: lib.tensor([1, 2]), 1),
    "int32": (lambda lib: lib.tensor([1, 2], dtype=lib.int32), 1),
    "uint8": (lambda lib: lib.tensor([1, 2], dtype=lib.uint8), 1),
    "bool": (lambda lib: lib.tensor([True, False]), 1),
    "int-too-many": (lambda lib: lib.tensor([1, 2]), 5),
    "scalar": (lambda lib: lib.tensor(1.), 1),
    "3d": (lambda lib: lib.ones(2, 2, 2), 1),
    "zero-samples": (lambda lib: lib.ones(2), 0),
    "negative-samples": (lambda lib: lib.ones(2), -3),
    "too-many": (lambda lib: lib.ones(2), 5),
}


@pytest.mark.parametrize("case", MULTINOMIAL_INPUTS, ids=list(MULTINOMIAL_INPUTS))
def test_multinomial_checks(case):
    make, count = MULTINOMIAL_INPUTS[case]
    assert_same_as_torch(lambda lib: lib.multinomial(make(lib), count))


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("weights", [[1., -1.], [1., math.nan], [1., math.inf], [math.inf, -1.],
                                     [math.nan, math.inf], [0., 0.]])
def test_multinomial_refuses_bad_weights_with_the_kernels_message(weights, count, replacement):
    """ATen's kernel for several draws with replacement checks each weight in order (a nan
    fails its ``>= 0`` test first); the others check the whole tensor at once."""
    assert_same_as_torch(lambda lib: lib.multinomial(lib.tensor(weights), count, replacement))


def test_generator_set_state_returns_the_generator():
    assert_same_as_torch(lambda lib: type(lib.Generator().set_state(
        lib.Generator().manual_seed(3).get_state())).__name__)


# -- optim ---------------------------------------------------------------------------------------

OPTIMIZER_OPTIONS = [dict(fused=True, foreach=True), dict(fused=True, differentiable=True),
                     dict(capturable=True), dict(capturable=True, foreach=True),
                     dict(fused=True, capturable=True)]
OPTIMIZERS = ["SGD", "Adam", "AdamW", "Adagrad", "Adadelta", "Adamax", "ASGD", "NAdam", "RAdam",
              "RMSprop", "Rprop"]


@pytest.mark.parametrize("options", OPTIMIZER_OPTIONS, ids=str)
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_optimizer_implementation_options(name, options):
    def run(lib):
        param = lib.nn.Parameter(lib.ones(2))
        optimizer = getattr(lib.optim, name)([param], lr=0.1, **options)
        param.grad = lib.ones(2)
        optimizer.step()
        return param
    assert_same_as_torch(run)


# -- autograd.gradcheck ----------------------------------------------------------------------------

@pytest.mark.parametrize("inputs", [lambda lib: (lib.ones(2, dtype=lib.float64),),
                                    lambda lib: (1.0,)])
def test_gradcheck_needs_an_input_requiring_grad(inputs):
    assert_same_as_torch(lambda lib: lib.autograd.gradcheck(lib.sin, inputs(lib)))


def test_gradcheck_differences_in_the_input_dtype():
    """float32 inputs: the finite differences are taken in float32 (too coarse for eps=1e-6,
    fine for eps=1e-3), the Jacobians reported in the inputs' and outputs' dtype."""
    x = tapegrad.tensor([0.5, 1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        assert not gradcheck(tapegrad.sin, (x,), raise_exception=False)
    with pytest.warns(UserWarning):
        assert gradcheck(tapegrad.sin, (x,), eps=1e-3)
    with pytest.warns(UserWarning), pytest.raises(tapegrad.autograd.GradcheckError) as error:
        gradcheck(tapegrad.sin, (x,))
    assert str(error.value).startswith("Jacobian mismatch for output 0 with respect to input 0")
    assert "dtype" not in str(error.value)  # float32, the default dtype


# -- utils.data ----------------------------------------------------------------------------------

def test_random_sampler_with_replacement_draws_lazily():
    from tapegrad.utils.data import DataLoader, RandomSampler
    data = list(range(5))
    sampler = RandomSampler(data, replacement=True, num_samples=int(1e10))
    assert len(next(iter(DataLoader(data, sampler=sampler, batch_size=2)))) == 2
    seeded = [list(RandomSampler(data, replacement=replace, num_samples=72,
                                 generator=tapegrad.Generator().manual_seed(3)))
              for replace in (True, False)]
    assert [len(s) for s in seeded] == [72, 72]
    assert all(0 <= i < 5 for s in seeded for i in s)
    assert sorted(seeded[1][:5]) == list(range(5)) and sorted(seeded[1][70:]) != list(range(5))


def test_random_split_warns_about_empty_splits():
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lengths = [len(s) for s in lib.utils.data.random_split(range(3), [0.1, 0.1, 0.8])]
        return lengths, [str(w.message) for w in caught]
    assert outcome(tapegrad, run) == outcome(torch, run)
    assert_same_as_torch(lambda lib: lib.utils.data.random_split(range(4), [1.5, -0.5]))


# -- nn.utils.stateless ----------------------------------------------------------------------------

def _functional_call_cases(lib):
    from importlib import import_module
    call = import_module(f"{lib.__name__}.nn.utils.stateless").functional_call
    net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
    with lib.no_grad():
        net[0].weight.copy_(lib.arange(6.).view(3, 2) / 10)
        net[0].bias.fill_(0.5)
    x = lib.tensor([[1., 2.], [3., -1.], [0., 1.]])
    w = lib.ones(3, 2, requires_grad=True)
    out = call(net, {"0.weight": w}, x)
    out.sum().backward()
    running = {"1.running_mean": lib.zeros(3)}
    call(net, running, (x,))
    results = [out, w.grad, net[0].weight.grad is None, running["1.running_mean"],
               net[1].running_mean, net[1].num_batches_tracked]
    for parameters, kwargs in (({"0.weight": lib.ones(3, 5)}, {}),
                               ({"0.weight": w, "nope": w}, {"strict": True}),
                               ({"0.weight": 3}, {})):
        try:
            call(net, parameters, (x,), **kwargs)
        except (RuntimeError, TypeError) as error:
            results.append(type(error).__name__)
        results.append(tuple(net[0].weight.shape))
    return results


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_functional_call_swaps_and_restores():
    ours, theirs = _functional_call_cases(tapegrad), _functional_call_cases(torch)
    for a, b in zip(ours, theirs):
        assert_equal(arrays(a), arrays(b))


def test_functional_call_ties_and_warns():
    def run(lib):
        from importlib import import_module
        call = import_module(f"{lib.__name__}.nn.utils.stateless").functional_call

        class Tied(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = lib.nn.Linear(2, 2, bias=False)
                self.b = lib.nn.Linear(2, 2, bias=False)
                self.b.weight = self.a.weight

            def forward(self, x, scale=1.0):
                return self.b(self.a(x)) * scale
        x = lib.tensor([[1., 2.], [3., -1.]])
        tied = call(Tied(), {"a.weight": lib.eye(2) * 2}, (x,), {"scale": 0.5})
        try:
            call(Tied(), {"a.weight": lib.eye(2) * 2, "b.weight": lib.eye(2)}, (x,))
        except ValueError as error:
            return tied, str(error)
    assert_same_as_torch(run)
    with pytest.warns(FutureWarning, match="torch.func.functional_call"):
        tapegrad.nn.utils.stateless.functional_call(tapegrad.nn.Identity(), {}, tapegrad.ones(1))


# -- distributions.kl ------------------------------------------------------------------------------

def _distributions(lib):
    D = lib.distributions
    t = lib.tensor
    return {
        "Bernoulli": D.Bernoulli(t([0.3, 0.8])),
        "Beta": D.Beta(t([2., 0.5]), t([3., 1.5])),
        "ContinuousBernoulli": D.ContinuousBernoulli(t([0.3, 0.7])),
        "Exponential": D.Exponential(t([1.5, 0.5])),
        "Gamma": D.Gamma(t([2., 0.7]), t([1.5, 2.])),
        "Gumbel": D.Gumbel(t([0.2, -1.]), t([1., 2.])),
        "Laplace": D.Laplace(t([0.2, -1.]), t([1., 2.])),
        "Normal": D.Normal(t([0.2, -1.]), t([1., 2.])),
        "Pareto": D.Pareto(t([1., 0.5]), t([3., 1.5])),
        "Poisson": D.Poisson(t([1.5, 3.])),
        "Binomial": D.Binomial(5, t([0.3, 0.6])),
        "Uniform": D.Uniform(t([0.1, 0.5]), t([0.9, 3.])),
        "Uniform01": D.Uniform(t([0.0, 0.2]), t([1.0, 0.7])),
    }


def test_kl_registry_matches_pytorch():
    names = {(p.__name__, q.__name__) for p, q in torch.distributions.kl._KL_REGISTRY}
    assert {(p.__name__, q.__name__) for p, q in tapegrad.distributions.kl._KL_REGISTRY} == names


def test_kl_between_families():
    ours, theirs = _distributions(tapegrad), _distributions(torch)
    for p in theirs:
        for q in theirs:
            assert_equal(outcome(tapegrad, lambda lib: lib.distributions.kl_divergence(
                              ours[p], ours[q])),
                          outcome(torch, lambda lib: lib.distributions.kl_divergence(
                              theirs[p], theirs[q])))


def test_kl_multivariate_normal_and_low_rank():
    def run(lib):
        D = lib.distributions
        loc = lib.tensor([[0.1, -0.2, 0.3], [1., 0., -1.]])
        tril = lib.tensor([[1., 0., 0.], [0.3, 1.2, 0.], [-0.2, 0.1, 0.8]])
        factor = lib.tensor([[0.5, 0.1], [-0.3, 0.4], [0.2, 0.2]])
        diag = lib.tensor([0.7, 1.1, 0.9])
        full = D.MultivariateNormal(loc, scale_tril=tril)
        low = D.LowRankMultivariateNormal(loc[1], factor, diag)
        kl = D.kl_divergence
        try:
            kl(full, D.LowRankMultivariateNormal(lib.zeros(2), factor[:2], diag[:2]))
        except ValueError as error:
            return kl(low, full), kl(full, low), str(error)
    assert_same_as_torch(run)


def test_kl_gradients_between_families():
    def run(lib):
        concentration = lib.tensor([2., 0.5], dtype=lib.float64, requires_grad=True)
        scale = lib.tensor([1., 2.], dtype=lib.float64, requires_grad=True)
        D = lib.distributions
        kl = D.kl_divergence(D.Beta(concentration, lib.ones(2, dtype=lib.float64)),
                             D.Normal(lib.zeros(2, dtype=lib.float64), scale))
        kl.sum().backward()
        return kl, concentration.grad, scale.grad
    assert_same_as_torch(run)


# -- cdist ---------------------------------------------------------------------------------------

def test_cdist_inf_gives_ties_the_whole_gradient():
    def run(lib):
        a = lib.tensor([[0., 1.], [2., 3.]], requires_grad=True)
        c = lib.tensor([[0., 1.], [1., 1.]], requires_grad=True)
        d = lib.cdist(a[None], c[None].expand(3, 2, 2), p=float("inf"))
        (d * lib.arange(1., 13.).view(3, 2, 2)).sum().backward()
        return d, a.grad, c.grad
    assert_same_as_torch(run)
    a = tapegrad.tensor([[0., 1.], [2., 3.5]], dtype=tapegrad.float64, requires_grad=True)
    c = tapegrad.tensor([[0.3, 1.2], [1., 1.]], dtype=tapegrad.float64, requires_grad=True)
    assert gradcheck(lambda x, y: tapegrad.cdist(x, y, p=float("inf")), (a, c))
