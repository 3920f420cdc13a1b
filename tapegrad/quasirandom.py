"""``torch.quasirandom``: the Sobol low-discrepancy sequence, as PyTorch draws it.

A Sobol point is built bit by bit: each dimension has 30 direction numbers (its row of
``sobolstate``), and point k+1 is point k XOR-ed with the direction number indexed by the lowest
zero bit of k (the Gray-code order of Antonov and Saleev), so ``draw``, ``fast_forward`` and
``reset`` give exactly PyTorch's points. The direction numbers are Joe and Kuo's (search criterion
D(6)); tapegrad carries their first 1111 dimensions, the count PyTorch's own tests draw from.
Scrambling (Owen's linear matrix scramble plus a random digital shift) follows PyTorch's recipe
with tapegrad's random generator, so scrambled points differ from PyTorch's, as all random
numbers do.
"""
import functools
import pathlib

import numpy as np

from . import dtypes as _dtypes
from .ops.creation import randint as _randint
from .random import Generator
from .tensor import Tensor

__all__ = ["SobolEngine"]

_MAXBIT = 30
_DIRECTIONS_FILE = pathlib.Path(__file__).with_name("sobol_directions.txt")


class SobolEngine:
    """An engine drawing (optionally scrambled) Sobol points in the unit cube ``[0, 1)^dimension``.

    ``SobolEngine(dimension, scramble=False, seed=None)``: unscrambled points are deterministic;
    ``seed`` seeds the scrambling's own generator.
    """

    MAXBIT = _MAXBIT
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality "
                             f"for SobolEngine is [1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.sobolstate = Tensor._make(_direction_numbers(dimension))
        if scramble:
            self._scramble()
        else:
            self.shift = Tensor._make(np.zeros(dimension, dtype=np.int64))
        self.quasi = self.shift.clone()
        # as PyTorch: the first point is kept in the default dtype of the engine's creation
        self._first_point = (self.shift._array / 2.0 ** _MAXBIT).astype(
            _dtypes.get_default_dtype().numpy)[None]
        self.num_generated = 0

    def draw(self, n=1, out=None, dtype=None):
        """The next ``n`` points, an ``(n, dimension)`` tensor of ``dtype`` (default: the default
        dtype); the first point ever drawn is the shift itself (all zeros unscrambled)."""
        dtype = _dtypes.get_default_dtype() if dtype is None else dtype
        if self.num_generated == 0 and n == 1:
            points = self._first_point.astype(dtype.numpy)
        elif self.num_generated == 0:
            rest = self._draw(n - 1, 0, dtype)
            points = np.concatenate([self._first_point.astype(dtype.numpy), rest])
        else:
            points = self._draw(n, self.num_generated - 1, dtype)
        self.num_generated += n
        result = Tensor._make(points)
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=None):
        """The next ``2**m`` points; the running total must stay a power of two, the count
        for which Sobol points keep their balance properties."""
        n = 2 ** m
        total_n = self.num_generated + n
        if total_n & (total_n - 1) != 0:
            raise ValueError(
                "The balance properties of Sobol' points require "
                f"n to be a power of 2. {self.num_generated} points have been "
                f"previously generated, then: n={self.num_generated}+2**{m}={total_n}. "
                "If you still want to do this, please use 'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        """Back to the first point."""
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        """Skip ``n`` points, as if drawn and thrown away."""
        if self.num_generated == 0:
            self._advance(n - 1, 0)
        else:
            self._advance(n, self.num_generated - 1)
        self.num_generated += n
        return self

    def _draw(self, n, index, dtype):
        """The next ``n`` points in ``[0, 1)`` as ``dtype`` (PyTorch's kernel: floating only)."""
        if dtype not in (_dtypes.float32, _dtypes.float64):
            raise NotImplementedError(
                f"\"_sobol_engine_draw\" not implemented for '{_scalar_type_name(dtype)}'")
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"[{n}, {self.dimension}]")
        return (self._advance(n, index) / 2.0 ** _MAXBIT).astype(dtype.numpy)

    def _advance(self, n, index):
        """The ``n`` points after the current one (as integers), stepping the Gray code from
        ``index``; the last becomes the current point."""
        if n <= 0:
            return np.empty((0, self.dimension), dtype=np.int64)
        bits = _lowest_zero_bit(np.arange(index, index + n, dtype=np.int64))
        steps = self.sobolstate._array[:, bits].T
        points = np.bitwise_xor.accumulate(steps, axis=0) ^ self.quasi._array
        self.quasi._array[...] = points[-1]
        return points

    def _scramble(self):
        """A random digital shift and a random lower-triangular (unit diagonal) bit matrix per
        dimension applied to its direction numbers: Owen's linear matrix scramble."""
        generator = None
        if self.seed is not None:
            generator = Generator()
            generator.manual_seed(self.seed)
        shift_bits = _randint(2, (self.dimension, _MAXBIT), generator=generator)._array
        self.shift = Tensor._make(shift_bits @ (2 ** np.arange(_MAXBIT, dtype=np.int64)))
        lower = np.tril(_randint(2, (self.dimension, _MAXBIT, _MAXBIT), generator=generator)._array)
        self.sobolstate._array[...] = _scrambled(self.sobolstate._array, lower)

    def __repr__(self):
        fields = [f"dimension={self.dimension}"]
        if self.scramble:
            fields.append("scramble=True")
        if self.seed is not None:
            fields.append(f"seed={self.seed}")
        return f"{type(self).__name__}({', '.join(fields)})"


def _scalar_type_name(dtype):
    """PyTorch's C++ name of a dtype, as its dispatch errors print it."""
    return _dtypes.SCALAR_TYPE_NAMES.get(dtype.name) or {"bfloat16": "BFloat16"}.get(
        dtype.name, dtype.name)


def _lowest_zero_bit(k):
    """Index of the lowest 0 bit of each integer in ``k``."""
    lowest_zero = ~k & (k + 1)
    return np.log2(lowest_zero).astype(np.int64)


def _bits_msb_first(values):
    """``values`` (int64) as ``_MAXBIT`` bits on a new last axis, the most significant first."""
    shifts = np.arange(_MAXBIT - 1, -1, -1, dtype=np.int64)
    return (values[..., None] >> shifts) & 1


def _scrambled(directions, lower):
    """Each dimension's direction numbers multiplied, as bit vectors over GF(2), by that
    dimension's lower-triangular matrix with its diagonal set to one."""
    lower = lower.copy()
    lower[:, np.arange(_MAXBIT), np.arange(_MAXBIT)] = 1
    bits = np.einsum("djc,dpc->djp", _bits_msb_first(directions), lower) % 2
    return bits @ (2 ** np.arange(_MAXBIT - 1, -1, -1, dtype=np.int64))


def _direction_numbers(dimension):
    """The ``(dimension, 30)`` direction numbers, each scaled to a 30-bit integer."""
    table = _joe_kuo_table()
    if dimension > len(table) + 1:
        raise NotImplementedError(
            f"SobolEngine: tapegrad has direction numbers for the first {len(table) + 1} "
            f"dimensions only, not {dimension}")
    rows = [np.ones(_MAXBIT, dtype=np.int64)] + [_row(*entry) for entry in table[:dimension - 1]]
    return np.stack(rows) << np.arange(_MAXBIT - 1, -1, -1, dtype=np.int64)


def _row(degree, coefficients, initial):
    """The 30 direction integers m_1.. of one dimension from its primitive polynomial (of
    ``degree``, inner ``coefficients`` as bits) by Bratley and Fox's recurrence
    m_j = 2 a_1 m_(j-1) ^ 4 a_2 m_(j-2) ^ ... ^ 2^s m_(j-s) ^ m_(j-s)."""
    m = list(initial)
    for j in range(degree, _MAXBIT):
        value = m[j - degree] ^ (m[j - degree] << degree)
        for k in range(1, degree):
            if (coefficients >> (degree - 1 - k)) & 1:
                value ^= m[j - k] << k
        m.append(value)
    return np.array(m, dtype=np.int64)


@functools.cache
def _joe_kuo_table():
    """Rows ``(s, a, (m_1, .., m_s))`` of Joe and Kuo's new-joe-kuo-6 file from dimension 2.

    Joe & Kuo, "Constructing Sobol sequences with better two-dimensional projections" (2008),
    new-joe-kuo-6.21201, dimensions 2..1111, kept in ``sobol_directions.txt`` beside this module:
    per line "s a m_1 .. m_s" (degree, inner polynomial coefficients, initial direction
    integers)."""
    rows = []
    for line in _DIRECTIONS_FILE.read_text().splitlines():
        degree, coefficients, *initial = map(int, line.split())
        rows.append((degree, coefficients, tuple(initial)))
    return rows
