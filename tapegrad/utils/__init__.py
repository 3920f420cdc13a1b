"""``tapegrad.utils``: data loading (``utils.data``), gradient checkpointing
(``utils.checkpoint``) and hook handles (``utils.hooks``)."""
from . import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks"]
