"""Differential tests: every op of the table against PyTorch itself.

For each row of ``test_ops_gradcheck.CASES`` and for float32 and float64 inputs: the forward values,
the first and second derivatives, and the recorded graph (``grad_fn`` class names and the shape of
``next_functions``) equal PyTorch's. Property-based tests then draw random shapes (broadcasting
pairs, 0-d) and values (ties and zeros included) for the elementwise ops and the reductions.
"""
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad
from test_ops_gradcheck import CASE_IDS, CASES, make_arrays

torch = pytest.importorskip("torch")

DTYPES = {"float32": (tapegrad.float32, torch.float32),
          "float64": (tapegrad.float64, torch.float64)}
TOLERANCES = {"float32": dict(rtol=2e-5, atol=2e-5), "float64": dict(rtol=1e-10, atol=1e-12)}


# ------------------------------------------------------------------------------------- helpers

def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _numpy(t):
    return t.detach().numpy(force=True)  # force: PyTorch's second derivatives may be ZeroTensors


def assert_same_values(ours, theirs, tol):
    """Two tensors (or tuples of them) with equal shapes, dtypes and values."""
    ours, theirs = _as_tuple(ours), _as_tuple(theirs)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if a is None or b is None:
            assert a is None and b is None or _all_zero(a) or _all_zero(b)
            continue
        assert tuple(a.shape) == tuple(b.shape)
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(_numpy(a), _numpy(b), equal_nan=True, **tol)


def _all_zero(t):
    """PyTorch may return an explicit zero gradient where tapegrad returns None, or vice versa."""
    return t is not None and not np.any(_numpy(t))


def graph_of(tensor):
    """The recorded graph below ``tensor`` as nested (node name, [children]) with None for inputs
    that need no grad; iterative, so deep graphs cannot overflow the stack."""
    root = [tensor.grad_fn]
    stack = [(tensor.grad_fn, root, 0)]
    while stack:
        node, parent, index = stack.pop()
        if node is None:
            parent[index] = None
            continue
        children = [None] * len(node.next_functions)
        parent[index] = (type(node).__name__, children)
        for i, (child, _) in enumerate(node.next_functions):
            stack.append((child, children, i))
    return root[0]


def run_both(fn, arrays, dtype_name):
    """``fn`` applied with tapegrad and with torch to leaves holding the same values."""
    ours_dtype, torch_dtype = DTYPES[dtype_name]
    ours_in = [tapegrad.tensor(a, dtype=ours_dtype, requires_grad=True) for a in arrays]
    torch_in = [torch.tensor(a, dtype=torch_dtype, requires_grad=True) for a in arrays]
    return (ours_in, _as_tuple(fn(tapegrad, *ours_in))), (torch_in, _as_tuple(fn(torch, *torch_in)))


def _float_outputs(outputs):
    return [o for o in outputs if o.is_floating_point() and o.requires_grad]


def compare_gradients(ours, theirs, tol, seed=1, second_order=False):
    """First derivatives for a random cotangent, and (optionally) second derivatives."""
    (ours_in, ours_out), (torch_in, torch_out) = ours, theirs
    ours_out, torch_out = _float_outputs(ours_out), _float_outputs(torch_out)
    assert len(ours_out) == len(torch_out)
    rng = np.random.default_rng(seed)
    cotangents = [rng.standard_normal(tuple(o.shape)) for o in torch_out]
    ours_cotangents = [tapegrad.tensor(c, dtype=o.dtype) for c, o in zip(cotangents, ours_out)]
    torch_cotangents = [torch.tensor(c, dtype=o.dtype) for c, o in zip(cotangents, torch_out)]
    ours_grads = tapegrad.autograd.grad(ours_out, ours_in, ours_cotangents, allow_unused=True,
                                        create_graph=second_order)
    torch_grads = torch.autograd.grad(torch_out, torch_in, torch_cotangents, allow_unused=True,
                                      create_graph=second_order)
    assert_same_values(ours_grads, torch_grads, tol)
    if second_order:
        weights = [rng.standard_normal(tuple(x.shape)) for x in torch_in]
        assert_same_values(_second_derivatives(tapegrad, ours_grads, ours_in, weights),
                           _second_derivatives(torch, torch_grads, torch_in, weights), tol)


def _second_derivatives(T, grads, inputs, weights):
    """d(sum_i <grad_i, w_i>)/d(inputs); a gradient that recorded no graph contributes zero
    (tapegrad's relu rule, for one, is a constant mask where PyTorch's is a differentiable op)."""
    terms = [(g * T.tensor(w, dtype=g.dtype)).sum()
             for g, w in zip(grads, weights) if g is not None and g.requires_grad]
    if not terms:
        return tuple(None for _ in inputs)
    return T.autograd.grad(sum(terms), inputs, allow_unused=True)


