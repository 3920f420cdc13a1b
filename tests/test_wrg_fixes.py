"""Differences found by the tensor data-wrangling programs (wrg_*): complex tensors refused by the
kernels that order values (sort's argsort, kthvalue, median, mode, cummax/cummin, unique,
searchsorted, isin, amax/amin scatter_reduce, index_reduce, histc's range, aminmax) with
PyTorch's messages; bincount's complex weights counted by their real parts; complex
logcumsumexp (values and gradient); and scatter_reduce amax/amin gradients of -0.0 where PyTorch
multiplies a negative gradient by a zero mask."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _z(lib, dtype="complex64"):
    return lib.complex(lib.tensor([1.0, -2.0, 3.0, 0.5]),
                       lib.tensor([0.5, 1.0, -1.0, 2.0])).to(getattr(lib, dtype))


_INDEX = [0, 1, 0, 2]

REFUSALS = {
    "argsort": lambda lib, z: z.argsort(stable=True),
    "msort": lambda lib, z: lib.msort(z),
    "kthvalue": lambda lib, z: z.kthvalue(1),
    "kthvalue_k_first": lambda lib, z: z.kthvalue(9),
    "median": lambda lib, z: z.median(),
    "median_dim": lambda lib, z: z.median(0),
    "median_bad_dim": lambda lib, z: z.median(3),
    "nanmedian": lambda lib, z: z.nanmedian(0),
    "mode": lambda lib, z: z.mode(),
    "cummax": lambda lib, z: z.cummax(0),
    "cummin": lambda lib, z: lib.cummin(z, 0),
    "unique": lambda lib, z: lib.unique(z, return_counts=True),
    "unique_dim": lambda lib, z: lib.unique(z, dim=0),
    "unique_consecutive": lambda lib, z: lib.unique_consecutive(z, dim=0),
    "searchsorted_values": lambda lib, z: lib.searchsorted(lib.tensor([1.0, 2.0]), z),
    "searchsorted_boundaries": lambda lib, z: lib.searchsorted(z, lib.tensor([1.0])),
    "bucketize_number": lambda lib, z: lib.bucketize(1j, lib.tensor([1.0])),
    "isin": lambda lib, z: lib.isin(z, z[:1]),
    "isin_test_elements": lambda lib, z: lib.isin(lib.tensor([1.0]), z),
    "isin_complex_number": lambda lib, z: lib.isin(lib.tensor([1.0]), 1j),
    "scatter_amax": lambda lib, z: lib.ones(3, dtype=z.dtype).scatter_reduce(
        0, lib.tensor(_INDEX), z, "amax"),
    "scatter_amin_out_of_bounds": lambda lib, z: lib.ones(3, dtype=z.dtype).scatter_reduce(
        0, lib.tensor([5, 0, 0, 0]), z, "amin"),
    "scatter_amin_out_of_bounds_no_self": lambda lib, z: lib.ones(3, dtype=z.dtype).scatter_reduce(
        0, lib.tensor([5, 0, 0, 0]), z, "amin", include_self=False),
    "index_reduce": lambda lib, z: lib.ones(3, dtype=z.dtype).index_reduce(
        0, lib.tensor(_INDEX), z, "mean"),
    "histc_own_range": lambda lib, z: lib.histc(z, 2),
    "histc_given_range": lambda lib, z: lib.histc(z, 2, min=0, max=1),
    "aminmax": lambda lib, z: lib.aminmax(z, dim=0),
}


@needs_torch
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_complex_refusals_match_torch(name, dtype):
    ours = outcome(tapegrad, lambda lib: REFUSALS[name](lib, _z(lib, dtype)))
    assert isinstance(ours[0], str), ours  # an exception, as PyTorch's
    assert_same(lambda lib: REFUSALS[name](lib, _z(lib, dtype)), torch)


def test_complex_refusals_without_torch():
    z = _z(tapegrad)
    with pytest.raises(NotImplementedError, match="\"unique\" not implemented for 'ComplexFloat'"):
        tapegrad.unique(z)
    with pytest.raises(RuntimeError, match="Sort does not support complex"):
        z.argsort()
    with pytest.raises(RuntimeError, match="isin\\(\\): ComplexDouble"):
        tapegrad.isin(tapegrad.tensor([1.0]), 2j)


def test_zero_dim_complex_cummax_is_its_element():
    values, indices = _z(tapegrad)[1].cummax(0)
    assert complex(values.item()) == -2 + 1j and indices.item() == 0


def test_bincount_counts_complex_weights_by_real_part():
    weights = _z(tapegrad)
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        counts = tapegrad.bincount(tapegrad.tensor(_INDEX), weights=weights)
    assert counts.dtype == tapegrad.float64
    np.testing.assert_allclose(counts.numpy(), [4.0, -2.0, 0.5])


def _reference_logcumsumexp(values):
    """PyTorch's complex log-add-exp, one step at a time in Python complex numbers."""
    import cmath
    out, running = [], None
    for v in values:
        if running is None:
            running = v
        else:
            small, large = sorted((running, v), key=lambda c: c.real)
            running = large + cmath.log(1 + cmath.exp(small - large))
        out.append(running)
    return out


def test_complex_logcumsumexp_keeps_imaginary_parts_unwrapped():
    z = tapegrad.tensor([30 + 15j, -60 + 30j, 2 - 1j, 31 + 0.5j], dtype=tapegrad.complex128)
    got = tapegrad.logcumsumexp(z, dim=0).numpy()
    np.testing.assert_allclose(got, _reference_logcumsumexp(z.tolist()), rtol=1e-12)
    assert got[1].imag == 15.0  # not wrapped into (-pi, pi]


