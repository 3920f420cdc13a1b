"""Fixes found by self-supervised-learning programs (momentum encoders written with
``torch._foreach_*``): PyTorch's argument parsing of the tensor lists, and its checks of the
operands' lengths and packed scalars."""
import pytest

import tapegrad
from same_as_torch import assert_same

torch = pytest.importorskip("torch")


def params(lib):
    return [lib.tensor([1.0, 2.0]), lib.tensor([[3.0, -4.0]])]


def generator(lib):
    """What ``model.parameters()`` gives: a generator, not a list."""
    return (p for p in params(lib))


MISUSED_SELF = [
    lambda lib: lib._foreach_mul_(generator(lib), 0.99),
    lambda lib: lib._foreach_mul_(params(lib)[1], 0.99),
    lambda lib: lib._foreach_mul(None, [0.5, 0.5]),
    lambda lib: lib._foreach_add_(generator(lib), params(lib), alpha=0.01),
    lambda lib: lib._foreach_add_(lib.ones(2), lib.ones(2)),
    lambda lib: lib._foreach_add(generator(lib), (lib.ones(2),)),
    lambda lib: lib._foreach_sub_(generator(lib), 1),
    lambda lib: lib._foreach_div(lib.ones(2), 2.0, 3),
    lambda lib: lib._foreach_mul_(lib.ones(2), scalar=0.5),
    lambda lib: lib._foreach_lerp_(generator(lib), params(lib), 0.1),
    lambda lib: lib._foreach_lerp(generator(lib), generator(lib), 0.1),
    lambda lib: lib._foreach_addcdiv_(generator(lib), params(lib), params(lib), value=0.5),
    lambda lib: lib._foreach_addcmul_(generator(lib), params(lib), params(lib), [0.5, 1.0]),
    lambda lib: lib._foreach_pow(generator(lib), 2),
    lambda lib: lib._foreach_pow_(lib.ones(2), 2),
    lambda lib: lib._foreach_maximum_(generator(lib), 0.0),
    lambda lib: lib._foreach_clamp_max(lib.ones(2), [1.0]),
    lambda lib: lib._foreach_exp(lib.ones(2)),
    lambda lib: lib._foreach_sqrt_(generator(lib)),
    lambda lib: lib._foreach_norm(generator(lib)),
    lambda lib: lib._foreach_zero_(lib.ones(2)),
    lambda lib: lib._foreach_copy_(generator(lib), params(lib)),
    lambda lib: lib._foreach_max("ab"),
    lambda lib: lib._foreach_mul_(lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(2))),
    lambda lib: lib._foreach_maximum_([lib.nn.Parameter(lib.ones(2))], lib.ones(2)),
]


@pytest.mark.parametrize("case", MISUSED_SELF)
def test_self_must_be_a_list_or_tuple_of_tensors(case):
    assert_same(case, torch)


@pytest.mark.parametrize("case", [
    lambda lib: lib._foreach_mul_([lib.ones(2), 1.0], 0.5),
    lambda lib: lib._foreach_mul_([None, lib.ones(2)], 0.5),
    lambda lib: lib._foreach_norm((lib.ones(2), None)),
    lambda lib: lib._foreach_add_([lib.ones(2)], [lib.ones(2), 3]),
])
def test_every_element_of_a_tensor_list_is_a_tensor(case):
    assert_same(case, torch)


@pytest.mark.parametrize("case", [
    lambda lib: lib._foreach_addcdiv(params(lib), params(lib), params(lib), lib.tensor([1.0, 2.0])),
    lambda lib: lib._foreach_addcdiv(params(lib), params(lib), params(lib), lib.tensor([1.0])),
    lambda lib: lib._foreach_addcmul_(params(lib), params(lib), params(lib), lib.tensor(2.0)),
    lambda lib: lib._foreach_addcmul(params(lib), params(lib), params(lib), lib.ones(2, 1)),
    lambda lib: lib._foreach_addcmul(params(lib), params(lib)[:1], params(lib)),
    lambda lib: lib._foreach_addcdiv_(params(lib), params(lib), params(lib)[:1], 0.5),
    lambda lib: lib._foreach_lerp(params(lib), params(lib), lib.tensor([0.5, 0.2])),
    lambda lib: lib._foreach_lerp_(params(lib), params(lib), lib.tensor(0.25)),
    lambda lib: lib._foreach_maximum(params(lib), lib.tensor([0.5, 0.2])),
    lambda lib: lib._foreach_minimum_(params(lib), lib.tensor([0.5, 0.2])),
])
def test_operand_lengths_and_packed_scalars(case):
    assert_same(case, torch)


def test_valid_calls_still_work_without_torch():
    """Independent truths: the checks refuse misuse only."""
    ts = [tapegrad.tensor([1.0, 2.0]), tapegrad.tensor([4.0])]
    assert tapegrad._foreach_mul_(ts, [2.0, 0.5]) is ts
    assert [t.tolist() for t in ts] == [[2.0, 4.0], [2.0]]
    out = tapegrad._foreach_addcmul(tuple(ts), ts, ts, tapegrad.tensor([1.0, -1.0]))
    assert [t.tolist() for t in out] == [[6.0, 20.0], [-2.0]]
    assert [t.tolist() for t in tapegrad._foreach_pow(2.0, ts)] == [[4.0, 16.0], [4.0]]
    assert tapegrad._foreach_lerp(ts, ts, tapegrad.tensor(0.5))[1].tolist() == [2.0]
    with pytest.raises(TypeError, match="must be tuple of Tensors, not generator"):
        tapegrad._foreach_exp(t for t in ts)


@pytest.mark.parametrize("case", [
    lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3), lib.ones(2, 3), eps=-1.0),
    lambda lib: lib.cosine_similarity(lib.ones(2, 3), lib.ones(3, 3), 1, -2.5e-7),
    lambda lib: lib.nn.CosineSimilarity(dim=5, eps=-1e20)(lib.ones(2, 3), lib.ones(2, 3)),
    lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3).long(), lib.ones(2, 3).long(),
                                                    eps=-1.0),
    lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3), lib.ones(2, 3), eps=0.0),
])
def test_cosine_similarity_refuses_a_negative_eps(case):
    assert_same(case, torch)


def test_distance_modules_list_their_constants():
    for name in ("PairwiseDistance", "CosineSimilarity"):
        assert getattr(tapegrad.nn, name).__constants__ == getattr(torch.nn, name).__constants__
