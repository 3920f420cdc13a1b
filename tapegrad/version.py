"""``torch.version``: the version of this library and of the accelerator toolkits it was built
with (none)."""
__all__ = ["__version__", "cuda", "hip", "debug", "git_version"]

__version__ = "0.1.0"
cuda = None
hip = None
debug = False
git_version = "Unknown"