def test_complex_logcumsumexp_infinities_and_nan():
    inf, nan = float("inf"), float("nan")
    z = tapegrad.tensor([complex(-inf, 0), 1 + 1j, complex(inf, 1)])
    np.testing.assert_array_equal(tapegrad.logcumsumexp(z, 0).numpy(),
                                  np.array([complex(-inf, 0), 1 + 1j, complex(inf, 1)]))
    w = tapegrad.tensor([1 + 1j, complex(nan, 0), 2j])
    assert np.isnan(tapegrad.logcumsumexp(w, 0).numpy()[1:].real).all()


def test_complex_logcumsumexp_gradient_is_conjugate_wirtinger():
    """Against finite differences of the real and imaginary parts of a real loss."""
    base = np.array([1 + 0.5j, -2 + 1j, 3 - 1j, 0.5 + 2j])

    def loss(values):
        z = tapegrad.tensor(values, dtype=tapegrad.complex128)
        return tapegrad.logcumsumexp(z.view(2, 2), dim=1).abs().sum()

    z = tapegrad.tensor(base, dtype=tapegrad.complex128, requires_grad=True)
    tapegrad.logcumsumexp(z.view(2, 2), dim=1).abs().sum().backward()
    eps = 1e-6
    expected = [(loss(base + eps * e).item() - loss(base - eps * e).item()) / (2 * eps)
                + 1j * (loss(base + 1j * eps * e).item() - loss(base - 1j * eps * e).item())
                / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(z.grad.numpy(), expected, rtol=1e-6, atol=1e-8)


@needs_torch
def test_complex_logcumsumexp_matches_torch():
    def case(lib):
        z = lib.complex(lib.linspace(-2.0, 3.0, 6, dtype=lib.float64),
                        lib.linspace(1.0, -4.0, 6, dtype=lib.float64)).view(2, 3)
        z.requires_grad_(True)
        out = lib.logcumsumexp(z * 20, dim=1)
        (out * lib.cos(lib.arange(6.0, dtype=lib.float64)).view(2, 3)).abs().sum().backward()
        return out.real, out.imag, z.grad.real, z.grad.imag
    assert_same(case, torch)


def test_scatter_reduce_amax_gradient_keeps_negative_zero():
    src = tapegrad.tensor([1.0, 5.0, 2.0], requires_grad=True)
    out = tapegrad.zeros(2).scatter_reduce(0, tapegrad.tensor([0, 0, 1]), src, "amax")
    (out * tapegrad.tensor([-1.0, 3.0])).sum().backward()
    grad = src.grad.numpy()
    assert grad[0] == 0 and np.signbit(grad[0]) and grad.tolist()[1:] == [-1.0, 3.0]


# ------------------------------------------------------------------ unstable sort of ties

UNSTABLE_SORTS = {
    "argsort_ties": lambda lib: (lib.arange(40) % 3).argsort(),
    "argsort_descending": lambda lib: lib.argsort(lib.arange(40) % 3, descending=True),
    "sort_lengths_descending": lambda lib: lib.tensor(
        [3, 5, 2, 5, 4, 3, 3, 1, 5, 2, 4, 4, 3, 2, 5, 1, 3, 4, 2, 5]).sort(descending=True),
    "sort_rows": lambda lib: (lib.arange(120).view(6, 20) % 4).sort(dim=1),
    "sort_dim0_transposed": lambda lib: (lib.arange(60).view(3, 20) % 4).t().sort(dim=0),
    "msort": lambda lib: lib.msort(lib.arange(60).view(20, 3) % 4),
    "nan_ties": lambda lib: lib.tensor([1.0, float("nan"), 2.0, float("nan"), 1.0] * 5).sort(),
    "nan_ties_descending": lambda lib: lib.tensor([1.0, float("nan"), 2.0] * 7).argsort(
        descending=True),
    "bool": lambda lib: lib.tensor([True, False, True] * 7).sort(descending=True),
    "half": lambda lib: (lib.arange(30) % 3).half().argsort(),
    "short_rows_are_stable": lambda lib: (lib.arange(16) % 2).argsort(),
    "long_int_vector_radix_sorted": lambda lib: (lib.arange(33000) % 7).argsort()[-40:],
    "long_int_vector_descending": lambda lib: (lib.arange(33000) % 7).argsort(
        descending=True)[-40:],
    "expanded_dim": lambda lib: lib.zeros(1).expand(20).argsort(),
    "stable_asked": lambda lib: (lib.arange(40) % 3).argsort(stable=True),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(UNSTABLE_SORTS))
def test_unstable_sort_orders_ties_as_torch(name):
    assert_same(UNSTABLE_SORTS[name], torch)


def test_unstable_sort_is_a_sort_with_a_permutation():
    """Independent of PyTorch: any order it picks sorts the values and permutes the positions."""
    values = tapegrad.arange(200) * 7 % 9
    for descending in (False, True):
        result = values.sort(descending=descending)
        expected = np.sort(values.numpy())
        np.testing.assert_array_equal(result.values.numpy(),
                                      expected[::-1] if descending else expected)
        assert sorted(result.indices.tolist()) == list(range(200))
        np.testing.assert_array_equal(values[result.indices].numpy(), result.values.numpy())


def test_unstable_sort_gradient_follows_its_indices():
    x = (tapegrad.arange(30.0) % 4).requires_grad_()
    values, indices = x.sort()
    (values * tapegrad.arange(30.0)).sum().backward()
    expected = np.zeros(30)
    expected[indices.numpy()] = np.arange(30.0)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
