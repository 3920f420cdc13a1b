"""Utilities as PyTorch has them: collation of string fields, iterable-dataset addition,
Parameters of inference tensors, ParameterDict order, optimizer group checks, skip_init, the
argument checks of random fills, deepcopy of non-leaves, ChainedScheduler, save's target check,
and the nodes of vector-matmul gradients built with create_graph."""
import collections
import copy
import io
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.nn as nn
from tapegrad.utils.data import ChainDataset, ConcatDataset, IterableDataset, default_collate
from tapegrad.utils.data._utils.collate import collate, default_collate_fn_map

from same_as_torch import assert_same


class _Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


# ------------------------------------------------------------------------------ independent truths

def test_collate_keeps_the_zipped_tuples_of_strings():
    numbers, names = default_collate([(1, "a"), (2, "b")])
    assert numbers.tolist() == [1, 2] and names == ("a", "b")
    Sample = collections.namedtuple("Sample", "x name")
    batch = default_collate([Sample(1.0, "p"), Sample(2.0, "q")])
    assert isinstance(batch, Sample) and batch.name == ("p", "q")


def test_a_custom_collate_function_receives_each_field_as_a_tuple():
    table = dict(default_collate_fn_map)
    table[str] = lambda batch, *, collate_fn_map=None: type(batch).__name__
    assert collate([(1, "a"), (2, "b")], collate_fn_map=table)[1] == "tuple"


def test_iterable_datasets_add_up_to_a_chain_and_refuse_concatenation():
    chained = _Stream(2) + _Stream(3)
    assert isinstance(chained, ChainDataset) and list(chained) == [0, 1, 0, 1, 2]
    assert len(chained) == 5
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([[1, 2], _Stream(2)])


def test_parameter_of_an_inference_tensor_is_one_too():
    with tapegrad.inference_mode():
        made_inside = tapegrad.ones(2)
        assert nn.Parameter(made_inside).is_inference()
    frozen = nn.Parameter(made_inside, requires_grad=False)
    assert frozen.is_inference() and not frozen.requires_grad
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor"):
        nn.Parameter(made_inside)
    assert not nn.Parameter(made_inside.clone()).is_inference()


def test_parameter_dict_sorts_only_plain_mappings():
    def p():
        return nn.Parameter(tapegrad.zeros(1))
    assert list(nn.ParameterDict({"b": p(), "a": p()}).keys()) == ["a", "b"]
    assert list(nn.ParameterDict([("b", p()), ("a", p())]).keys()) == ["b", "a"]
    ordered = collections.OrderedDict([("b", p()), ("a", p())])
    assert list(nn.ParameterDict(ordered).keys()) == ["b", "a"]
    assert list(nn.ModuleDict({"b": nn.ReLU(), "a": nn.ReLU()}).keys()) == ["b", "a"]


def test_add_param_group_refuses_sets_and_fills_in_the_dict_given():
    weight = nn.Parameter(tapegrad.ones(2))
    with pytest.raises(TypeError, match="ordering of tensors in sets will change"):
        tapegrad.optim.SGD([{"params": {weight}}], lr=0.1)
    group = {"params": iter([weight])}
    optimizer = tapegrad.optim.SGD([group], lr=0.1)
    assert optimizer.param_groups[0] is group and group["params"] == [weight]
    assert group["lr"] == 0.1


def test_skip_init_leaves_the_generator_alone():
    tapegrad.manual_seed(3)
    expected = tapegrad.rand(4)
    tapegrad.manual_seed(3)
    layer = nn.utils.skip_init(nn.Linear, 5, 3)
    assert layer.weight.shape == (3, 5) and layer.weight.requires_grad
    assert tapegrad.equal(tapegrad.rand(4), expected)


@pytest.mark.parametrize("dtype", [tapegrad.float32, tapegrad.float64])
def test_uniform_and_normal_fills_stay_in_range(dtype):
    t = tapegrad.empty(1000, dtype=dtype)
    assert 2.0 <= t.uniform_(2.0, 2.5).min().item() and t.max().item() < 2.5
    assert (t.normal_(1.0, 0.0) == 1.0).all()


def test_vector_matmul_gradients_match_finite_differences_in_float64():
    x = tapegrad.tensor([0.3, -1.2, 0.7], dtype=tapegrad.float64, requires_grad=True)
    w = tapegrad.tensor([[0.5, -0.1, 2.0], [1.5, 0.4, -0.3]], dtype=tapegrad.float64,
                        requires_grad=True)
    assert tapegrad.autograd.gradcheck(lambda x, w: nn.functional.linear(x, w), (x, w))
    assert tapegrad.autograd.gradgradcheck(lambda x, w: w @ x, (x, w))
    assert tapegrad.autograd.gradgradcheck(lambda x, w: x @ w.t(), (x, w))


# -------------------------------------------------------------------------- the same as PyTorch

torch = pytest.importorskip("torch")


def _node_names(node, depth=4):
    names = []
    while node is not None and len(names) < depth:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


