"""``tapegrad.utils``: data loading (``utils.data``), gradient checkpointing
(``utils.checkpoint``), hook handles (``utils.hooks``) and nested containers (``utils._pytree``)."""
from . import _pytree, checkpoint, data, dlpack, hooks

__all__ = ["checkpoint", "data", "hooks"]
