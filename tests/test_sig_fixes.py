"""Signal-processing fixes: the full spectrum of a real signal, istft's checks and its twosided
real inverse, complex powers, complex window dtypes, kaiser_window's overloads, and the graphs
PyTorch records for real/imag, conj_physical, hfftn/ihfftn, stft and istft. Independent truths
(numpy, cmath, finite differences in float64) run everywhere; comparisons with PyTorch where it
is installed."""
import cmath
import math
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def names(t):
    """The first-parent chain of ``grad_fn`` names, as a user walking the graph prints it."""
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(fn.name())
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return out


def ramp(lib, n=40):
    return lib.sin(lib.arange(n, dtype=lib.float32) * 0.37) + lib.arange(n) / n


def spectrogram(lib, onesided=True):
    return lib.stft(ramp(lib), 16, hop_length=4, window=lib.hann_window(16), onesided=onesided,
                    return_complex=True)


# ------------------------------------------------------------ the full spectrum of a real signal
@pytest.mark.parametrize("n", [1, 2, 7, 10])
def test_fft_of_a_real_signal_is_exactly_conjugate_symmetric(n):
    x = tapegrad.cos(tapegrad.arange(n, dtype=tapegrad.float32) * 0.7)
    X = tapegrad.fft.fft(x).numpy()
    np.testing.assert_array_equal(X[1:], np.conj(X[1:][::-1]))
    assert X[0].imag == 0 and (n % 2 or X[n // 2].imag == 0)  # zero and Nyquist: exactly real
    np.testing.assert_allclose(X, np.fft.fft(x.numpy().astype(np.float64)), atol=1e-5)


def test_stft_of_a_real_signal_twosided_is_the_full_dft():
    x = ramp(tapegrad)
    S = tapegrad.stft(x, 8, hop_length=4, window=tapegrad.ones(8), center=False, onesided=False,
                      return_complex=True).numpy()
    frames = np.lib.stride_tricks.sliding_window_view(x.numpy().astype(np.float64), 8)[::4]
    np.testing.assert_allclose(S, np.fft.fft(frames).T, atol=1e-5)


def test_fft_of_a_real_signal_matches_torch(torch):
    assert_same(lambda lib: lib.view_as_real(lib.fft.fft(lib.linspace(0, 1, 10))), torch)
    assert_same(lambda lib: lib.view_as_real(lib.fft.ifft(lib.eye(3), dim=0).resolve_conj()),
                torch)


# --------------------------------------------------------------------------------------- istft
ISTFT_CASES = {
    "complex output of a onesided spectrum": lambda lib: lib.istft(
        spectrogram(lib), 16, 4, window=lib.hann_window(16), return_complex=True),
    "frequency size before return_complex": lambda lib: lib.istft(
        spectrogram(lib, onesided=False), 16, 4, window=lib.hann_window(16), onesided=True,
        return_complex=True),
    "window shape": lambda lib: lib.istft(spectrogram(lib), 16, 4, window=lib.ones(3)),
    "2-d window": lambda lib: lib.istft(spectrogram(lib), 16, 4, window=lib.ones(2, 8)),
    "hop longer than window": lambda lib: lib.istft(spectrogram(lib), 16, 20,
                                                    window=lib.hann_window(16)),
    "zero hop": lambda lib: lib.istft(spectrogram(lib), 16, 0, window=lib.hann_window(16)),
    "win_length above n_fft": lambda lib: lib.istft(spectrogram(lib), 16, 4, win_length=20),
    "frequencies checked before the window": lambda lib: lib.istft(
        spectrogram(lib), 15, 4, window=lib.hann_window(16)),
    "too many dims": lambda lib: lib.istft(lib.ones(2, 3, 9, 11, dtype=lib.cfloat), 16),
    "one dim": lambda lib: lib.istft(lib.ones(9, dtype=lib.cfloat), 16),
    "no dims": lambda lib: lib.istft(lib.tensor(1j), 16),
    "empty": lambda lib: lib.istft(lib.ones(0, 5, dtype=lib.cfloat), 16),
    "complex window for a real output": lambda lib: lib.istft(
        spectrogram(lib, onesided=False), 16, 4, window=lib.hann_window(16).to(lib.cfloat)),
    "complex window in the message": lambda lib: lib.istft(
        spectrogram(lib), 16, 4, window=lib.hann_window(16).to(lib.cfloat), onesided=False),
    "stft of a complex signal": lambda lib: lib.stft(
        ramp(lib).to(lib.cfloat), 16, window=lib.ones(3), return_complex=True),
    "stft of an integer signal": lambda lib: lib.stft(
        lib.arange(20), 8, window=lib.hann_window(8), return_complex=True),
    "stft of a 3-d bool signal": lambda lib: lib.stft(
        lib.ones(1, 1, 20, dtype=lib.bool), 8, window=lib.ones(8, dtype=lib.bool), center=False,
        return_complex=True),
    "the window as given, in the overlap-add check": lambda lib: lib.istft(
        lib.stft(ramp(lib).view(2, 20), 9, 3, 6, window=lib.hann_window(6), center=False,
                 return_complex=True), 9, 3, 6, window=lib.hann_window(6), center=False),
    "no window, in the overlap-add check": lambda lib: lib.istft(
        lib.stft(ramp(lib).view(2, 20), 9, 3, 6, center=False, return_complex=True), 9, 3, 6,
        center=False),
}


@pytest.mark.parametrize("case", ISTFT_CASES.values(), ids=list(ISTFT_CASES))
def test_istft_checks_as_torch(case, torch):
    assert_same(case, torch)


def test_istft_of_a_twosided_spectrum_reads_its_onesided_half():
    """A real output is the c2r inverse of the first n_fft // 2 + 1 frequencies: whatever the
    upper half holds (here, a non-Hermitian edit) is ignored, and receives no gradient."""
    full = spectrogram(tapegrad, onesided=False) * tapegrad.linspace(0.5, 1.5, 16).unsqueeze(1)
    full.requires_grad_()
    window = tapegrad.hann_window(16)
    y = tapegrad.istft(full, 16, 4, window=window, onesided=False)
    half = tapegrad.istft(full.detach()[:9], 16, 4, window=window)
    np.testing.assert_allclose(y.detach().numpy(), half.numpy(), atol=1e-6)
    y.pow(2).sum().backward()
    assert not full.grad[9:].numpy().any() and full.grad[:9].numpy().any()


def test_istft_twosided_real_output_matches_torch(torch):
    def case(lib):
        full = spectrogram(lib, onesided=False) * lib.linspace(0.5, 1.5, 16).unsqueeze(1)
        full.requires_grad_()
        y = lib.istft(full, 16, 4, window=lib.hann_window(16), onesided=False)
        y.pow(2).sum().backward()
        return y, lib.view_as_real(full.grad)
    assert_same(case, torch)


def test_istft_longer_length_warns_and_pads():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = tapegrad.istft(spectrogram(tapegrad), 16, 4, window=tapegrad.hann_window(16),
                           length=50)
    assert y.shape == (50,) and not y[48:].numpy().any()  # 8 past the end: the centring pad
    np.testing.assert_allclose(y[:40].numpy(), ramp(tapegrad).numpy(), atol=1e-5)
    assert any("Result is being padded with zeros in the tail" in str(w.message) for w in caught)


def test_istft_complex_round_trip_of_a_complex_signal():
    x = tapegrad.polar(tapegrad.ones(32, dtype=tapegrad.float64),
                       tapegrad.arange(32, dtype=tapegrad.float64) * 0.4)
    window = tapegrad.hann_window(8, dtype=tapegrad.float64)
    S = tapegrad.stft(x, 8, hop_length=2, window=window, return_complex=True)
    y = tapegrad.istft(S, 8, hop_length=2, window=window, return_complex=True, length=32)
    np.testing.assert_allclose(y.numpy(), x.numpy(), atol=1e-12)


def test_stft_and_istft_record_torch_nodes(torch):
    def graph(lib):
        x = ramp(lib).requires_grad_()
        S = lib.stft(x, 8, 2, window=lib.hann_window(8), return_complex=True)
        return names(S), names(lib.istft(S, 8, 2, window=lib.hann_window(8)))
    assert graph(tapegrad) == graph(torch)


# ---------------------------------------------------------------------------- complex powers
Z = [1 + 1j, 2 - 3j, -4 + 0j, 0.5j]


@pytest.mark.parametrize("exponent", [0.5, -1, -2, 1.5, 3, -0.5])
def test_complex_power_is_the_principal_branch(exponent):
    z = tapegrad.tensor(Z, dtype=tapegrad.complex128)
    expected = [w ** exponent for w in Z]
    np.testing.assert_allclose((z ** exponent).numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(z.pow(tapegrad.tensor(exponent + 0j)).numpy(), expected,
                               rtol=1e-12)


def test_number_to_a_complex_power():
    z = tapegrad.tensor(Z, dtype=tapegrad.complex128)
    np.testing.assert_allclose((2 ** z).numpy(), [cmath.exp(w * math.log(2)) for w in Z],
                               rtol=1e-12)


def test_complex_power_gradient_by_finite_differences():
    """d|z^p|/dz by central differences in x and y (z = x + iy): z.grad = dL/dx + i dL/dy."""
    point, p, h = 1.3 - 0.7j, 1.5, 1e-6
    z = tapegrad.tensor([point], dtype=tapegrad.complex128, requires_grad=True)
    (z ** p).abs().sum().backward()

    def loss(w):
        return abs(w ** p)
    expected = ((loss(point + h) - loss(point - h)) / (2 * h)
                + 1j * (loss(point + 1j * h) - loss(point - 1j * h)) / (2 * h))
    np.testing.assert_allclose(z.grad.numpy()[0], expected, rtol=1e-7)


def test_complex_powers_match_torch(torch):
    def case(lib):
        z = lib.tensor([4 + 0j, -4 + 0j, 3 + 4j, -1 - 1j, 1j], requires_grad=True)
        outs = [z ** e for e in (0.5, -1, 1.5, -2)]
        sum(o.abs().sum() for o in outs).backward()
        return tuple(lib.view_as_real(o) for o in outs) + (lib.view_as_real(z.grad),)
    assert_same(case, torch)


def test_reciprocal_power_keeps_torch_signed_zeros(torch):
    def signs(lib):
        out = lib.tensor([4 + 0j, -4 + 0j]) ** -1
        return np.signbit(lib.view_as_real(out).numpy()).tolist()
    assert signs(tapegrad) == signs(torch)


# --------------------------------------------------------------------------------- windows
@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("dtype", ["cfloat", "cdouble"])
def test_window_of_complex_dtype_is_refused_as_torch(name, dtype, torch):
    assert_same(lambda lib: getattr(lib, name)(4, dtype=getattr(lib, dtype)), torch)


@pytest.mark.parametrize("call", [
    lambda lib: lib.kaiser_window(5, beta=8.0),
    lambda lib: lib.kaiser_window(5),
    lambda lib: lib.kaiser_window(5, False),
    lambda lib: lib.kaiser_window(5, True, 3.0),
    lambda lib: lib.kaiser_window(5, periodic=False, beta=3.0),
])
def test_kaiser_window_overloads(call, torch):
    assert_same(call, torch)


def test_kaiser_window_beta_needs_periodic():
    with pytest.raises(TypeError, match="invalid combination of arguments - got \\(int, beta="):
        tapegrad.kaiser_window(5, beta=8.0)
    np.testing.assert_allclose(tapegrad.kaiser_window(5, False, 3.0).numpy(),
                               np.kaiser(5, 3.0), rtol=1e-6)


# ------------------------------------------------------------------ graphs PyTorch records
def test_parts_and_conjugates_record_torch_nodes(torch):
    def graph(lib):
        x = lib.linspace(0, 1, 8, requires_grad=True)
        z = lib.complex(x, x.flip(0))
        w = z * 1
        return (names(z.real), names(z.imag), names(lib.conj_physical(z)),
                names(w.conj_physical_()))
    assert graph(tapegrad) == graph(torch)


def test_real_and_imag_stay_writable_views():
    z = tapegrad.tensor([1 + 2j, 3 - 1j])
    z.real[0] = 7
    z.imag.mul_(2)
    np.testing.assert_array_equal(z.numpy(), [7 + 4j, 3 - 2j])
    w = tapegrad.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    (w.real * 2 + w.imag ** 2).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2 + 4j, 2 - 2j])


def test_hermitian_transforms_record_torch_nodes(torch):
    def graph(lib):
        x = lib.linspace(0, 1, 12, requires_grad=True).reshape(3, 4)
        half = lib.fft.ihfft2(x)
        return names(half), names(lib.fft.hfft2(half))
    assert graph(tapegrad) == graph(torch)


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("s, dim", [(None, None), ((3, 8), (0, 2)), (None, (1, 0))])
def test_hfftn_is_the_dft_of_the_hermitian_signal(norm, s, dim):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5)) + 1j * rng.standard_normal((3, 4, 5))
    ours = tapegrad.fft.hfftn(tapegrad.tensor(a), s=s, dim=dim, norm=norm).numpy()
    dims = tuple(range(a.ndim)) if dim is None else tuple(d % a.ndim for d in dim)
    sizes = [a.shape[d] for d in dims] if s is None else list(s)
    if s is None:
        sizes[-1] = 2 * (a.shape[dims[-1]] - 1)
    # hfftn(a) = the forward n-d transform of the Hermitian signal whose half a is:
    # conj of irfftn(conj(a)) scaled back
    reference = np.fft.irfftn(np.conj(a), s=sizes, axes=dims, norm=_inverse_norm(norm))
    np.testing.assert_allclose(ours, reference, atol=1e-10)
    back = tapegrad.fft.ihfftn(tapegrad.tensor(ours), s=sizes, dim=dims, norm=norm).numpy()
    np.testing.assert_allclose(back, np.conj(np.fft.rfftn(ours, s=sizes, axes=dims,
                                                           norm=_inverse_norm(norm))), atol=1e-10)


