"""Numba loops for the multiply-adds PyTorch rounds once (see ``single_rounding``, which decides
when they are worth importing Numba for). Each is allowed to contract (``fastmath={"contract"}``),
so LLVM emits the machine's fused multiply-add instruction, as PyTorch's vectorized kernels do.
The kernels are cached on disk.
"""
import numba

__all__ = ["scaled_add", "scaled_add_into", "multiply_add"]


# Two loops, not one with an aliased argument: LLVM vectorizes a loop only when it can tell
# its arrays apart, and an in-place update through three arguments ran at half the speed.
@numba.njit(cache=True, error_model="numpy", fastmath={"contract"})
def scaled_add_into(out, b, alpha):
    """``out += alpha * b`` over flat float32 arrays (``alpha`` a float32), rounded once."""
    for i in range(out.size):
        out[i] = out[i] + alpha * b[i]


@numba.njit(cache=True, error_model="numpy", fastmath={"contract"})
def scaled_add(out, a, b, alpha):
    """``out = a + alpha * b`` over flat float32 arrays (``alpha`` a float32), rounded once."""
    for i in range(out.size):
        out[i] = a[i] + alpha * b[i]


@numba.njit(cache=True, error_model="numpy", fastmath={"contract"})
def multiply_add(out, a, b, c):
    """``out = a + b * c`` over flat arrays of one dtype, one FMA per element."""
    for i in range(out.size):
        out[i] = a[i] + b[i] * c[i]
