"""Tensor layouts, as ``torch.layout``: tapegrad tensors are always dense and strided."""

__all__ = ["layout", "strided"]


class layout:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")
