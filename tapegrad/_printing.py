"""Tensor ``repr`` formatting that matches PyTorch character for character.

Users compare tapegrad output with torch output, and doctests copied from
PyTorch should still pass, so this module follows the algorithm of
``torch/_tensor_str.py`` (PyTorch 2.x) closely, odd corners included.  It
works on plain numpy arrays and imports nothing else from tapegrad, so the
tensor class can call it without import cycles.  It is also ``torch._tensor_str``
(``printoptions``, ``get_printoptions``, ``PRINT_OPTS``).
"""

import contextlib
import dataclasses
import math

import numpy as np

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "format_tensor"]


@dataclasses.dataclass
class __PrinterOptions:  # (PyTorch's name, shown by its repr)
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: "bool | None" = None


_OPTS = PRINT_OPTS = __PrinterOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set global print options, with the semantics of ``torch.set_printoptions``.

    precision: digits after the decimal point (default 4).
    threshold: element count above which output is summarized with ``...``
        (default 1000).
    edgeitems: items kept at each end of a summarized dimension (default 3).
    linewidth: characters per line before wrapping (default 80).
    profile: ``"default"``, ``"short"`` or ``"full"``, applied first so the
        other arguments can override it.  Unknown names are ignored, as in torch.
    sci_mode: force scientific notation on (True) or off (False).  Like torch,
        this is always assigned, so leaving it out returns to automatic (None).
    """
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(_OPTS, name, value)
    for name, value in [
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ]:
        if value is not None:
            setattr(_OPTS, name, value)
    _OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options, as a dict ``set_printoptions(**options)`` takes back."""
    return dataclasses.asdict(_OPTS)


@contextlib.contextmanager
def printoptions(**options):
    """Print with ``options`` (``set_printoptions``'s arguments) inside the block only."""
    previous = get_printoptions()
    set_printoptions(**options)
    try:
        yield
    finally:
        set_printoptions(**previous)


class _Formatter:
    """Picks one style and one width for all elements, so columns line up.

    Like torch, only the elements that will actually be printed are measured,
    and for floats only the nonzero finite ones: they decide whether every
    value is integral (``2.``), fixed point (``2.5000``) or scientific.
    """

    def __init__(self, values):
        self.is_float = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.is_float:
            self.width = max([1] + [len(str(v)) for v in values.tolist()])
            return
        vals = values[np.isfinite(values) & (values != 0)].astype(np.float64)
        if vals.size == 0:
            return  # only zeros, nan and inf: they print like integers ("0.")
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        lo, hi = float(np.abs(vals).min()), float(np.abs(vals).max())
        if _OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = _OPTS.sci_mode
        # Integral floats get a trailing "." that the width must include.
        dot = 1 if self.int_mode and not self.sci_mode else 0
        self.width = max(len(self._text(v)) for v in vals.tolist()) + dot

    def _text(self, value):
        p = _OPTS.precision
        if self.sci_mode:
            return f"{value:.{p}e}"
        if self.int_mode:
            return f"{value:.0f}"
        return f"{value:.{p}f}"

    def format(self, value):
        if not self.is_float:
            text = str(value)
        elif self.int_mode and not self.sci_mode and math.isfinite(value):
            text = self._text(value) + "."  # the dot marks a float tensor
        else:
            text = self._text(value)
        return text.rjust(self.width)


class _ComplexFormatter:
    """Complex elements as torch prints them: the real parts share one float formatter, the
    imaginary parts another, joined as ``1.0000+2.j`` (the sign taken from the imaginary part)."""

    def __init__(self, values):
        self.real, self.imag = _Formatter(values.real), _Formatter(values.imag)
        self.width = self.real.width + self.imag.width + 1  # torch counts the "j", not the sign

    def format(self, value):
        imag = (self.imag.format(value.imag) + "j").lstrip()
        sign = "" if imag[0] in "+-" else "+"
        return self.real.format(value.real) + sign + imag


def _formatter(values):
    return (_ComplexFormatter if values.dtype.kind == "c" else _Formatter)(values)


def _printed_values(a):
    """The elements a summarized repr shows, flattened (torch's get_summarized_data)."""
    e = _OPTS.edgeitems
    if a.ndim == 0:
        return a.reshape(1)
    if a.ndim == 1:
        return np.concatenate((a[:e], a[len(a) - e :])) if len(a) > 2 * e else a
    if not e:
        return a.reshape(-1)[:0]
    rows = [*a[:e], *a[len(a) - e :]] if len(a) > 2 * e else list(a)
    return np.concatenate([_printed_values(r) for r in rows])


def _vector_str(a, indent, summarize, fmt):
    """A 1-d row, wrapped so each line fits in linewidth after `indent`."""
    e = _OPTS.edgeitems
    if summarize and not e:
        items = ["..."]
    elif summarize and len(a) > 2 * e:
        items = [fmt.format(v) for v in a[:e].tolist()] + [" ..."]
        items += [fmt.format(v) for v in a[len(a) - e :].tolist()]
    else:
        items = [fmt.format(v) for v in a.tolist()]
    # Every element is counted as width + len(", "), " ..." included.
    per_line = max(1, math.floor((_OPTS.linewidth - indent) / (fmt.width + 2)))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _block_str(a, indent, summarize, fmt):
    """Nested brackets; sub-blocks of a d-dim array are separated by d-1 newlines."""
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    e = _OPTS.edgeitems
    if summarize and len(a) > 2 * e:
        rows = [*a[:e], "...", *a[len(a) - e :]]
    else:
        rows = list(a)
    parts = [r if isinstance(r, str) else _block_str(r, indent + 1, summarize, fmt) for r in rows]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(parts) + "]"


def _add_suffixes(text, suffixes, indent):
    """Append ", key=value" parts, wrapping a part that would pass linewidth.

    The starting line length is computed exactly as torch does, including its
    off-by-two when the text has no newline, so wrapping happens at the same
    places.
    """
    out = [text]
    line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_len + len(suffix) + 2 > _OPTS.linewidth:
            out.append(",\n" + " " * indent + suffix)
            line_len = indent + len(suffix)
        else:
            out.append(", " + suffix)
            line_len += len(suffix) + 2
    return "".join(out) + ")"


def format_tensor(array, *, dtype_name, show_dtype, suffixes=(), name="tensor"):
    """The full repr of a tensor holding `array`, e.g. ``tensor([1., 2.])``.

    dtype_name: numpy-style name such as ``"float64"``, printed as
        ``dtype=torch.float64`` when show_dtype is true.  The caller decides
        show_dtype because only it knows the default dtype; note torch also
        shows int64/bool dtypes for empty tensors.
    suffixes: extra ``key=value`` parts (``requires_grad=True``,
        ``grad_fn=<AddBackward0>``) appended after the dtype.
    """
    a = np.asarray(array)
    prefix = name + "("  # a subclass of Tensor prints under its own name
    extra = []
    if a.size == 0:
        body = "[]"
        if a.ndim != 1:  # like NumPy, show the shape unless it is (0,)
            extra.append(f"size={tuple(a.shape)}")
    else:
        summarize = a.size > _OPTS.threshold
        fmt = _formatter(_printed_values(a) if summarize else a.reshape(-1))
        body = _block_str(a, len(prefix), summarize, fmt)
        if not _OPTS.edgeitems:  # torch then shows the shape, summarized or not
            extra.append(f"size={tuple(a.shape)}")
    if show_dtype:
        extra.append(f"dtype=torch.{dtype_name}")
    return _add_suffixes(prefix + body, extra + list(suffixes), len(prefix))
