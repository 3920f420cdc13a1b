"""Random numbers are PyTorch's: the generator is the Mersenne Twister PyTorch seeds, and the
draws transform its words as ATen's CPU kernels do, so a seed gives PyTorch's values."""
import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def test_the_engine_is_the_standard_mersenne_twister():
    # C++'s std::mt19937 requirement: the 10000th output for the default seed 5489
    words = tapegrad.Generator().manual_seed(5489)._words(10000)
    assert words[0] == 3499211612 and words[-1] == 4123659995


def test_uniforms_are_the_low_bits_of_words():
    generator = tapegrad.Generator().manual_seed(7)
    words = tapegrad.Generator().manual_seed(7)._words(4)
    expected = (words & 0xFFFFFF).astype(np.float64) / 2 ** 24
    np.testing.assert_array_equal(generator.uniform((4,), np.float32), expected)


def test_state_round_trips_with_the_pending_normal():
    tapegrad.manual_seed(11)
    tapegrad.randn(3)  # an odd count: the pair's second normal waits for the next draw
    state = tapegrad.get_rng_state()
    first = tapegrad.randn(5).tolist()
    tapegrad.set_rng_state(state)
    assert tapegrad.randn(5).tolist() == first


DRAWS = {
    "rand": lambda lib: lib.rand(3, 5),
    "rand_float64": lambda lib: lib.rand(7, dtype=lib.float64),
    "rand_float16": lambda lib: lib.rand(37, dtype=lib.float16),
    "randn_few": lambda lib: lib.cat([lib.randn(3), lib.randn(1), lib.randn(4)]),
    "randn_float64": lambda lib: lib.randn(50, dtype=lib.float64),
    "randn_float16": lambda lib: lib.randn(37, dtype=lib.float16),
    "randint": lambda lib: lib.randint(-5, 50, (4, 4)),
    "randint_wide": lambda lib: lib.randint(0, 2 ** 40, (6,)),
    "randperm": lambda lib: lib.randperm(300),
    "uniform_": lambda lib: lib.empty(40).uniform_(-0.3, 0.7),
    "normal_transposed": lambda lib: lib.empty(8, 6).t().normal_(1.0, 2.0),
    "normal_tensors": lambda lib: lib.normal(lib.zeros(5), lib.arange(1.0, 6.0)),
    "generator_object": lambda lib: lib.rand(4, generator=lib.Generator().manual_seed(3)),
    "bernoulli_": lambda lib: lib.empty(30).bernoulli_(0.3),
    "bernoulli_tensor": lambda lib: lib.bernoulli(lib.linspace(0, 1, 30)),
    "random_": lambda lib: lib.empty(10, dtype=lib.int64).random_(0, 100),
    "exponential_": lambda lib: lib.empty(9).exponential_(2.5),
    "poisson": lambda lib: lib.poisson(lib.tensor([0.5, 3.0, 12.0, 50.0, 0.0, 100.0, 1e30, 5.0])),
    "poisson_dist": lambda lib: lib.distributions.Poisson(lib.tensor([2.0, 30.0])).sample((5,)),
    "geometric_": lambda lib: lib.empty(9).geometric_(0.3),
    "log_normal_": lambda lib: lib.empty(20, dtype=lib.float64).log_normal_(1.0, 0.5),
    "cauchy_": lambda lib: lib.empty(7, dtype=lib.float64).cauchy_(0.5, 2.0),
    "multinomial": lambda lib: lib.multinomial(lib.tensor([[0.1, 0.2, 0.3, 0.4],
                                                           [1.0, 0.0, 3.0, 2.0]]), 3),
    "multinomial_replacement": lambda lib: lib.multinomial(lib.tensor([0.2, 0.5, 0.3]), 8,
                                                           replacement=True),
    "categorical": lambda lib: lib.distributions.Categorical(logits=lib.zeros(2, 5)).sample((4,)),
    "exponential_dist": lambda lib: lib.distributions.Exponential(lib.tensor([2.0, 0.5]))
    .rsample((3,)),
    "laplace": lambda lib: lib.distributions.Laplace(0.0, 2.0).rsample((5,)),
    "cauchy": lambda lib: lib.distributions.Cauchy(1.0, 2.0).rsample((4,)),
    "geometric": lambda lib: lib.distributions.Geometric(lib.tensor([0.3])).sample((6,)),
    "normal_dist": lambda lib: lib.distributions.Normal(lib.zeros(3), 2.0).sample((2,)),
    "dropout": lambda lib: lib.nn.Dropout(0.2)(lib.ones(5, 8)),
    "dropout2d": lambda lib: lib.nn.functional.dropout2d(lib.ones(2, 6, 3, 3), 0.5),
    "linear": lambda lib: lib.cat([p.reshape(-1) for p in lib.nn.Linear(20, 30).parameters()]),
    "conv": lambda lib: lib.nn.Conv2d(3, 8, 3).weight,
    "lstm": lambda lib: lib.nn.LSTM(3, 4).weight_hh_l0,
    "sparse_": lambda lib: lib.nn.init.sparse_(lib.empty(6, 4), 0.5),
    # gamma samples (small concentrations boosted), then the generator continues in step
    "gamma": lambda lib: lib.cat([lib.distributions.Gamma(
        lib.tensor([0.3, 1.0, 2.5, 40.0]), lib.tensor([1.0, 2.0, 0.5, 1.0])).rsample((5,))
        .reshape(-1), lib.rand(3)]),
    "gamma_float64": lambda lib: lib.distributions.Gamma(
        lib.tensor([0.05, 7.0], dtype=lib.float64), 1.0).sample((6,)),
    "chi2_student_t": lambda lib: lib.cat([lib.distributions.Chi2(lib.tensor(3.0)).sample((4,)),
                                           lib.distributions.StudentT(4.0).sample((4,))]),
    "dirichlet": lambda lib: lib.distributions.Dirichlet(
        lib.tensor([[1.0, 2.0, 3.0], [0.2, 0.5, 4.0]])).rsample((3,)),
    "binomial": lambda lib: lib.cat([lib.binomial(
        lib.tensor([0.0, 5.0, 2.5, 40.0, 300.0, 300.0, float("inf"), 7.0]),
        lib.tensor([0.5, 1.0, 1.0, 0.2, 0.3, 0.9, 0.3, float("nan")])), lib.rand(2)]),
    "binomial_float64": lambda lib: lib.binomial(lib.full((20,), 60.0, dtype=lib.float64),
                                                 lib.linspace(0.01, 0.99, 20, dtype=lib.float64)),
    "binomial_dist": lambda lib: lib.distributions.Binomial(
        lib.tensor([10.0, 50.0]), probs=lib.tensor([0.2, 0.7])).sample((3,)),
    "negative_binomial": lambda lib: lib.distributions.NegativeBinomial(
        lib.tensor([3.0, 20.0]), probs=lib.tensor([0.4, 0.6])).sample((3,)),
    # a slope for each element that is not positive, then the generator continues in step
    "rrelu": lambda lib: lib.cat([lib.nn.functional.rrelu(
        lib.linspace(-2.0, 1.0, 12).reshape(3, 4).t(), training=True).reshape(-1), lib.rand(2)]),
    "rrelu_float64": lambda lib: lib.nn.RReLU(0.1, 0.3)(lib.linspace(-1.0, 1.0, 9,
                                                                    dtype=lib.float64)),
    "beta": lambda lib: lib.cat([lib.distributions.Beta(
        lib.tensor([2.0, 0.3]), lib.tensor([3.0, 0.7])).sample((4,)).reshape(-1), lib.rand(2)]),
}


