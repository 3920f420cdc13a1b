"""``torch.backends.mha``: the switch of PyTorch's "fast path" for inference with
``MultiheadAttention`` and ``TransformerEncoder``. tapegrad computes the same values either way;
the one observable effect it mirrors is ``TransformerEncoder``'s zeros at padded positions."""

__all__ = ["get_fastpath_enabled", "set_fastpath_enabled"]

_enabled = True


def get_fastpath_enabled():
    return _enabled


def set_fastpath_enabled(value):
    global _enabled
    _enabled = bool(value)