def _inverse_norm(norm):
    """The numpy norm under which the inverse transform scales as our forward one does."""
    return {None: "forward", "forward": "backward", "ortho": "ortho"}[norm]


# ----------------------------------------------------------------- torch.fft's argument checks
def _xyz(lib):
    return lib.cos(lib.arange(72, dtype=lib.float64) * 0.7).reshape(3, 4, 6)


FFT_ARGUMENT_CASES = {
    "unique dims before the lengths": lambda lib: lib.fft.fft2(_xyz(lib), s=(2,), dim=(0, 0)),
    "lengths of s and dim": lambda lib: lib.fft.ihfftn(_xyz(lib), s=(4, 5), dim=(1,)),
    "rfftn of a complex signal first": lambda lib: lib.fft.rfft2(
        _xyz(lib).to(lib.cdouble), dim=(0, 5)),
    "ihfftn of a complex signal after the arguments": lambda lib: lib.fft.ihfftn(
        _xyz(lib).to(lib.cdouble), s=(3, 4)),
    "ihfft2 of a complex signal": lambda lib: lib.fft.ihfft2(_xyz(lib).to(lib.cfloat)),
    "fftn of a 0-d tensor": lambda lib: lib.view_as_real(lib.fft.fftn(lib.tensor(2.0))),
    "ifftn of no dims": lambda lib: lib.view_as_real(lib.fft.ifftn(lib.tensor([2.0 + 1j]),
                                                                   dim=())),
    "fft2 of a 0-d tensor": lambda lib: lib.fft.fft2(lib.tensor(2.0)),
    "rfftn of no dims": lambda lib: lib.fft.rfftn(lib.ones(3), dim=()),
    "irfftn of a 0-d tensor": lambda lib: lib.fft.irfftn(lib.tensor(2.0 + 0j)),
    "hfftn of no shape": lambda lib: lib.fft.hfftn(lib.ones(3, dtype=lib.cfloat), s=()),
    "ihfftn of a 0-d tensor": lambda lib: lib.fft.ihfftn(lib.tensor(2.0)),
    "fftfreq of no samples": lambda lib: (lib.fft.fftfreq(0), lib.fft.rfftfreq(0)),
    "fftfreq of no spacing": lambda lib: (lib.fft.fftfreq(3, d=0.0), lib.fft.rfftfreq(2, -0.0)),
}


