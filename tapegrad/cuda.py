"""tapegrad runs on the CPU only. ``cuda.is_available()`` answers False so that device-agnostic
PyTorch code (``"cuda" if torch.cuda.is_available() else "cpu"``) picks the CPU and runs unchanged."""

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all"]


def is_available():
    return False


def device_count():
    return 0


def manual_seed(seed):
    """Nothing to seed: there is no CUDA generator."""


manual_seed_all = manual_seed
