"""Pointwise math PyTorch programs use: inverse hyperbolic functions and numpy's ``arc*`` names,
the in-place forms (``asinh_`` …), erfc, sinc, i0, ``torch.special`` (entr, ndtr, ndtri, log_ndtr,
erfcx, the Bessel functions i0e/i1/i1e, zeta, multigammaln, …) and the constants ``torch.pi`` ….

Every function against PyTorch: values across the domain (edges, inf and nan included), the node
it records, its gradient, its errors; every new primitive against finite differences in float64.
"""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-300, -1e-300, 1e-8, 8.0, -8.0, 26.7, -26.7, 40.0,
         -40.0, 1e10, -1e10, 1e300, math.inf, -math.inf, math.nan]


def _edges_and_spread(seed=0):
    rng = np.random.default_rng(seed)
    return np.concatenate([EDGES, rng.normal(0, 1, 200), rng.normal(0, 10, 200),
                           rng.uniform(-1, 1, 100), rng.uniform(0, 1, 100), 10 ** rng.uniform(
                               -300, 0, 50), rng.uniform(0.9, 1.1, 50)])


VALUES = _edges_and_spread()

# (id, f(module, x), domain of the gradient check: where the function is smooth)
UNARY = [
    ("asinh", lambda T, x: T.asinh(x), (-3, 3)),
    ("acosh", lambda T, x: T.acosh(x), (1.2, 4)),
    ("atanh", lambda T, x: T.atanh(x), (-0.9, 0.9)),
    ("arcsinh", lambda T, x: T.arcsinh(x), (-3, 3)),
    ("arccosh", lambda T, x: T.arccosh(x), (1.2, 4)),
    ("arctanh", lambda T, x: T.arctanh(x), (-0.9, 0.9)),
    ("arcsin", lambda T, x: T.arcsin(x), (-0.9, 0.9)),
    ("arccos", lambda T, x: T.arccos(x), (-0.9, 0.9)),
    ("arctan", lambda T, x: T.arctan(x), (-3, 3)),
    ("erfc", lambda T, x: T.erfc(x), (-3, 3)),
    ("sinc", lambda T, x: T.sinc(x), (-3, 3)),
    ("i0", lambda T, x: T.i0(x), (-10, 10)),
    ("method_asinh", lambda T, x: x.arcsinh(), (-3, 3)),
    ("method_i0", lambda T, x: x.i0(), (-3, 3)),
    ("special.erfc", lambda T, x: T.special.erfc(x), (-3, 3)),
    ("special.sinc", lambda T, x: T.special.sinc(x), (-3, 3)),
    ("special.i0", lambda T, x: T.special.i0(x), (-10, 10)),
    ("special.i0e", lambda T, x: T.special.i0e(x), (-10, 10)),
    ("special.i1", lambda T, x: T.special.i1(x), (-10, 10)),
    ("special.i1e", lambda T, x: T.special.i1e(x), (-10, 10)),
    ("special.entr", lambda T, x: T.special.entr(x), (0.1, 3)),
    ("special.ndtr", lambda T, x: T.special.ndtr(x), (-4, 4)),
    ("special.log_ndtr", lambda T, x: T.special.log_ndtr(x), (-30, 5)),
    ("special.ndtri", lambda T, x: T.special.ndtri(x), (0.01, 0.99)),
    ("special.erfcx", lambda T, x: T.special.erfcx(x), (-3, 30)),
    ("special.gammaln", lambda T, x: T.special.gammaln(x), (0.5, 5)),
    ("special.psi", lambda T, x: T.special.psi(x), (0.5, 5)),
    ("special.digamma", lambda T, x: T.special.digamma(x), (0.5, 5)),
    ("special.polygamma", lambda T, x: T.special.polygamma(2, x), (0.5, 5)),
    ("special.multigammaln", lambda T, x: T.special.multigammaln(x, 3), (1.5, 5)),
    ("special.exp2", lambda T, x: T.special.exp2(x), (-3, 3)),
    ("special.expm1", lambda T, x: T.special.expm1(x), (-3, 3)),
    ("special.log1p", lambda T, x: T.special.log1p(x), (-0.5, 3)),
    ("special.expit", lambda T, x: T.special.expit(x), (-3, 3)),
    ("special.logit", lambda T, x: T.special.logit(x), (0.1, 0.9)),
    ("special.xlog1py_number", lambda T, x: T.special.xlog1py(x, 2.0), (-3, 3)),
    ("special.xlog1py_number_self", lambda T, x: T.special.xlog1py(2.0, x), (0.1, 3)),
    ("special.zeta_number_self", lambda T, x: T.special.zeta(3.0, x), (0.5, 3)),
]
# forward only: differentiable nowhere (zeta in x) or with zero gradient (round)
FORWARD_ONLY = [
    ("special.round", lambda T, x: T.special.round(x)),
    ("special.zeta_number_other", lambda T, x: T.special.zeta(x, 2.0)),
    ("special.zeta", lambda T, x: T.special.zeta(x, x * 0.5 + 1)),
]