def _seeded(lib, draw):
    lib.manual_seed(0)
    return draw(lib).detach().numpy()


@needs_torch
@pytest.mark.parametrize("name", DRAWS)
def test_a_seed_gives_pytorchs_values(name):
    np.testing.assert_array_equal(_seeded(tapegrad, DRAWS[name]), _seeded(torch, DRAWS[name]))


@needs_torch
@pytest.mark.parametrize("draw", [lambda lib: lib.randn(1000),
                                  lambda lib: lib.nn.init.trunc_normal_(lib.empty(20, 30)),
                                  lambda lib: lib.nn.init.kaiming_normal_(lib.empty(50, 30))],
                         ids=["randn", "trunc_normal_", "kaiming_normal_"])
def test_float32_normals_are_pytorchs_to_the_last_bit_nearly_always(draw):
    ours, theirs = _seeded(tapegrad, draw), _seeded(torch, draw)
    np.testing.assert_array_max_ulp(ours, theirs, maxulp=2)  # (a last-bit difference, scaled)
    assert (ours == theirs).mean() > 0.99


@needs_torch
def test_gumbel_softmax_draws_pytorchs_noise():
    """Its exponential noise is PyTorch's; the log and softmax after it may round differently."""
    def draw(lib):
        return lib.nn.functional.gumbel_softmax(lib.zeros(3, 5), tau=0.5)
    np.testing.assert_array_max_ulp(_seeded(tapegrad, draw), _seeded(torch, draw), maxulp=2)


def test_compiled_rrelu_draws_a_slope_for_every_element_as_torch_compile_does():
    """Eager RReLU draws a slope per non-positive element, which a compiled call cannot know
    before its kernel runs; like torch.compile's decomposition, it draws ``uniform_`` slopes for
    every element instead (the same numbers PyTorch's compiled RReLU gives after a seed)."""
    x = tapegrad.linspace(-2.0, 1.0, 12)
    compiled = tapegrad.compile(lambda t: tapegrad.nn.functional.rrelu(t, training=True))
    compiled(x)  # traced
    tapegrad.manual_seed(0)
    result = compiled(x)
    tapegrad.manual_seed(0)
    slopes = tapegrad.empty(12).uniform_(1.0 / 8, 1.0 / 3)
    assert tapegrad.equal(result, tapegrad.where(x > 0, x, x * slopes))