# ------------------------------------------------------------------------------- the table's rows

@pytest.mark.parametrize("dtype_name", DTYPES)
@pytest.mark.parametrize("op_case", CASES, ids=CASE_IDS)
def test_forward_and_gradients_match_torch(op_case, dtype_name):
    tol = TOLERANCES[dtype_name]
    ours, theirs = run_both(op_case.fn, make_arrays(op_case, seed=3), dtype_name)
    assert_same_values(ours[1], theirs[1], tol)
    compare_gradients(ours, theirs, tol, second_order=dtype_name == "float64")


@pytest.mark.parametrize("op_case", CASES, ids=CASE_IDS)
def test_recorded_graph_matches_torch(op_case):
    """grad_fn class names and next_functions (None vs node) equal PyTorch's, all the way down."""
    (_, ours), (_, theirs) = run_both(op_case.fn, make_arrays(op_case), "float32")
    assert [graph_of(o) for o in ours] == [graph_of(o) for o in theirs]


# ----------------------------------------------------------------------- property-based: values

FLOATS = st.floats(-3, 3, allow_nan=False, width=32)
AWAY_FROM_ZERO = st.floats(0.25, 3, width=32).flatmap(lambda v: st.sampled_from([v, -v]))
POSITIVE = st.floats(0.25, 3, width=32)
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)


def _array(shape, elements):
    return hnp.arrays(np.float64, shape, elements=elements)


BINARY = {
    "add": (lambda T, a, b: a + b, FLOATS, FLOATS),
    "sub": (lambda T, a, b: a - b, FLOATS, FLOATS),
    "mul": (lambda T, a, b: a * b, FLOATS, FLOATS),
    "div": (lambda T, a, b: a / b, FLOATS, AWAY_FROM_ZERO),
    "pow": (lambda T, a, b: a ** b, POSITIVE, FLOATS),
    "maximum": (lambda T, a, b: T.maximum(a, b), FLOATS, FLOATS),
    "minimum": (lambda T, a, b: T.minimum(a, b), FLOATS, FLOATS),
    "where": (lambda T, a, b: T.where(a > b, a, b * 2), FLOATS, FLOATS),
}


@st.composite
def binary_inputs(draw):
    name = draw(st.sampled_from(sorted(BINARY)))
    fn, first, second = BINARY[name]
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                    max_side=4)).input_shapes
    return name, fn, [draw(_array(shapes[0], first)), draw(_array(shapes[1], second))]


@PROPERTY_SETTINGS
@given(inputs=binary_inputs(), dtype_name=st.sampled_from(sorted(DTYPES)))
def test_binary_ops_match_torch_on_random_broadcasting_inputs(inputs, dtype_name):
    name, fn, arrays = inputs
    tol = TOLERANCES[dtype_name]
    ours, theirs = run_both(fn, arrays, dtype_name)
    assert_same_values(ours[1], theirs[1], tol)
    compare_gradients(ours, theirs, tol)
    assert graph_of(ours[1][0]) == graph_of(theirs[1][0])


SCALAR_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
                    "**": operator.pow}


@PROPERTY_SETTINGS
@given(shape=SHAPES, value=FLOATS, data=st.data(),
       reflected=st.booleans(), dtype_name=st.sampled_from(sorted(DTYPES)))
def test_ops_with_python_scalars_match_torch(shape, value, data, reflected, dtype_name):
    op = data.draw(st.sampled_from(sorted(SCALAR_OPERATORS)))
    array = data.draw(_array(shape, POSITIVE if op in ("/", "**") else FLOATS))
    if op in ("/", "**") and reflected:
        value = abs(value) + 0.5
    apply = SCALAR_OPERATORS[op]

    def fn(T, a):
        return apply(value, a) if reflected else apply(a, value)

    tol = TOLERANCES[dtype_name]
    ours, theirs = run_both(fn, [array], dtype_name)
    assert_same_values(ours[1], theirs[1], tol)
    compare_gradients(ours, theirs, tol)
    assert graph_of(ours[1][0]) == graph_of(theirs[1][0])


