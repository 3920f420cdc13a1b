"""vmap's ``randomness`` flag, for a vmap that calls its function once per example.

``"error"``: a random draw while the function runs raises PyTorch's error (every draw passes
through ``tapegrad.random.generator``, which calls ``random.draw_guard``); ``"different"``: each
example draws its own numbers, which looping gives by itself; ``"same"``: every example starts
from the default generator's state the first one started from, so all draw the same numbers.
"""
import contextlib

from .. import random

__all__ = ["check", "drawing", "each_example"]

MODES = ("error", "different", "same")
_ERROR = ("vmap: called random operation while in randomness error mode. Please either use the "
          "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
          "of vmap")


def check(randomness):
    if randomness not in MODES:
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def _refuse():
    raise RuntimeError(_ERROR)


@contextlib.contextmanager
def drawing(randomness):
    """While the function runs: draws raise under ``"error"`` (or under an enclosing vmap's
    ``"error"``, which stays in force, as in PyTorch)."""
    previous = random.draw_guard
    if randomness == "error":
        random.draw_guard = _refuse
    try:
        yield
    finally:
        random.draw_guard = previous


def each_example(randomness, calls):
    """The results of ``calls`` (one per example), run as ``randomness`` asks."""
    start = random.get_rng_state() if randomness == "same" else None
    results = []
    with drawing(randomness):
        for call in calls:
            if start is not None:
                random.set_rng_state(start)
            results.append(call())
    return results
