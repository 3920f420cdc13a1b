"""Graph-style indexing and scatter semantics against PyTorch: list-of-sequences keys, writes
into expanded tensors, index_add/index_copy/index_select index checks, segment_reduce,
bincount, repeat_interleave and unique's checks, linear's dtype message, and Adam's rounding.

Each case is written against a module ``T`` (tapegrad or PyTorch) and run on both: same values
(or same exception type and message), same gradients, same grad_fn names.
"""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck
from same_as_torch import assert_float32_as_close_as_torch, torch_rounds_as_numpy

torch = pytest.importorskip("torch")


def _outcome(fn, T):
    """What ``fn(T)`` gives: numpy values (nested in lists), or (exception type, message)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = fn(T)
        except Exception as exc:  # noqa: BLE001  the exception is what is compared
            return type(exc).__name__, str(exc)
    return _plain(result)


def _plain(result):
    if isinstance(result, (tuple, list)):
        return [_plain(r) for r in result]
    if hasattr(result, "detach"):
        return (str(result.dtype).replace("tapegrad", "torch"),
                repr(result.detach().numpy().tolist()))  # nan == nan as text
    return result


def _same(fn):
    theirs, ours = _outcome(fn, torch), _outcome(fn, tapegrad)
    assert ours == theirs


# ---------------------------------------------------------------- 1. a list of index sequences

LIST_KEYS = {
    "list of lists": lambda T: [[0, 1], [1, 2]],
    "list of tuples": lambda T: list(zip(*[(0, 1), (1, 2)])),
    "list of tensors": lambda T: [T.tensor([0, 2]), T.tensor([1, 1])],
    "int and slice": lambda T: [0, slice(None)],
    "int and None": lambda T: [1, None],
    "int and Ellipsis": lambda T: [2, ...],
    "ints only: one index": lambda T: [0, 2],
    "32 sequences: one index": lambda T: [[0, 1]] * 32,
}


@pytest.mark.parametrize("name", LIST_KEYS)
def test_a_short_list_holding_sequences_is_a_tuple_of_indices(name):
    _same(lambda T: T.arange(9.).view(3, 3)[LIST_KEYS[name](T)])


@pytest.mark.parametrize("name", LIST_KEYS)
def test_assignment_with_a_list_of_sequences(name):
    def run(T):
        a = T.zeros(3, 3)
        a[LIST_KEYS[name](T)] = 1
        return a
    _same(run)


def test_the_list_key_warns_as_pytorch_does():
    with pytest.warns(UserWarning, match="Using a non-tuple sequence for multidimensional "
                                         "indexing is deprecated"):
        tapegrad.zeros(3, 3)[[[0, 1], [1, 2]]]


# ---------------------------------------------------------------- 2. writes into expand()ed tensors

EXPANDED_WRITES = {
    "e[0, 1] = 5": lambda T, e: e.__setitem__((0, 1), 5.0),
    "e[2].add_(1)": lambda T, e: e[2].add_(1),
    "fill_": lambda T, e: e.fill_(-1),
    "zero_": lambda T, e: e.zero_(),
    "fill_ with a tensor": lambda T, e: e.fill_(T.tensor(-1.0)),
    "e[idx, 1] = 5": lambda T, e: e.__setitem__((T.tensor([0, 2]), 1), 5.0),
    "e[idx] = 5": lambda T, e: e.__setitem__(T.tensor([0, 2]), 5.0),
    "masked_fill_": lambda T, e: e.masked_fill_(T.tensor([True, False, True]), 2.0),
    "index_fill_": lambda T, e: e.index_fill_(1, T.tensor([0]), 3.0),
    "index_put_ accumulate": lambda T, e: e.index_put_((T.tensor([0]),), T.ones(3),
                                                        accumulate=True),
    "e[0:1] = 1": lambda T, e: e.__setitem__(slice(0, 1), 1.0),
    "e[:, 0] = 9": lambda T, e: e.__setitem__((slice(None), 0), 9.0),
    "e[:] = 1": lambda T, e: e.__setitem__(slice(None), 1.0),
    "e[...] = 1": lambda T, e: e.__setitem__(Ellipsis, 1.0),
    "e[0:2] = 1": lambda T, e: e.__setitem__(slice(0, 2), 1.0),
    "add_": lambda T, e: e.add_(1),
    "copy_": lambda T, e: e.copy_(T.ones(4, 3)),
    "scatter_add_": lambda T, e: e.scatter_add_(0, T.zeros(1, 3, dtype=T.long), T.ones(1, 3)),
    "index_add_": lambda T, e: e.index_add_(0, T.tensor([0]), T.ones(1, 3)),
    "index_copy_": lambda T, e: e.index_copy_(0, T.tensor([0]), T.ones(1, 3)),
    "uniform_": lambda T, e: e.uniform_(),
}


@pytest.mark.parametrize("name", EXPANDED_WRITES)
def test_writes_into_an_expanded_tensor(name):
    def run(T):
        base = T.zeros(3)
        expanded = base.expand(4, 3)
        EXPANDED_WRITES[name](T, expanded)
        return expanded, base
    _same(run)


@pytest.mark.parametrize("name", ["e[0, 1] = 5", "fill_", "e[idx, 1] = 5", "add_"])
def test_writes_into_an_expanded_tensor_with_history(name):
    def run(T):
        leaf = T.zeros(3, requires_grad=True)
        base = leaf * 1
        EXPANDED_WRITES[name](T, base.expand(4, 3))
        (base * T.arange(3.0)).sum().backward()
        return base, base.grad_fn.name(), leaf.grad
    _same(run)


def test_an_overlapping_write_through_as_strided_is_refused():
    _same(lambda T: T.as_strided(T.zeros(3), (4, 3), (0, 1)).mul_(2))


def test_index_writes_into_an_expanded_tensor_warn():
    with pytest.warns(UserWarning, match="Use of index_put_ on expanded tensors is deprecated"):
        tapegrad.zeros(3).expand(4, 3)[tapegrad.tensor([0])] = 1.0
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors"):
        tapegrad.zeros(3).expand(4, 3).masked_fill_(tapegrad.tensor([True, False, True]), 1.0)


# ---------------------------------------------------------------- 3. index checks

INDICES = {
    "negative": lambda T: T.tensor([1, -1]),
    "too large": lambda T: T.tensor([1, 4]),
    "too small": lambda T: T.tensor([-5]),
    "float": lambda T: T.tensor([1.0, 2.0]),
    "2-d": lambda T: T.tensor([[0, 1], [1, 2]]),
    "int32": lambda T: T.tensor([0, 1], dtype=T.int32),
    "int16": lambda T: T.tensor([0, 1], dtype=T.int16),
    "bool": lambda T: T.tensor([True, False]),
    "0-d": lambda T: T.tensor(1),
}


@pytest.mark.parametrize("shape", [(4, 2), (4,)])
@pytest.mark.parametrize("op", ["index_add_", "index_add", "index_copy_", "index_fill_",
                                "index_select"])
@pytest.mark.parametrize("index", INDICES)
def test_index_checks(op, index, shape):
    def run(T):
        positions = INDICES[index](T)
        source = T.ones((positions.numel(),) + shape[1:])
        target = T.zeros(shape)
        if op == "index_add":
            return T.index_add(target, 0, positions, source)
        if op == "index_fill_":
            return target.index_fill_(0, positions, 2.0)
        if op == "index_select":
            return target.index_select(0, positions)
        return getattr(target, op)(0, positions, source)
    _same(run)


# ---------------------------------------------------------------- 4. segment_reduce

REDUCTIONS = ["sum", "mean", "max", "min", "prod", "amax", "amin"]
DATA = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [-1.0, 0.0], [9.0, 10.0]]


@pytest.mark.parametrize("initial", [None, 0.5])
@pytest.mark.parametrize("reduce", REDUCTIONS)
def test_segment_reduce_values_gradients_and_node(reduce, initial):
    def run(T):
        x = T.tensor(DATA, requires_grad=True)
        y = T.segment_reduce(x, reduce, lengths=T.tensor([2, 0, 3]), initial=initial)
        (grad,) = T.autograd.grad((y * T.arange(6.0).view(3, 2)).sum(), x)
        return y, grad, y.grad_fn.name()
    _same(run)


SEGMENT_CASES = {
    "offsets": lambda T: T.segment_reduce(T.tensor(DATA), "sum",
                                          offsets=T.tensor([0, 2, 2, 5])),
    "offsets from 1": lambda T: T.segment_reduce(T.tensor(DATA), "max",
                                                 offsets=T.tensor([1, 3])),
    "2-d lengths along axis 1": lambda T: T.segment_reduce(
        T.tensor([[1.0, 2, 3], [4, 5, 6]]), "sum", lengths=T.tensor([[1, 2, 0], [3, 0, 0]]),
        axis=1),
    "2-d offsets along axis 1": lambda T: T.segment_reduce(
        T.tensor([[1.0, 2, 3], [4, 5, 6]]), "mean",
        offsets=T.tensor([[0, 1, 3, 3], [0, 3, 3, 3]]), axis=1),
    "negative axis": lambda T: T.segment_reduce(T.tensor([[1.0, 2, 3], [4, 5, 6]]), "sum",
                                                lengths=T.tensor([1, 1]), axis=-2),
    "unsafe, shorter": lambda T: T.segment_reduce(T.tensor([1.0, 2, 3]), "max",
                                                  lengths=T.tensor([1, 1, 0]), unsafe=True),
    "int32 lengths": lambda T: T.segment_reduce(
        T.tensor([1.0, 2, 3], dtype=T.float64), "mean",
        lengths=T.tensor([1, 2, 0], dtype=T.int32)),
    "empty": lambda T: T.segment_reduce(T.tensor([]), "sum", lengths=T.tensor([0, 0])),
    "indices": lambda T: T.segment_reduce(T.tensor(DATA), "sum", indices=T.tensor([0, 0, 2])),
    "bad sum": lambda T: T.segment_reduce(T.tensor(DATA), "sum", lengths=T.tensor([2, 2])),
    "bad axis": lambda T: T.segment_reduce(T.tensor(DATA), "sum", lengths=T.tensor([2, 3]),
                                           axis=1),
    "bad reduce": lambda T: T.segment_reduce(T.tensor(DATA), "foo", lengths=T.tensor([5])),
    "no lengths": lambda T: T.segment_reduce(T.tensor(DATA), "sum"),
    "float lengths": lambda T: T.segment_reduce(T.tensor(DATA), "sum",
                                                lengths=T.tensor([2.0, 3.0])),
    "negative lengths": lambda T: T.segment_reduce(T.tensor(DATA), "sum",
                                                   lengths=T.tensor([-1, 6])),
    "0-d lengths": lambda T: T.segment_reduce(T.tensor([1.0]), "sum", lengths=T.tensor(1)),
    "integer data": lambda T: T.segment_reduce(T.tensor([1, 2, 3]), "sum",
                                               lengths=T.tensor([1, 2])),
    "decreasing offsets": lambda T: T.segment_reduce(T.tensor(DATA), "sum",
                                                     offsets=T.tensor([0, 2, 1, 2])),
}


@pytest.mark.parametrize("name", SEGMENT_CASES)
def test_segment_reduce_cases(name):
    _same(SEGMENT_CASES[name])


@pytest.mark.parametrize("reduce, data, lengths, initial", [
    ("prod", [2.0, 0, 3, 0, 0, 4], [2, 1, 3], 2.0),   # zeros: one, none, two in a segment
    ("max", [3.0, 3, 1, 2, 2], [3, 2], None),         # ties share the gradient
    ("max", [3.0, 3, 1, 2, 2], [3, 2, 0], 5.0),       # the initial value wins
])
def test_segment_reduce_gradient_edge_cases(reduce, data, lengths, initial):
    def run(T):
        z = T.tensor(data, requires_grad=True)
        T.segment_reduce(z, reduce, lengths=T.tensor(lengths), initial=initial).sum().backward()
        return z.grad
    _same(run)


@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "prod"])
def test_segment_reduce_gradcheck(reduce):
    rng = np.random.default_rng(0)
    x = tapegrad.tensor(rng.uniform(0.5, 2.0, (2, 6, 3)), requires_grad=True)
    lengths = tapegrad.tensor([[2, 0, 4], [1, 3, 2]])
    fn = lambda x: tapegrad.segment_reduce(x, reduce, lengths=lengths, axis=1, initial=1.5)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


# ---------------------------------------------------------------- 5-7. bincount, repeat_interleave,
# unique

COUNTING = {
    "weights of another length": lambda T: T.bincount(T.tensor([0, 1, 1, 3]),
                                                      weights=T.ones(3)),
    "2-d weights": lambda T: T.bincount(T.tensor([0, 1, 1, 3]), weights=T.ones(4, 1)),
    "negative minlength": lambda T: T.bincount(T.tensor([0, 1]), minlength=-1),
    "float minlength": lambda T: T.bincount(T.tensor([0, 1]), minlength=2.0),
    "bool minlength": lambda T: T.bincount(T.tensor([0, 1]), minlength=True),
    "empty, float weights": lambda T: T.bincount(T.tensor([], dtype=T.long),
                                                 weights=T.tensor([]), minlength=3),
    "empty": lambda T: T.bincount(T.tensor([], dtype=T.long)),
    "int weights": lambda T: T.bincount(T.tensor([0, 1, 1, 3]), weights=T.tensor([1, 2, 3, 4])),
    "half weights": lambda T: T.bincount(T.tensor([0, 1, 1, 3]),
                                         weights=T.tensor([1.0, 2, 3, 4], dtype=T.half)),
    "negative input": lambda T: T.bincount(T.tensor([-1, 2])),
    "float input": lambda T: T.bincount(T.tensor([1.0, 2])),
    "weights needing grad": lambda T: T.bincount(
        T.tensor([0, 1]), weights=T.ones(2, requires_grad=True)).grad_fn.name(),
    "backward through bincount": lambda T: T.bincount(
        T.tensor([0, 1]), weights=T.ones(2, requires_grad=True)).sum().backward(),
    "negative repeats": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([-1, 2])),
    "negative int repeats": lambda T: T.repeat_interleave(T.tensor([1, 2]), -1),
    "float repeats": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([1.0, 2.0])),
    "2-d repeats": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([[1, 2]])),
    "one repeat for all": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([3])),
    "wrong output_size": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([1, 2]),
                                                       output_size=5),
    "right output_size": lambda T: T.repeat_interleave(T.tensor([1, 2]), T.tensor([1, 2]),
                                                       output_size=3),
    "wrong int output_size": lambda T: T.repeat_interleave(T.tensor([1, 2, 3]), 2,
                                                           output_size=5),
    "counts alone": lambda T: T.repeat_interleave(T.tensor([2, 0, 1])),
    "negative counts alone": lambda T: T.repeat_interleave(T.tensor([2, -1, 1])),
    "2-d counts alone": lambda T: T.repeat_interleave(T.tensor([[1, 2]])),
    "unique, dim too large": lambda T: T.unique(T.tensor([0, 1]), dim=1),
    "unique, dim too small": lambda T: T.unique(T.tensor([0, 1]), dim=-2),
    "unique of a 0-d tensor along a dim": lambda T: T.unique(T.tensor(5), dim=0),
    "unique, negative dim": lambda T: T.unique(T.tensor([[1, 0], [1, 0]]), dim=-2),
}


@pytest.mark.parametrize("name", COUNTING)
def test_counting_ops(name):
    _same(COUNTING[name])


# ---------------------------------------------------------------- 8. linear's dtype messages

@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("shape, dtype", [((1, 3), "long"), ((3,), "long"), ((2, 1, 3), "double"),
                                          ((1, 3), "half")])
def test_linear_dtype_messages(shape, dtype, bias):
    def run(T):
        x = T.ones(shape, dtype=getattr(T, dtype))
        return T.nn.functional.linear(x, T.ones(2, 3), T.zeros(2) if bias else None)
    _same(run)


# ---------------------------------------------------------------- 9. Adam's rounding

def _adam_trajectory(T, name, options, dtype, steps=20):
    """Parameters after ``steps`` updates with gradients computed in numpy from the parameters
    (the same in both libraries while the parameters are)."""
    rng = np.random.default_rng(0)
    params = [T.nn.Parameter(T.tensor(rng.standard_normal(shape).astype(dtype)))
              for shape in ((16, 5), (16,), (40,))]
    optimizer = getattr(T.optim, name)(params, **options)
    for step in range(steps):
        for p in params:
            values = p.detach().numpy()
            p.grad = T.tensor((np.sin(3 * values + step) * (step % 3 + 0.5)).astype(dtype))
        optimizer.step()
    return [p.detach().numpy().copy() for p in params]


@pytest.mark.parametrize("name", ["Adam", "AdamW"])
@pytest.mark.parametrize("options", [
    dict(lr=0.02), dict(lr=0.01, weight_decay=0.1), dict(lr=0.01, weight_decay=0.1, amsgrad=True),
    dict(lr=0.01, maximize=True, betas=(0.6, 0.7))], ids=str)
def test_adam_float32_trajectories_round_as_pytorch(name, options):
    """PyTorch's operation order (lerp_, addcmul_ and add(alpha=) as fused multiply-adds,
    addcdiv_). Where this PyTorch's float32 sqrt gives numpy's correctly rounded bits, a few
    ulps may differ in a rare element late in a trajectory, never more; on some machines it is
    often a unit off, and the trajectories are compared within a bound."""
    ours = _adam_trajectory(tapegrad, name, options, "float32")
    theirs = _adam_trajectory(torch, name, options, "float32")
    if not torch_rounds_as_numpy(torch, "sqrt", "float32", -30, 10, log2=True):
        # a sqrt a unit off moves an update by ~2**-24 of itself, a parameter's rounding by a
        # unit: measured one unit of the largest parameter after 20 steps, at most
        ours64 = _adam_trajectory(tapegrad, name, options, "float64")
        reference = _adam_trajectory(torch, name, options, "float64")
        for a, b, a64, reference64 in zip(ours, theirs, ours64, reference):
            assert_float32_as_close_as_torch(a, b, a64, reference64)
        return
    for a, b in zip(ours, theirs):
        ulps = np.abs(a.view(np.int32).astype(np.int64) - b.view(np.int32).astype(np.int64))
        assert ulps.max() <= 4 and np.mean(ulps == 0) > 0.95


def test_adam_first_step_rounds_as_pytorch():
    def run(T):
        p = T.nn.Parameter(T.tensor([0.0]))
        optimizer = T.optim.Adam([p], lr=0.02)
        p.grad = T.tensor([1.3])
        optimizer.step()
        return p.item()
    _same(run)


def test_double_backward_of_indexing_records_pytorchs_nodes():
    # the gradient of an indexing op, under create_graph, is recorded as PyTorch's backward op
    x = tapegrad.ones(4, 3, requires_grad=True)
    cases = {"SliceBackwardBackward0": lambda x: x[::2],
             "SelectBackwardBackward0": lambda x: x[1, ::2],
             "IndexPutImplBackward0": lambda x: x[[0, 2]],
             "IndexAddBackward0": lambda x: x.index_select(0, tapegrad.tensor([0, 2])),
             "ScatterAddBackward0": lambda x: x.gather(0, tapegrad.tensor([[0, 1, 2]]))}
    for name, pick in cases.items():
        (grad,) = tapegrad.autograd.grad(pick(x).pow(2).sum(), x, create_graph=True)
        assert grad.grad_fn.name() == name
        (second,) = tapegrad.autograd.grad(grad.sum(), x)
        assert second.shape == x.shape
