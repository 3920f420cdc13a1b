"""Tensor layouts, as ``torch.layout``: tapegrad tensors are dense and strided, sparse COO
(``tapegrad._sparse_tensor``) or sparse CSR (``tapegrad.sparse._csr``)."""

__all__ = ["layout", "strided", "sparse_coo", "sparse_csr"]


class layout:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
