"""Tensor layouts, as ``torch.layout``: tapegrad tensors are dense and strided, or sparse COO
(``tapegrad._sparse_tensor``)."""

__all__ = ["layout", "strided", "sparse_coo"]


class layout:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")
