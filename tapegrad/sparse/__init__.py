"""``torch.sparse``: sparse COO tensors' functions (``sum``, ``mm``) and the legacy constructors
``torch.sparse.FloatTensor(indices, values, size)`` … that graph code of the GCN era still uses.

The tensor itself is ``tapegrad._sparse_tensor.SparseCooTensor``; ``torch.sparse_coo_tensor``,
``torch.spmm`` and the sparse branch of ``torch.mm``/``torch.matmul`` are defined here too.
"""
import functools

from .. import dtypes
from .. import ops
from .._sparse_tensor import (ZERO_PRESERVING, SparseCooTensor, _SparseTensor, could_not_run,
                              sparse_cat, sparse_coo_tensor, sparse_dense_mm, sparse_softmax,
                              sparse_sparse_mm, sparse_stack, sparse_sum)
from ..tensor import Tensor
from ._csr import SparseCsrTensor, csr_from_coo, sparse_csr_tensor

__all__ = ["sum", "mm", "addmm", "softmax", "log_softmax", "FloatTensor", "DoubleTensor",
           "LongTensor", "IntTensor", "ByteTensor", "BoolTensor", "sparse_coo_tensor",
           "sparse_csr_tensor", "spmm", "sparse_aware", "route_sparse_calls",
           "sequence_aware", "sparse_cat", "sparse_stack"]


def sum(input, dim=None, dtype=None):  # noqa: A001  (torch.sparse.sum)
    """Sum of a sparse tensor: a dense 0-d tensor, or sparse over the dimensions left."""
    if not isinstance(input, SparseCooTensor):
        raise RuntimeError("coalesce expected sparse coordinate tensor layout but got Strided")
    return sparse_sum(input if dtype is None else input.to(dtype), dim)


def mm(mat1, mat2, reduce="sum"):
    """``torch.sparse.mm``: sparse @ dense (recorded as ``SparseAddmmBackward0``), sparse @
    sparse (``SparseSparseMatmulBackward0``), or dense."""
    if reduce != "sum":
        raise could_not_run("_sparse_mm_reduce_impl")
    if isinstance(mat1, SparseCsrTensor) and isinstance(mat2, SparseCsrTensor):
        return csr_from_coo(mm(mat1._coo(), mat2._coo()))
    if isinstance(mat1, SparseCsrTensor):
        mat1 = mat1._coo()
    if isinstance(mat1, SparseCooTensor) and isinstance(mat2, SparseCooTensor):
        return sparse_sparse_mm(mat1, mat2, "SparseSparseMatmulBackward0")
    if isinstance(mat1, SparseCooTensor):
        return sparse_dense_mm(mat1, mat2, "SparseAddmmBackward0")
    return ops.mm(mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """``torch.sparse.addmm``: ``beta * mat + alpha * (mat1 @ mat2)`` for a sparse ``mat1``."""
    if isinstance(mat1, SparseCsrTensor):
        mat1 = mat1._coo()
    if not isinstance(mat1, SparseCooTensor):
        return ops.addmm(mat, mat1, mat2, beta=beta, alpha=alpha)
    return sparse_dense_mm(mat1, mat2, "SparseAddmmBackward0", bias=mat, beta=beta, alpha=alpha)


def softmax(input, dim, *, dtype=None):
    """``torch.sparse.softmax`` over the stored elements along ``dim`` (the others count as
    -inf, so they stay zero)."""
    if not isinstance(input, SparseCooTensor):
        raise could_not_run("_sparse_softmax", backend="CPU")
    return sparse_softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    if not isinstance(input, SparseCooTensor):
        raise could_not_run("_sparse_log_softmax", backend="CPU")
    return sparse_softmax(input, dim, dtype, log=True)


def spmm(input, mat2):
    """``torch.spmm``: ``torch.mm`` for a sparse first operand."""
    if isinstance(input, SparseCooTensor):
        return input.mm(mat2)
    return ops.mm(input, mat2)


def sparse_aware(dense_function, method):
    """``torch.mm`` / ``torch.matmul`` taking sparse operands too: sparse @ dense as the sparse
    tensor's ``<method>``, dense @ sparse as the product with its dense form (a dense result,
    as PyTorch's)."""
    @functools.wraps(dense_function)
    def dispatching(input, other, *args, **kwargs):
        if isinstance(input, _SparseTensor) and not args and not kwargs:
            return getattr(input, method)(other)
        if isinstance(input, _SparseTensor):
            raise could_not_run(method, input._backend)
        if isinstance(other, _SparseTensor):
            other = other._dense_form()
        return dense_function(input, other, *args, **kwargs)
    return dispatching


# torch functions whose first argument may be sparse: they run its method, as PyTorch's
# dispatch sends them to its sparse kernels (``torch.sqrt(s)`` is ``s.sqrt()``)
SPARSE_METHODS = ZERO_PRESERVING + ("neg", "pow", "select", "index_select", "unsqueeze",
                                    "permute", "norm")


def route_sparse_calls(namespace):
    """Wrap ``namespace``'s (``torch``'s) ``SPARSE_METHODS`` functions to dispatch so."""
    for name in SPARSE_METHODS:
        namespace[name] = _sparse_first(namespace[name], name)


def sequence_aware(dense_function, sparse_function):
    """``torch.cat`` / ``torch.stack`` taking sparse tensors: ``sparse_function`` when the
    first one is sparse."""
    @functools.wraps(dense_function)
    def dispatching(tensors, *args, **kwargs):
        if isinstance(tensors, (list, tuple)) and tensors and isinstance(tensors[0],
                                                                         SparseCooTensor):
            return sparse_function(tensors, *args, **kwargs)
        return dense_function(tensors, *args, **kwargs)
    return dispatching


def _sparse_first(function, name):
    @functools.wraps(function)
    def dispatching(input, *args, **kwargs):
        if isinstance(input, _SparseTensor):
            return getattr(input, name)(*args, **kwargs)
        return function(input, *args, **kwargs)
    return dispatching


class _LegacySparseType(type):
    """The type of ``torch.sparse.FloatTensor`` …: calling one makes a sparse COO tensor."""

    def __call__(cls, *args, size=None):
        if len(args) >= 2 and isinstance(args[0], Tensor):
            indices, values, *rest = args
            if rest:
                size = rest[0]
            return sparse_coo_tensor(indices, values, size)
        shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        indices = ops.zeros((len(shape), 0), dtype=dtypes.int64)
        return sparse_coo_tensor(indices, ops.zeros(0, dtype=cls.dtype), tuple(shape))

    def __repr__(cls):
        return f"<class 'torch.sparse.{cls.__name__}'>"


def _legacy_type(name, dtype):
    return _LegacySparseType(name, (), {"dtype": dtype, "__module__": "torch.sparse"})


FloatTensor = _legacy_type("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_type("DoubleTensor", dtypes.float64)
LongTensor = _legacy_type("LongTensor", dtypes.int64)
IntTensor = _legacy_type("IntTensor", dtypes.int32)
ByteTensor = _legacy_type("ByteTensor", dtypes.uint8)
BoolTensor = _legacy_type("BoolTensor", dtypes.bool)