@pytest.mark.parametrize("shape_w, vector_first", [((2, 3), True), ((3, 2), False)])
def test_vector_matmul_gradient_nodes_match(shape_w, vector_first):
    def graph(lib):
        x = lib.ones(3, dtype=lib.float64, requires_grad=True)
        w = lib.ones(*shape_w, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.linear(x, w) if vector_first else w.t() @ x
        gx, gw = lib.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        return _node_names(gx.grad_fn), _node_names(gw.grad_fn)
    assert graph(tapegrad) == graph(torch)


CASES = {
    "param_group_not_a_dict": lambda lib: lib.optim.SGD(
        [{"params": [lib.nn.Parameter(lib.ones(1))]}, lib.nn.Parameter(lib.ones(1))], lr=0.1),
    "param_names_partly_missing": lambda lib: lib.optim.SGD(
        [("w", lib.nn.Parameter(lib.ones(1))), lib.nn.Parameter(lib.ones(1))], lr=0.1),
    "chained_scheduler_empty": lambda lib: lib.optim.lr_scheduler.ChainedScheduler([]),
    "save_to_a_number": lambda lib: lib.save(lib.ones(1), 123),
    "load_from_a_number": lambda lib: lib.load(123),
    "deepcopy_non_leaf": lambda lib: copy.deepcopy(lib.ones(1, requires_grad=True) * 2),
    "normal_negative_std": lambda lib: lib.nn.init.normal_(lib.zeros(2), std=-1),
    "normal_nan_std": lambda lib: lib.zeros(2).normal_(0, math.nan),
    "normal_integer": lambda lib: lib.zeros(2, dtype=lib.int64).normal_(),
    "uniform_swapped": lambda lib: lib.nn.init.uniform_(lib.zeros(2), 0.5, -0.5),
    "uniform_out_of_float": lambda lib: lib.zeros(2).uniform_(-1e300, 0),
    "uniform_infinite": lambda lib: lib.zeros(2, dtype=lib.float64).uniform_(0, math.inf),
    "uniform_too_wide": lambda lib: lib.zeros(2).uniform_(-3e38, 3e38),
    "uniform_integer": lambda lib: lib.zeros(2, dtype=lib.int32).uniform_(),
    "exponential_nan": lambda lib: lib.zeros(2).exponential_(math.nan),
    "exponential_rounded": lambda lib: lib.zeros(2).exponential_(-0.1 - 0.2),
    "cauchy_nan": lambda lib: lib.zeros(2).cauchy_(0, math.nan),
    "log_normal_nan": lambda lib: lib.zeros(2).log_normal_(0, math.nan),
    "geometric_nan": lambda lib: lib.zeros(2).geometric_(math.nan),
    "bernoulli_rounded": lambda lib: lib.zeros(2).bernoulli_(1.1 + 0.2),
    "adam_tensor_lr_foreach": lambda lib: lib.optim.Adam(
        [lib.nn.Parameter(lib.ones(1))], lr=lib.tensor(0.1), foreach=True),
    "adamw_tensor_lr_foreach": lambda lib: lib.optim.AdamW(
        [lib.nn.Parameter(lib.ones(1))], lr=lib.tensor(0.1), foreach=True),
}
for _optimizer in ("SGD", "Adam", "AdamW", "RMSprop", "Rprop", "ASGD", "LBFGS", "Adagrad",
                   "Adadelta", "Adamax", "NAdam", "RAdam", "Adafactor"):
    CASES[f"{_optimizer}_tensor_lr"] = (lambda name: lambda lib: getattr(lib.optim, name)(
        [lib.nn.Parameter(lib.ones(1))], lr=lib.tensor([0.1, 0.2])))(_optimizer)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome_as_pytorch(name):
    assert_same(CASES[name], torch)


def test_skip_init_checks_match():
    for args in [(int,), (nn.Sequential,)]:
        with pytest.raises(RuntimeError) as ours:
            nn.utils.skip_init(*args)
        theirs_args = (int,) if args[0] is int else (torch.nn.Sequential,)
        with pytest.raises(RuntimeError) as theirs:
            torch.nn.utils.skip_init(*theirs_args)
        assert str(ours.value) == str(theirs.value)


def test_parameter_type_prints_as_pytorchs():
    assert str(type(nn.Parameter(tapegrad.ones(1)))) == \
        str(type(torch.nn.Parameter(torch.ones(1))))


def test_collate_with_numpy_and_strings_matches():
    samples = [(np.float32(1.5), "a", [1, "x"]), (np.float32(2.5), "b", [2, "y"])]
    ours, theirs = default_collate(samples), torch.utils.data.default_collate(samples)
    assert ours[0].tolist() == theirs[0].tolist() and ours[1] == theirs[1]
    assert ours[2][0].tolist() == theirs[2][0].tolist() and ours[2][1] == theirs[2][1]


def test_save_to_a_text_buffer_is_refused_like_pytorch():
    for lib in (tapegrad, torch):
        with pytest.raises(TypeError):
            lib.save(lib.ones(1), io.StringIO())
