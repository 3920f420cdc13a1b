"""``torch._dynamo``: the names PyTorch programs reach there (``reset``, ``list_backends``, the
``InvalidBackend`` exception)."""
import types

from .compile.runtime import BACKENDS, InvalidBackend, reset

__all__ = ["reset", "list_backends", "exc"]

exc = types.SimpleNamespace(InvalidBackend=InvalidBackend)


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names ``compile`` accepts (the debugging ones only when not excluded)."""
    debug = {"eager", "aot_eager"}
    return sorted(name for name in BACKENDS if not (exclude_tags and name in debug))
