"""``tapegrad.utils``: data loading (``utils.data``) and gradient checkpointing
(``utils.checkpoint``)."""
from . import checkpoint, data

__all__ = ["checkpoint", "data"]
