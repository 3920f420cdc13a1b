"""torch.fft and torch.stft/istft: values against the DFT written out as a matrix, gradients
against finite differences (float64), and values, gradients, graphs and messages against PyTorch
where it is installed."""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import fft as tfft


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


rng = np.random.default_rng(3)
X = rng.standard_normal((3, 6))
Z = rng.standard_normal((3, 6)) + 1j * rng.standard_normal((3, 6))


def dft_matrix(n, inverse=False):
    k = np.arange(n)
    return np.exp((2j if inverse else -2j) * np.pi * np.outer(k, k) / n)


def test_one_dimensional_transforms_are_the_dft_matrix():
    x, z = tapegrad.tensor(X), tapegrad.tensor(Z)
    F, Finv = dft_matrix(6), dft_matrix(6, inverse=True)
    np.testing.assert_allclose(tfft.fft(z).numpy(), Z @ F.T, atol=1e-12)
    np.testing.assert_allclose(tfft.ifft(z).numpy(), Z @ Finv.T / 6, atol=1e-12)
    np.testing.assert_allclose(tfft.fft(x, norm="ortho").numpy(), X @ F.T / math.sqrt(6),
                               atol=1e-12)
    np.testing.assert_allclose(tfft.fft(z, norm="forward").numpy(), Z @ F.T / 6, atol=1e-12)
    np.testing.assert_allclose(tfft.rfft(x).numpy(), (X @ F.T)[:, :4], atol=1e-12)
    np.testing.assert_allclose(tfft.fft(x, n=8).numpy(),
                               np.pad(X, ((0, 0), (0, 2))) @ dft_matrix(8).T, atol=1e-12)
    np.testing.assert_allclose(tfft.fft(z, n=4, dim=0).numpy(),
                               dft_matrix(4) @ np.pad(Z, ((0, 1), (0, 0))), atol=1e-12)
    spectrum = tfft.rfft(x)
    np.testing.assert_allclose(tfft.irfft(spectrum, n=6).numpy(), X, atol=1e-12)
    np.testing.assert_allclose(tfft.hfft(tfft.ihfft(x), n=6).numpy(), X, atol=1e-12)


def test_multi_dimensional_transforms_are_separable_dfts():
    x, z = tapegrad.tensor(X), tapegrad.tensor(Z)
    both = dft_matrix(3) @ Z @ dft_matrix(6).T
    np.testing.assert_allclose(tfft.fft2(z).numpy(), both, atol=1e-12)
    np.testing.assert_allclose(tfft.fftn(z).numpy(), both, atol=1e-12)
    np.testing.assert_allclose(tfft.ifft2(tfft.fft2(z)).numpy(), Z, atol=1e-12)
    np.testing.assert_allclose(tfft.rfft2(x).numpy(), (dft_matrix(3) @ X @ dft_matrix(6).T)[:, :4],
                               atol=1e-12)
    # the last dim listed is the halved one
    np.testing.assert_allclose(tfft.rfftn(x, dim=(1, 0)).numpy(),
                               (dft_matrix(3) @ X @ dft_matrix(6).T)[:2], atol=1e-12)
    np.testing.assert_allclose(tfft.irfftn(tfft.rfftn(x), s=(3, 6)).numpy(), X, atol=1e-12)
    np.testing.assert_allclose(tfft.ihfft2(tfft.hfft2(tfft.ihfft2(x), s=(3, 6))).numpy(),
                               tfft.ihfft2(x).numpy(), atol=1e-12)


def test_frequencies_and_shifts():
    np.testing.assert_allclose(tfft.fftfreq(5).numpy(), np.fft.fftfreq(5), rtol=1e-6)
    np.testing.assert_allclose(tfft.fftfreq(8, d=0.1).numpy(), np.fft.fftfreq(8, 0.1), rtol=1e-6)
    np.testing.assert_allclose(tfft.rfftfreq(7, 2.0).numpy(), np.fft.rfftfreq(7, 2.0), rtol=1e-6)
    a = tapegrad.arange(15).reshape(3, 5)
    assert tfft.fftshift(a).tolist() == np.fft.fftshift(a.numpy()).tolist()
    assert tfft.ifftshift(a, dim=1).tolist() == np.fft.ifftshift(a.numpy(), axes=1).tolist()
    assert tfft.ifftshift(tfft.fftshift(a)).tolist() == a.tolist()