UNARY = {
    "neg": (lambda T, a: -a, FLOATS),
    "exp": (lambda T, a: a.exp(), FLOATS),
    "log": (lambda T, a: a.log(), POSITIVE),
    "sqrt": (lambda T, a: a.sqrt(), POSITIVE),
    "reciprocal": (lambda T, a: a.reciprocal(), AWAY_FROM_ZERO),
    "abs": (lambda T, a: a.abs(), FLOATS),
    "tanh": (lambda T, a: a.tanh(), FLOATS),
    "sigmoid": (lambda T, a: a.sigmoid(), FLOATS),
    "relu": (lambda T, a: a.relu(), FLOATS),
    "sin": (lambda T, a: a.sin(), FLOATS),
    "cos": (lambda T, a: a.cos(), FLOATS),
    "clamp": (lambda T, a: a.clamp(-0.5, 0.5), FLOATS),
    "square": (lambda T, a: a ** 2, FLOATS),
}


@PROPERTY_SETTINGS
@given(name=st.sampled_from(sorted(UNARY)), shape=SHAPES, data=st.data(),
       dtype_name=st.sampled_from(sorted(DTYPES)))
def test_unary_ops_match_torch_on_random_inputs(name, shape, data, dtype_name):
    fn, elements = UNARY[name]
    tol = TOLERANCES[dtype_name]
    ours, theirs = run_both(fn, [data.draw(_array(shape, elements))], dtype_name)
    assert_same_values(ours[1], theirs[1], tol)
    compare_gradients(ours, theirs, tol)
    assert graph_of(ours[1][0]) == graph_of(theirs[1][0])


REDUCTIONS = {
    "sum": lambda T, a, dims, keepdim: a.sum(dims, keepdim=keepdim),
    "mean": lambda T, a, dims, keepdim: a.mean(dims, keepdim=keepdim),
    "amax": lambda T, a, dims, keepdim: a.amax(dims, keepdim=keepdim),
    "amin": lambda T, a, dims, keepdim: T.amin(a, dims, keepdim),
    "var": lambda T, a, dims, keepdim: a.var(dims, keepdim=keepdim, correction=0),
    "logsumexp": lambda T, a, dims, keepdim: a.logsumexp(dims, keepdim=keepdim),
    "max-dim": lambda T, a, dims, keepdim: a.max(dims[0], keepdim=keepdim),
    "min-dim": lambda T, a, dims, keepdim: a.min(dims[0], keepdim=keepdim),
    "softmax": lambda T, a, dims, keepdim: a.softmax(dims[0]),
    "log_softmax": lambda T, a, dims, keepdim: a.log_softmax(dims[0]),
}


@st.composite
def reduction_inputs(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    ndim = len(shape)
    dims = draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim,
                         unique_by=lambda d: d % ndim))
    return shape, tuple(dims), draw(st.booleans())


@PROPERTY_SETTINGS
@given(name=st.sampled_from(sorted(REDUCTIONS)), inputs=reduction_inputs(), data=st.data(),
       dtype_name=st.sampled_from(sorted(DTYPES)))
def test_reductions_match_torch_over_random_dims(name, inputs, data, dtype_name):
    shape, dims, keepdim = inputs
    elements = st.floats(-3, 3, width=32) if name != "max-dim" and name != "min-dim" else \
        st.integers(-50, 50).map(float)  # ties go to the first index in both libraries
    array = data.draw(_array(shape, elements))
    tol = {"float32": dict(rtol=1e-4, atol=1e-5), "float64": TOLERANCES["float64"]}[dtype_name]
    fn = REDUCTIONS[name]
    ours, theirs = run_both(lambda T, a: fn(T, a, dims, keepdim), [array], dtype_name)
    assert_same_values(ours[1], theirs[1], tol)
    compare_gradients(ours, theirs, tol)
    assert graph_of(ours[1][0]) == graph_of(theirs[1][0])


@PROPERTY_SETTINGS
@given(inputs=reduction_inputs(), data=st.data())
def test_std_matches_torch_over_random_dims(inputs, data):
    """std away from zero spread (its derivative is infinite for constant slices)."""
    shape, dims, keepdim = inputs
    array = data.draw(_array(shape, st.floats(-3, 3)))
    array = array + np.arange(array.size).reshape(shape)  # no constant slice
    ours, theirs = run_both(lambda T, a: a.std(dims, keepdim=keepdim), [array], "float64")
    assert_same_values(ours[1], theirs[1], TOLERANCES["float64"])
    compare_gradients(ours, theirs, TOLERANCES["float64"])


@pytest.mark.parametrize("dims", [None, 1, (0, 1)])
def test_std_of_a_constant_slice_gets_a_zero_gradient_as_torchs(dims):
    array = np.array([[1.0, 1.0, 1.0], [2.0, 3.0, 5.0]]) if dims == 1 else np.full((2, 3), 4.0)
    ours, theirs = run_both(lambda T, a: a.std(dims) if dims is not None else a.std(),
                            [array], "float64")
    compare_gradients(ours, theirs, TOLERANCES["float64"])  # nan for 0/0 would differ
