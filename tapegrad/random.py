"""Random number generation: one default generator, seeded by ``manual_seed``.

tapegrad draws from numpy's PCG64, so a seed gives a reproducible sequence but not PyTorch's
numbers (PyTorch uses a Mersenne Twister with its own transformations).
"""
import numpy as np

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator", "get_rng_state",
           "set_rng_state", "generator"]


class Generator:
    """A source of random numbers, as ``torch.Generator``: ``Generator().manual_seed(0)``."""

    def __init__(self, device="cpu"):
        self._seed = int(np.random.SeedSequence().entropy % (2 ** 63))
        self.rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed):
        self._seed = int(seed)
        self.rng = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def seed(self):
        return self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        return self.rng.bit_generator.state

    def set_state(self, state):
        self.rng.bit_generator.state = state


default_generator = Generator()


def generator(gen=None):
    """The numpy generator behind ``gen``, or behind the default generator."""
    return (gen or default_generator).rng


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)