# real losses of a real x (3 x 6) and a complex z (3 x 6), through every kind of transform
LOSSES = {
    "fft": lambda L, x, z: L.fft.fft(x).abs().sum() + (L.fft.fft(z, n=8) * 1j).real.sum(),
    "ifft": lambda L, x, z: L.fft.ifft(x, norm="ortho").imag.sum()
    + L.fft.ifft(z, dim=0).abs().sum(),
    "rfft": lambda L, x, z: (L.fft.rfft(x, n=9).abs() ** 2).sum() + L.fft.rfft(x, n=4).real.sum(),
    "irfft": lambda L, x, z: (L.fft.irfft(z) * L.arange(10.).double()).sum()
    + (L.fft.irfft(z, n=7, norm="forward") ** 2).sum(),
    "hfft": lambda L, x, z: L.fft.hfft(z).sin().sum() + L.fft.ihfft(x).imag.sum(),
    "fft2": lambda L, x, z: L.fft.fft2(x, s=(4, 5)).abs().sum()
    + L.fft.ifftn(z, dim=(0,)).real.sum(),
    "rfftn": lambda L, x, z: L.fft.rfft2(x).real.sum() + L.fft.rfftn(x, dim=(1, 0)).abs().sum(),
    "irfftn": lambda L, x, z: L.fft.irfft2(z, norm="ortho").pow(2).sum()
    + (L.fft.irfftn(z, s=(2, 5)) * L.arange(10.).double().reshape(2, 5)).sum(),
}


def _grads(lib, name):
    x = lib.tensor(X.copy(), requires_grad=True)
    z = lib.tensor(Z.copy(), requires_grad=True)
    loss = LOSSES[name](lib, x, z)
    loss.backward()
    return loss.item(), *(np.zeros(t.shape, t.detach().numpy().dtype) if t.grad is None
                          else t.grad.resolve_conj().numpy() for t in (x, z))


def _finite_differences(name, h=1e-6):
    def value(x, z):
        with tapegrad.no_grad():
            return LOSSES[name](tapegrad, tapegrad.tensor(x), tapegrad.tensor(z)).item()
    gx, gz = np.zeros_like(X), np.zeros_like(Z)
    for index in np.ndindex(X.shape):
        step = np.zeros_like(X)
        step[index] = h
        gx[index] = (value(X + step, Z) - value(X - step, Z)) / (2 * h)
        for unit in (1, 1j):
            gz[index] += unit * (value(X, Z + unit * step) - value(X, Z - unit * step)) / (2 * h)
    return gx, gz


@pytest.mark.parametrize("name", LOSSES)
def test_gradients_are_finite_differences(name):
    _, gx, gz = _grads(tapegrad, name)
    fx, fz = _finite_differences(name)
    np.testing.assert_allclose(gx, fx, atol=1e-5)
    np.testing.assert_allclose(gz, fz, atol=1e-5)


@pytest.mark.parametrize("name", LOSSES)
def test_gradients_match_pytorch(name, torch):
    ours, theirs = _grads(tapegrad, name), _grads(torch, name)
    assert ours[0] == pytest.approx(theirs[0])
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, atol=1e-10)


def test_graphs_record_pytorchs_nodes(torch):
    def names(lib):
        x = lib.tensor(X.copy(), requires_grad=True)
        z = lib.tensor(Z.copy(), requires_grad=True)
        outputs = [lib.fft.fft(x), lib.fft.rfft(x), lib.fft.irfft(z), lib.fft.fft(z),
                   lib.fft.ihfft(x), lib.fft.fft2(x), lib.fft.hfft(z), lib.fft.fft(x, n=8),
                   lib.fft.fft(x, n=4)]
        return [(type(y.grad_fn).__name__,
                 [type(n).__name__ for n, _ in y.grad_fn.next_functions]) for y in outputs]
    assert names(tapegrad) == names(torch)


