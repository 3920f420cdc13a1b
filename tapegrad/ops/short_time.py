"""The short-time Fourier transform and its inverse (``torch.stft``, ``torch.istft``).

``stft`` cuts the signal into overlapping frames (a strided view), weights each by the window
and transforms it: a spectrogram of frequencies by frames. ``istft`` transforms each frame back,
weights it by the window again and adds the frames where they overlap, dividing by the summed
squared window, which undoes ``stft`` wherever that sum is not zero (PyTorch's NOLA condition).
"""
from .. import dtypes
from .._warnings import warn_at_caller
from . import spectral
from .conjugation import view_as_complex, view_as_real
from .creation import ones
from .padding import constant_pad_nd, pad
from .strided import as_strided, unfold_backward

__all__ = ["stft", "istft"]


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    """Spectra of the frames of a signal (1-d, or 2-d: a batch): (batch,) freq x frames."""
    if return_complex is None:
        if not (input.is_complex() or window is not None and window.is_complex()):
            raise RuntimeError("stft requires the return_complex parameter be given for real "
                               "inputs, and will further require that return_complex=True in a "
                               "future PyTorch release.")
        return_complex = True
    if not return_complex:
        warn_at_caller("stft with return_complex=False is deprecated. In a future pytorch "
                       "release, stft will return complex tensors for all inputs, and "
                       "return_complex=False will raise an error.\nNote: you can still call "
                       "torch.view_as_real on the complex output to recover the old return "
                       "format.")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    signal = input
    if center:  # reflected (by default) half a frame out at both ends
        reach = n_fft // 2
        if input.dim() in (1, 2):
            padded = pad(signal.view(1, -1, signal.shape[-1]), [reach, reach], pad_mode)
            signal = padded.view(padded.shape[1:] if input.dim() == 2 else padded.shape[-1:])
        else:  # refused below, with the padded shape in the message as PyTorch's
            signal = pad(signal, [reach, reach], pad_mode)

    def refuse(problem):
        raise RuntimeError(
            f"stft({_type_text(signal)}{list(signal.shape)}, n_fft={n_fft}, "
            f"hop_length={hop_length}, win_length={win_length}, window={_window_text(window)}, "
            f"normalized={int(normalized)}, "
            f"onesided={_flag(onesided)}, return_complex={int(return_complex)}, "
            f"align_to_window=None) : {problem}")

    if signal._array.dtype.kind not in "fc":
        refuse("expected a tensor of floating point or complex values")
    if signal.dim() not in (1, 2):
        refuse("expected a 1D or 2D tensor")
    length = signal.shape[-1]
    if not 0 < n_fft <= length:
        refuse(f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        refuse(f"expected hop_length > 0, but got hop_length={hop_length}")
    if not 0 < win_length <= n_fft:
        refuse(f"expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        refuse(f"expected a 1D window tensor of size equal to win_length={win_length}, but got "
               f"window with size {list(window.shape)}")
    batched = signal.dim() == 2
    if not batched:
        signal = signal.unsqueeze(0)
    frames = 1 + (length - n_fft) // hop_length
    signal = signal.contiguous()
    rows, step = signal.stride()
    framed = as_strided(signal, (signal.shape[0], frames, n_fft), (rows, hop_length * step, step),
                        signal.storage_offset())
    if window is None:
        warn_at_caller("A window was not provided. A rectangular window will be applied,which is "
                       "known to cause spectral leakage. Other windows such as torch.hann_window "
                       "or torch.hamming_window are recommended to reduce spectral leakage.To "
                       "suppress this warning and use a rectangular window, explicitly set "
                       "`window=torch.ones(n_fft, device=<device>)`.")
    window = _full_window(window, n_fft, win_length)
    if window is not None:
        framed = framed * window
    scale = n_fft ** -0.5 if normalized else 1.0
    if framed.is_complex():
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        spectra = spectral.fft_c2c(framed, (2,), scale, forward=True)
    else:
        spectra = spectral.fft_r2c(framed, (2,), scale, onesided=onesided is not False)
    spectra.transpose_(1, 2)  # in place, as PyTorch (TransposeBackward1, SqueezeBackward4)
    if not batched:
        spectra.squeeze_(0)
    return spectra if return_complex else view_as_real(spectra)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """The signal whose ``stft`` is ``input`` (frames overlap-added, window envelope divided).

    The checks run in PyTorch's order, on the sizes of ``view_as_real(input)`` as PyTorch reads
    them (frames at -2, frequencies at -3)."""
    if window is None:
        warn_at_caller("A window was not provided. A rectangular window will be applied.Please "
                       "provide the same window used by stft to make the inversion lossless.To "
                       "suppress this warning and use a rectangular window, explicitly set "
                       "`window=torch.ones(n_fft, device=<device>)`.")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from "
                           "stft with return_complex=True.")

    def refuse(problem):
        raise RuntimeError(
            f"istft({_type_text(input)}{list(input.shape)}, n_fft={n_fft}, "
            f"hop_length={hop_length}, win_length={win_length}, window={_window_text(window)}, "
            f"center={int(center)}, normalized={int(normalized)}, onesided={_flag(onesided)}, "
            f"length={'None' if length is None else length}, "
            f"return_complex={int(return_complex)}) {problem}")

    real_dims = input.dim() + 1  # the real view's
    for position in (-2, -3):  # its frames, then its frequencies
        if real_dims < -position:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-real_dims}, "
                             f"{real_dims - 1}], but got {position})")
    frames, fft_size = input.shape[-1], input.shape[-2]
    if input.numel() == 0:
        refuse(": input tensor cannot be empty.")
    if real_dims not in (3, 4):
        refuse(f": expected a tensor with 3 or 4 dimensions, but got {real_dims}")
    onesided_input = fft_size != n_fft if onesided is None else onesided
    expected = n_fft // 2 + 1 if onesided_input else n_fft
    if fft_size != expected:
        refuse(": expected the frequency dimension (3rd to the last) of the input tensor to match "
               + ("n_fft / 2 + 1 when onesided=True" if onesided_input else
                  "n_fft when onesided=False") + f", but got {fft_size}")
    if not 0 < hop_length <= win_length:
        refuse(": expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        refuse(": expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        refuse(": Invalid window shape. window has to be 1D and length of `win_length`")
    pairs = view_as_real(input)  # PyTorch transposes the real view: (batch, frames, freq, 2)
    spectra = view_as_complex((pairs if input.dim() == 3 else pairs.unsqueeze(0)).transpose(1, 2))
    framed = _frames_of(spectra, n_fft, normalized, onesided_input, return_complex, window)
    full = _full_window(window, n_fft, win_length)
    if full is None:
        full = ones(n_fft, dtype=framed.real.dtype if framed.is_complex() else framed.dtype)
    total = n_fft + hop_length * (frames - 1)
    signal = _overlap_add(framed * full.view(1, 1, n_fft), total, n_fft, hop_length)
    envelope = _overlap_add(full.pow(2).expand(1, frames, n_fft), total, n_fft, hop_length)
    start = n_fft // 2 if center else 0
    end = total - (n_fft // 2 if center else 0) if length is None else start + length
    signal, envelope = signal[..., start:end], envelope[..., start:end]
    if envelope.abs().min().item() < 1e-11:
        refuse("window overlap add min: 1\n[ CPUBoolType{} ]")  # PyTorch prints the check
    signal = signal / envelope
    if input.dim() == 2:
        signal = signal.squeeze(0)
    if end > total:
        warn_at_caller("The length of signal is shorter than the length parameter. Result is "
                       "being padded with zeros in the tail. Please check your center and "
                       "hop_length settings.")
        signal = constant_pad_nd(signal, [0, end - total])
    return signal


def _frames_of(spectra, n_fft, normalized, onesided, return_complex, window):
    """Each frame's inverse transform: complex (both sides needed), or real from the onesided
    half (a twosided input's upper half is ignored, as PyTorch does)."""
    scale = n_fft ** -0.5 if normalized else 1.0 / n_fft  # the inverse's 1 / n, or ortho's
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        return spectral.fft_c2c(spectra, (2,), scale, forward=False)
    if window is not None and window.is_complex():
        raise RuntimeError("Complex windows are incompatible with return_complex=False")
    if not onesided:
        spectra = spectra[..., :n_fft // 2 + 1]
    return spectral.fft_c2r(spectra, (2,), n_fft, scale)


def _flag(value):
    return "None" if value is None else int(value)


def _full_window(window, n_fft, win_length):
    """The window centred in ``n_fft`` samples (None: rectangular)."""
    if window is None:
        if win_length == n_fft:
            return None
        window = ones(win_length)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = constant_pad_nd(window, [left, n_fft - win_length - left])
    return window


_LEGACY_TYPED = {"Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"}


def _type_text(tensor):
    """A tensor's type as PyTorch's checks print it: the legacy name (``torch.FloatTensor``)
    where one exists, else the backend's (``CPUComplexFloatType``, ``CPUBoolType``)."""
    name = dtypes.SCALAR_TYPE_NAMES[tensor._array.dtype.name]
    return tensor.type() if name in _LEGACY_TYPED else f"CPU{name}Type"


def _window_text(window):
    return "None" if window is None else f"{_type_text(window)}{{{list(window.shape)}}}"


def _overlap_add(framed, total, n_fft, hop_length):
    """(batch, frames, n_fft) frames summed at ``hop_length`` apart into (batch, total): the
    gradient of unfolding, as PyTorch computes it."""
    return unfold_backward(framed, (framed.shape[0], total), 1, n_fft, hop_length)