@pytest.mark.parametrize("case", FFT_ARGUMENT_CASES.values(), ids=list(FFT_ARGUMENT_CASES))
def test_fft_arguments_as_torch(case, torch):
    assert_same(case, torch)


def test_transform_over_no_dims_is_the_signal():
    out = tapegrad.fft.fftn(tapegrad.tensor(2.5, requires_grad=True))
    assert out.dtype == tapegrad.complex64 and out.item() == 2.5
    with pytest.raises(RuntimeError, match="^irfftn must transform at least one axis$"):
        tapegrad.fft.irfft2(tapegrad.ones(3, dtype=tapegrad.cfloat), dim=())


def test_fftfreq_without_samples_or_spacing():
    assert tapegrad.fft.fftfreq(0).shape == (0,)
    assert np.isnan(tapegrad.fft.rfftfreq(0).numpy()).all()
    np.testing.assert_array_equal(tapegrad.fft.fftfreq(3, d=0.0).numpy(), [np.nan, np.inf,
                                                                           -np.inf])


# --------------------------------------------------------- complex gradients of a product
def test_product_gradient_is_grad_times_the_conjugate():
    """d(z w)/dz: grad * conj(w), computed so, so that its zeros carry PyTorch's signs."""
    z = tapegrad.tensor([1 + 2j, 0j, -3 + 0.5j], requires_grad=True)
    (g,) = tapegrad.autograd.grad(z * 2, z, tapegrad.ones(3, dtype=tapegrad.cfloat))
    assert not np.signbit(g.numpy().imag).any()
    w = tapegrad.tensor([0.5, -1.0], dtype=tapegrad.float64, requires_grad=True)
    c = tapegrad.tensor([2 - 1j, 1j], dtype=tapegrad.complex128, requires_grad=True)
    (w * c).imag.sum().backward()
    assert w.grad.dtype == tapegrad.float64  # a real input's gradient is real
    np.testing.assert_array_equal(w.grad.numpy(), [-1.0, 1.0])
    np.testing.assert_array_equal(c.grad.numpy(), [0.5j, -1j])


def test_product_gradients_match_torch(torch):
    def case(lib):
        z = lib.tensor([1 + 2j, 0j, -3 + 0.5j], requires_grad=True)
        w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        grads = [lib.autograd.grad(f(z, w), z, retain_graph=True)[0] for f in (
            lambda z, w: (z * 2).sum().abs(), lambda z, w: (z * (1 - 1j)).real.sum(),
            lambda z, w: (z * z.conj()).real.sum())]
        (gw,) = lib.autograd.grad((z * w).abs().sum(), w)
        return tuple(np.signbit(lib.view_as_real(g).numpy()).tolist() for g in grads), gw
    ours, theirs = case(tapegrad), case(torch)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-6)