def _ours_and_torch(values, dtype="float64", requires_grad=False):
    ours = tapegrad.tensor(values, dtype=getattr(tapegrad, dtype), requires_grad=requires_grad)
    theirs = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=requires_grad)
    return ours, theirs


def assert_matches(ours, theirs, rtol=1e-14, atol=0.0):
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=rtol,
                               atol=atol, equal_nan=True)


@pytest.mark.parametrize("id_, f", [(u[0], u[1]) for u in UNARY] + FORWARD_ONLY,
                         ids=[u[0] for u in UNARY] + [u[0] for u in FORWARD_ONLY])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_match_pytorch_across_the_domain(id_, f, dtype):
    if dtype == "float64":
        ours, theirs = _ours_and_torch(VALUES, dtype)
        assert_matches(f(tapegrad, ours), f(torch, theirs), rtol=2e-14, atol=1e-300)
    else:  # tapegrad computes in float64 and rounds: as PyTorch's float32 kernels, but at poles
        values = VALUES[(np.abs(VALUES) < 1e30) & ~((VALUES <= 0) & (VALUES == np.floor(VALUES)))]
        ours, theirs = _ours_and_torch(values, dtype)
        assert_matches(f(tapegrad, ours), f(torch, theirs), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("id_, f, domain", UNARY, ids=[u[0] for u in UNARY])
def test_node_and_gradient_match_pytorch(id_, f, domain):
    values = np.random.default_rng(1).uniform(*domain, 12)
    ours, theirs = _ours_and_torch(values, requires_grad=True)
    out_ours, out_theirs = f(tapegrad, ours), f(torch, theirs)
    if id_ != "special.ndtr":  # PyTorch composes ndtr: its graph starts MulBackward1
        assert type(out_ours.grad_fn).__name__ == out_theirs.grad_fn.name()
    weights = np.linspace(0.5, 1.5, 12)
    (out_ours * tapegrad.tensor(weights)).sum().backward()
    (out_theirs * torch.tensor(weights)).sum().backward()
    assert_matches(ours.grad, theirs.grad, rtol=1e-12)


@pytest.mark.parametrize("id_, f, domain", UNARY, ids=[u[0] for u in UNARY])
def test_gradcheck_float64(id_, f, domain):
    x = tapegrad.tensor(np.random.default_rng(2).uniform(*domain, 5), requires_grad=True)
    assert gradcheck(lambda t: f(tapegrad, t), (x,))
    assert gradgradcheck(lambda t: f(tapegrad, t), (x,))


@pytest.mark.parametrize("name", ["asinh", "acosh", "atanh", "arcsin", "arccos", "arctan",
                                  "arcsinh", "arccosh", "arctanh", "erfc", "sinc", "i0"])
def test_integer_inputs_compute_in_the_default_dtype(name):
    ours, theirs = _ours_and_torch([0, 1, 2, 3], "int64")
    assert_matches(getattr(tapegrad, name)(ours), getattr(torch, name)(theirs), rtol=1e-6)
    ours, theirs = _ours_and_torch([True, False], "bool")
    assert_matches(getattr(tapegrad, name)(ours), getattr(torch, name)(theirs), rtol=1e-6)


@pytest.mark.parametrize("name", ["entr", "ndtr", "ndtri", "log_ndtr", "erfcx", "i0e", "i1",
                                  "i1e", "gammaln", "psi"])
def test_special_integer_inputs_compute_in_the_default_dtype(name):
    ours, theirs = _ours_and_torch([0, 1, 2], "int64")
    assert_matches(getattr(tapegrad.special, name)(ours), getattr(torch.special, name)(theirs),
                   rtol=1e-6)


# ------------------------------------------------------------------------------- in place

INPLACE = {  # name: domain where it is defined
    "asinh_": (-2, 2), "acosh_": (1.2, 3), "atanh_": (-0.9, 0.9), "arcsin_": (-0.9, 0.9),
    "arccos_": (-0.9, 0.9), "arctan_": (-2, 2), "arcsinh_": (-2, 2), "arccosh_": (1.2, 3),
    "arctanh_": (-0.9, 0.9), "acos_": (-0.9, 0.9), "asin_": (-0.9, 0.9), "atan_": (-2, 2),
    "cosh_": (-2, 2), "sinh_": (-2, 2), "tan_": (-1, 1), "erf_": (-2, 2), "erfc_": (-2, 2),
    "exp2_": (-2, 2), "expm1_": (-2, 2), "log10_": (0.5, 2), "log1p_": (0.5, 2),
    "log2_": (0.5, 2), "rsqrt_": (0.5, 2), "logit_": (0.1, 0.9), "sinc_": (-2, 2),
    "i0_": (-2, 2), "lgamma_": (0.5, 3), "digamma_": (0.5, 3),
}


def test_inplace_names_are_where_pytorch_has_them():
    names = list(INPLACE) + ["atan2_", "arctan2_", "polygamma_", "mvlgamma_"]
    for name in names:
        assert hasattr(tapegrad.Tensor, name), name
        assert hasattr(tapegrad, name) == hasattr(torch, name), name


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_on_a_non_leaf_matches_pytorch(name):
    values = np.random.default_rng(3).uniform(*INPLACE[name], 6)
    ours, theirs = _ours_and_torch(values, requires_grad=True)
    results = []
    for T, leaf in ((tapegrad, ours), (torch, theirs)):
        y = leaf * 1.0
        returned = getattr(y, name)()
        assert returned is y and y._version == 1
        node = type(y.grad_fn).__name__ if T is tapegrad else y.grad_fn.name()
        try:
            (y * y).sum().backward()
        except NotImplementedError as error:  # acosh_: PyTorch has no derivative for it
            results.append((y, node, str(error)))
        else:
            results.append((y, node, ours.grad if T is tapegrad else theirs.grad))
    assert results[0][1] == results[1][1]
    assert_matches(results[0][0], results[1][0], rtol=1e-14)
    if isinstance(results[1][2], str):
        assert results[0][2] == results[1][2]
    else:
        assert_matches(results[0][2], results[1][2], rtol=1e-12)


@pytest.mark.parametrize("name", ["atan_", "erfc_", "i0_", "sinc_", "logit_"])
def test_inplace_on_a_view_and_on_a_leaf_match_pytorch(name):
    values = np.random.default_rng(4).uniform(0.2, 0.8, (3, 4))
    ours, theirs = _ours_and_torch(values, requires_grad=True)
    for leaf in (ours, theirs):
        base = leaf * 2.0
        getattr(base[1], name)()
        base.sum().backward()
    assert_matches(ours.grad, theirs.grad, rtol=1e-12)
    with pytest.raises(RuntimeError) as theirs_error:
        getattr(theirs, name)()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad") as ours_error:
        getattr(ours, name)()
    assert str(ours_error.value) == str(theirs_error.value)


@pytest.mark.parametrize("name", ["asinh_", "arccos_", "erfc_", "i0_", "tan_", "rsqrt_",
                                  "lgamma_"])
def test_inplace_refuses_an_integer_tensor_as_pytorch(name):
    with pytest.raises(RuntimeError) as theirs:
        getattr(torch.tensor([1, 2]), name)()
    with pytest.raises(RuntimeError) as ours:
        getattr(tapegrad.tensor([1, 2]), name)()
    assert str(ours.value) == str(theirs.value)


def test_inplace_functions_with_arguments():
    values = np.array([0.2, 0.5, 0.9])
    for T in (tapegrad, torch):
        x = T.tensor(values)
        T.logit_(x, eps=0.3)
        y = T.tensor(values)
        y.polygamma_(2)
        z = T.tensor(values + 2)
        z.mvlgamma_(2)
        w = T.tensor(values)
        w.atan2_(T.tensor([1.0, -1.0, 2.0]))
        v = T.tensor(values)
        v.arctan2_(T.tensor([1.0, -1.0, 2.0]))
        results = [x, y, z, w, v, T.tensor(values).polygamma(0), T.tensor(values).polygamma(3)]
        if T is tapegrad:
            ours = results
    for a, b in zip(ours, results):
        assert_matches(a, b)


# --------------------------------------------------------------------- overloads and errors


def test_zeta_overloads_nodes_and_gradient():
    q_ours, q_theirs = _ours_and_torch([0.5, 1.5, 3.0], requires_grad=True)
    for (T, q) in ((tapegrad, q_ours), (torch, q_theirs)):
        x = T.tensor([2.0, 3.0, 4.5])
        both, number_self, number_other = T.special.zeta(x, q), T.special.zeta(2, q), \
            T.special.zeta(q, 2)
        names = [type(t.grad_fn).__name__ if T is tapegrad else t.grad_fn.name()
                 for t in (both, number_self, number_other)]
        (both + number_self).sum().backward()
        if T is tapegrad:
            ours_names = names
            with pytest.raises(NotImplementedError) as ours_error:
                number_other.sum().backward()
        else:
            with pytest.raises(NotImplementedError) as theirs_error:
                number_other.sum().backward()
    assert ours_names == names == ["SpecialZetaBackward0", "SpecialZetaBackward1",
                                   "SpecialZetaBackward2"]
    assert_matches(q_ours.grad, q_theirs.grad, rtol=1e-13)
    assert str(ours_error.value) == str(theirs_error.value)


def test_zeta_integer_arguments_and_edges():
    x = [1.0, 0.5, 2.0, 2.0, 3.0, math.inf, 2.0, math.nan, 4.0]
    q = [1.0, 1.0, -2.0, -2.5, -2.5, 1.0, math.inf, 1.0, 1e-300]
    (x_ours, x_theirs), (q_ours, q_theirs) = _ours_and_torch(x), _ours_and_torch(q)
    assert_matches(tapegrad.special.zeta(x_ours, q_ours), torch.special.zeta(x_theirs, q_theirs))
    assert_matches(tapegrad.special.zeta(tapegrad.tensor([2, 3]), 1),
                   torch.special.zeta(torch.tensor([2, 3]), 1), rtol=1e-6)


def test_xlog1py_nodes_for_numbers():
    for (T, name) in ((tapegrad, None), (torch, None)):
        x = T.tensor([0.0, 0.5, 2.0], requires_grad=True)
        got = [T.special.xlog1py(x, 2.0), T.special.xlog1py(2.0, x), T.special.xlog1py(x, x)]
        names = [type(t.grad_fn).__name__ if T is tapegrad else t.grad_fn.name() for t in got]
        if T is tapegrad:
            ours_names = names
    assert ours_names == names


def test_multigammaln_checks_p_and_records_its_node():
    for T in (tapegrad, torch):
        with pytest.raises(RuntimeError, match="p has to be greater than or equal to 1"):
            T.special.multigammaln(T.tensor([3.0]), 0)
    x = tapegrad.tensor([2.5, 3.5], requires_grad=True)
    assert type(tapegrad.mvlgamma(x, 2).grad_fn).__name__ == "MvlgammaBackward0"


def test_special_namespace_and_constants():
    for name in ["entr", "ndtr", "ndtri", "log_ndtr", "erfcx", "xlog1py", "i0", "i0e", "i1",
                 "i1e", "sinc", "multigammaln", "expit", "logit", "softmax", "log_softmax",
                 "round", "exp2", "expm1", "log1p", "gammaln", "psi", "digamma", "polygamma",
                 "zeta", "erfc"]:
        assert hasattr(tapegrad.special, name), name
    assert (tapegrad.pi, tapegrad.e, tapegrad.inf) == (torch.pi, torch.e, torch.inf)
    assert math.isnan(tapegrad.nan) and tapegrad.newaxis is None is torch.newaxis
    x = tapegrad.arange(6).reshape(2, 3)
    assert x[:, tapegrad.newaxis].shape == (2, 1, 3)


SIGNED_ZERO_CASES = {
    "relu": lambda lib, x: lib.relu(x),
    "clamp(min)": lambda lib, x: x.clamp(min=0.0),
    "clamp(max)": lambda lib, x: x.clamp(max=0.0),
    "clamp(min, max)": lambda lib, x: x.clamp(0.0, 0.0),
    "elu": lambda lib, x: lib.nn.functional.elu(x),
    "selu": lambda lib, x: lib.nn.functional.selu(x),
    "relu6": lambda lib, x: lib.nn.functional.relu6(x),
}


@pytest.mark.parametrize("case", SIGNED_ZERO_CASES)
@pytest.mark.parametrize("n", [6, 3000])  # numpy's short and vectorized loops
def test_a_number_bound_keeps_the_inputs_signed_zero(case, n):
    """Where an input ties with a number bound, ATen keeps the input: -0.0 stays -0.0 through
    relu, clamp and elu, which numpy's ufuncs (keeping their second operand) would turn into
    0.0. (Between two tensors ATen's vectorized loop keeps the second, as numpy does.)"""
    values = np.tile(np.array([-0.0, 0.0], np.float32), n // 2)
    results = []
    for lib in (tapegrad, torch):
        results.append(np.signbit(SIGNED_ZERO_CASES[case](lib, lib.tensor(values)).numpy()))
    np.testing.assert_array_equal(results[0], np.signbit(values))  # the input's own signs
    np.testing.assert_array_equal(results[0], results[1])
