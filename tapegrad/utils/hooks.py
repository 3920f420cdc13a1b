"""``utils.hooks``: the handle every ``register_*_hook`` returns."""
from ..nn.modules.hooks import RemovableHandle

__all__ = ["RemovableHandle"]
