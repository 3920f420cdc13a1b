"""Random number generation: one default generator, seeded by ``manual_seed``.

tapegrad draws from numpy's PCG64, so a seed gives a reproducible sequence but not PyTorch's
numbers (PyTorch uses a Mersenne Twister with its own transformations).
"""
import contextlib

import numpy as np

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator", "get_rng_state",
           "set_rng_state", "generator", "fork_rng"]


class Generator:
    """A source of random numbers, as ``torch.Generator``: ``Generator().manual_seed(0)``. A new
    generator starts from PyTorch's fixed default seed; only the default generator is seeded at
    random, when tapegrad is imported."""

    def __init__(self, device="cpu"):
        from .tensor import device as _device
        self.device = _device(device)
        if self.device.type == "cuda":
            raise RuntimeError(_NO_CUDA_GENERATOR)
        if self.device.type != "cpu":
            raise RuntimeError(f"tapegrad has no {self.device.type} generator: it runs on the "
                               "CPU only")
        self._seed = _DEFAULT_SEED
        self.rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed):
        """Seed with an integer in [-2**63, 2**64); a negative seed is read as its unsigned
        64-bit pattern, as PyTorch reads it (-1 is 2**64 - 1)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        _note_state_change()
        self._seed = seed & _MASK
        self.rng = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def seed(self):
        return self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The generator's state as a 1-d uint8 tensor, as PyTorch gives it (the bytes of
        tapegrad's own state: PCG64's, and the seed)."""
        from .tensor import Tensor
        return Tensor._make(_state_words(self).view(np.uint8))

    def set_state(self, new_state):
        """Restore a state ``get_state`` gave."""
        from .tensor import Tensor
        if not isinstance(new_state, Tensor) or new_state._array.dtype != np.uint8:
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._array.size != _STATE_BYTES:
            raise RuntimeError(f"Expected either a PhiloxCudaState or a state of {_STATE_BYTES} "
                               f"bytes, but got {new_state._array.size} bytes")
        _note_state_change()
        words = [int(w) for w in np.ascontiguousarray(new_state._array).view(np.uint64)]
        state_high, state_low, inc_high, inc_low, has_uint32, uinteger, seed = words
        self.rng.bit_generator.state = {
            "bit_generator": "PCG64", "has_uint32": has_uint32, "uinteger": uinteger,
            "state": {"state": state_high << 64 | state_low, "inc": inc_high << 64 | inc_low}}
        self._seed = seed
        return self


# What a CPU build of PyTorch says when asked for a CUDA generator.
_NO_CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are "
    "trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has "
    "occurred by using ldd on your binary to see if there is a dependency on *_cuda.so library.")
_MASK = 2 ** 64 - 1
# The seed of a new ``torch.Generator`` (PyTorch's ``default_rng_seed_val``).
_DEFAULT_SEED = 67280421310721
_STATE_BYTES = 7 * 8


def _state_words(generator):
    """PCG64's 128-bit state and increment, its buffered half-draw, and the seed, as uint64s."""
    state = generator.rng.bit_generator.state
    inner = state["state"]
    return np.array([inner["state"] >> 64, inner["state"] & _MASK, inner["inc"] >> 64,
                     inner["inc"] & _MASK, state["has_uint32"], state["uinteger"],
                     generator._seed], dtype=np.uint64)



# Random draws and reseeds so far, from any generator. The compiler's tracer compares the count
# before and after a trace: the draws ``drawn`` reports to ``draw_observer`` become inputs of the
# compiled graph, drawn anew on each call; any other event is a graph break (a compiled graph
# would repeat the same "random" values, or skip the reseed, on every call).
draws = 0
draw_observer = None
# Called before every draw when set: ``torch.func.vmap(randomness="error")`` refuses draws.
draw_guard = None


def generator(gen=None):
    """The numpy generator behind ``gen``, or behind the default generator, for one draw."""
    global draws
    if draw_guard is not None:
        draw_guard()
    draws += 1
    return (gen or default_generator).rng


def drawn(recipe):
    """``recipe()``: a fresh array of random numbers from tapegrad's generators, made so that a
    compiled call can draw it again. While the compiler traces, ``recipe`` is recorded as an input
    of the graph, and each compiled call runs it before its kernel: the numbers eager mode would
    have drawn, in the same order."""
    before = draws
    array = recipe()
    if draw_observer is not None:
        draw_observer(recipe, array, draws - before)
    return array


def _note_state_change():
    global draws
    draws += 1


default_generator = Generator()
default_generator.seed()


def manual_seed(seed):
    """Seed the default generator; ``seed`` goes through ``int()`` first, as in PyTorch (so
    1.5 seeds 1)."""
    return default_generator.manual_seed(int(seed))


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor, as PyTorch gives it (tapegrad's own
    bytes: see ``Generator.get_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """Restore the default generator's state on leaving the block (the CPU's is the only one
    tapegrad has; ``devices`` and ``device_type`` are accepted for PyTorch's signature)."""
    if not enabled:
        yield
        return
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)