ERRORS = {
    "no_points": lambda lib, x: lib.fft.fft(x, n=0),
    "dim": lambda lib, x: lib.fft.fft(x, dim=2),
    "rfft_complex": lambda lib, x: lib.fft.rfft(x * 1j),
    "norm": lambda lib, x: lib.fft.fft(x, norm="bad"),
    "half": lambda lib, x: lib.fft.fft(x.half()),
    "zero_dim": lambda lib, x: lib.fft.fft(x[0, 0]),
    "s_too_long": lambda lib, x: lib.fft.fftn(x, s=(2, 2, 2)),
    "s_and_dim": lambda lib, x: lib.fft.fftn(x, s=(2, 2), dim=(0,)),
    "repeated_dim": lambda lib, x: lib.fft.fftn(x, dim=(1, 1)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_pytorchs(name, torch):
    def message(lib):
        with pytest.raises(Exception) as caught:
            ERRORS[name](lib, lib.tensor(X.copy()))
        return type(caught.value).__name__, str(caught.value)
    assert message(tapegrad) == message(torch)


def test_results_and_dtypes_match_pytorch(torch):
    def results(lib):
        x = lib.tensor(X.copy(), dtype=lib.float32)
        i = lib.arange(8)
        return [lib.fft.rfft(x), lib.fft.fft(i), lib.fft.irfft(lib.fft.rfft(x), n=6),
                lib.fft.fftfreq(7, d=0.25), lib.fft.rfftfreq(8), lib.fft.fft2(x.double())]
    for ours, theirs in zip(results(tapegrad), results(torch)):
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)


# --------------------------------------------------------------------------------------- stft
SIGNAL = np.sin(np.arange(40) * 0.7) + 0.3 * np.cos(np.arange(40) * 2.1)


def test_stft_is_windowed_rfft_of_frames():
    x = tapegrad.tensor(SIGNAL)
    window = tapegrad.hann_window(8, dtype=tapegrad.float64)
    spec = tapegrad.stft(x, 8, hop_length=3, window=window, center=False, return_complex=True)
    frames = np.lib.stride_tricks.sliding_window_view(SIGNAL, 8)[::3] * window.numpy()
    np.testing.assert_allclose(spec.numpy(), np.fft.rfft(frames).T, atol=1e-12)
    assert x.stft(8, window=window, return_complex=True).shape == (5, 21)  # hop 8 // 4


def test_istft_inverts_stft():
    x = tapegrad.tensor(SIGNAL).reshape(2, 20)
    window = tapegrad.hann_window(8, dtype=tapegrad.float64)
    spec = tapegrad.stft(x, 8, hop_length=2, window=window, return_complex=True)
    np.testing.assert_allclose(tapegrad.istft(spec, 8, hop_length=2, window=window,
                                              length=20).numpy(), x.numpy(), atol=1e-12)


def test_stft_and_istft_match_pytorch(torch):
    def run(lib):
        x = lib.tensor(SIGNAL.copy(), requires_grad=True)
        window = lib.hamming_window(10, dtype=lib.float64)
        spec = lib.stft(x, 16, hop_length=4, win_length=10, window=window, normalized=True,
                        return_complex=True)
        back = lib.istft(spec * (1 + lib.arange(9.).double()[:, None] * 0.1), 16, hop_length=4,
                         win_length=10, window=window, normalized=True, length=40)
        loss = spec.abs().sum() + (back ** 2).sum()
        loss.backward()
        return spec.detach().numpy(), back.detach().numpy(), x.grad.numpy()
    for ours, theirs in zip(run(tapegrad), run(torch)):
        np.testing.assert_allclose(ours, theirs, atol=1e-10)


STFT_ERRORS = {
    "return_complex": lambda lib, x: lib.stft(x, 8),
    "window_size": lambda lib, x: lib.stft(x, 8, window=lib.ones(5), return_complex=True),
    "hop": lambda lib, x: lib.stft(x, 8, hop_length=0, return_complex=True),
    "win_length": lambda lib, x: lib.stft(x, 8, win_length=9, return_complex=True),
    "n_fft": lambda lib, x: lib.stft(x, 0, center=False, return_complex=True),
    "dims": lambda lib, x: lib.stft(x[None, None], 8, return_complex=True),
    "istft_real": lambda lib, x: lib.istft(x, 8),
    "istft_nola": lambda lib, x: lib.istft(lib.stft(x, 8, return_complex=True), 8,
                                           window=lib.zeros(8), center=False),
    "istft_frequencies": lambda lib, x: lib.istft(lib.stft(x, 8, return_complex=True), 6),
}


@pytest.mark.parametrize("name", STFT_ERRORS)
def test_stft_errors_are_pytorchs(name, torch):
    def message(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as caught:
                STFT_ERRORS[name](lib, lib.tensor(SIGNAL, dtype=lib.float32))
        return type(caught.value).__name__, str(caught.value)
    assert message(tapegrad) == message(torch)
