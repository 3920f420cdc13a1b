"""Sparse CSR matrices (``layout=torch.sparse_csr``): row pointers, column indices and values.

Row ``r``'s stored elements are ``col_indices[crow_indices[r]:crow_indices[r + 1]]`` and the
same slice of ``values``: the elements of a COO matrix in row order. So a CSR tensor computes
through the COO tensor with the *same* values tensor (``_coo``): products, sums, conversions
and autograd (in values space, as for COO) are COO's. Other operations raise PyTorch's error
for the 'SparseCsrCPU' backend.
"""
import copy

import numpy as np

from .. import _layout, dtypes
from .._sparse_tensor import (SparseCooTensor, _SparseTensor, _alias, _as_tensor, _data_text,
                              _linear_positions, _with_suffixes, could_not_run, refuse_dense_api,
                              to_sparse)
from ..tensor import Tensor

__all__ = ["SparseCsrTensor", "sparse_csr_tensor", "csr_from_coo"]


class SparseCsrTensor(_SparseTensor):
    """A 2-D sparse matrix in CSR layout (dense trailing dimensions allowed, no batches)."""

    _backend, _layout_name = "SparseCsrCPU", "SparseCsr"
    is_sparse = property(lambda self: False)
    is_sparse_csr = property(lambda self: True)
    layout = property(lambda self: _layout.sparse_csr)

    @classmethod
    def _build(cls, crow, col, values, size):
        """The tensor from int64 row pointers and column indices (numpy arrays, checked), a
        values tensor carrying the history, and the size."""
        csr = object.__new__(cls)
        csr.__dict__.update(_sp_crow=crow, _sp_col=col, _sp_values=values, _sp_size=tuple(size))
        return csr

    def _with_values(self, values):
        return SparseCsrTensor._build(self._sp_crow, self._sp_col, values, self._sp_size)

    def _coo(self, values=None):
        """The same elements as a COO tensor, on the same values tensor (or on ``values``)."""
        rows = np.repeat(np.arange(len(self._sp_crow) - 1), np.diff(self._sp_crow))
        indices = np.stack([rows, self._sp_col]).astype(np.int64).reshape(2, -1)
        linear = _linear_positions(indices, self._sp_size[:2])
        coo = SparseCooTensor._build(Tensor._make(indices),
                                     self._sp_values if values is None else values,
                                     self._sp_size, _sorted_distinct(linear))
        source = self._dense_source()
        return coo if source is None else coo._remember_source(source)

    # -- the stored data ----------------------------------------------------------------------
    def crow_indices(self):
        return Tensor._make(self._sp_crow)

    def col_indices(self):
        return Tensor._make(self._sp_col)

    def values(self):
        return _alias(self._sp_values, "ValuesBackward0")

    def sparse_dim(self):
        return 2

    def dense_dim(self):
        return self._sp_values.dim() - 1

    @property
    def grad(self):
        grad = self._sp_values.grad
        return None if grad is None else self._with_values(grad)

    @grad.setter
    def grad(self, value):
        if value is not None:
            raise could_not_run("_set_grad", self._backend)
        self._sp_values.grad = None

    def __reduce_ex__(self, protocol):
        """Pickled as its parts (dense tensors, without requires_grad, as PyTorch's)."""
        return (_rebuild_sparse_csr, (self.crow_indices(), self.col_indices(),
                                      Tensor._make(self._sp_values._array), self._sp_size))

    def __deepcopy__(self, memo):
        new = self._with_values(copy.deepcopy(self._sp_values, memo))
        memo[id(self)] = new
        return new

    # -- conversions ----------------------------------------------------------------------------
    def to_dense(self, dtype=None, *, masked_grad=None):
        return self._coo().to_dense(dtype)

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        if layout is _layout.sparse_csr:
            return self
        if layout not in (None, _layout.sparse_coo) or blocksize is not None:
            raise could_not_run("to_sparse", self._backend)
        return self._coo(_alias(self._sp_values, "ToSparseBackward1"))

    def to_sparse_coo(self):
        return self.to_sparse()

    def to_sparse_csr(self, dense_dim=None):
        return self

    # -- arithmetic through the COO form --------------------------------------------------------
    def __mul__(self, other):
        if isinstance(other, Tensor) and (other.layout is not _layout.strided or other.dim()):
            raise could_not_run("mul.Tensor", self._backend)
        return self._mapped(lambda x: x * other)

    __rmul__ = mul = __mul__

    def __truediv__(self, other):
        raise RuntimeError("unsupported tensor layout: SparseCsr")

    div = __truediv__

    def __neg__(self):
        return self._mapped(lambda x: -x)

    neg = __neg__

    def add(self, other, *, alpha=1):
        """CSR + CSR: the COO sum, compressed again; CSR + dense: dense, as PyTorch gives."""
        if isinstance(other, SparseCsrTensor):
            return csr_from_coo(self._coo().add(other._coo(), alpha=alpha))
        if isinstance(other, Tensor) and other.layout is _layout.strided:
            return self.to_dense().add(other, alpha=alpha)
        raise could_not_run("add.Tensor", self._backend)

    __add__ = add

    def __radd__(self, other):
        return self.add(other)

    def sum(self, dim=None, keepdim=False, dtype=None):
        if dim is not None and not keepdim:
            raise RuntimeError("reduction operations on CSR tensors with keepdim=False is "
                               "unsupported")
        if dim is not None:
            raise could_not_run("sum.dim_IntList", self._backend)
        return self._sp_values.sum(dtype=dtype)

    def mm(self, mat2):
        """CSR @ dense (dense), CSR @ CSR (CSR): COO's products."""
        if isinstance(mat2, SparseCsrTensor):
            return csr_from_coo(self._coo().mm(mat2._coo()))
        if isinstance(mat2, _SparseTensor):
            raise could_not_run("mm", self._backend)
        return self._coo().mm(mat2)

    # -- printing -----------------------------------------------------------------------------
    def __repr__(self):
        """PyTorch's layout: the three parts on their own lines, the suffixes wrapped after."""
        indent = len("tensor(")
        parts = [("crow_indices", self._sp_crow), ("col_indices", self._sp_col),
                 ("values", self._sp_values._array)]
        body = "tensor(" + (",\n" + " " * indent).join(
            f"{name}=tensor({_data_text(array, indent + len(name) + len('=tensor('))})"
            for name, array in parts)
        suffixes = [f"size={self._sp_size}", f"nnz={self._nnz()}"]
        if self.dtype not in (dtypes.get_default_dtype(), dtypes.default_complex_dtype(),
                              dtypes.int64, dtypes.bool):
            suffixes.append(f"dtype=torch.{self.dtype.name}")
        suffixes.append("layout=torch.sparse_csr")
        if self.grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(self.grad_fn).__name__}>")
        elif self.requires_grad:
            suffixes.append("requires_grad=True")
        return _with_suffixes(body, suffixes, indent, force_newline=False)

    __str__ = __repr__


refuse_dense_api(SparseCsrTensor)


def _rebuild_sparse_csr(crow, col, values, size):
    return SparseCsrTensor._build(crow._array, col._array, values, size)


def _sorted_distinct(linear):
    """Whether positions strictly increase: the elements are sorted and distinct."""
    return bool(np.all(np.diff(linear) > 0))


def csr_from_coo(coo, node=None):
    """A 2-D COO tensor compressed by rows (coalesced first), on its values tensor (recorded
    as ``node`` when given)."""
    if coo.sparse_dim() != 2:
        raise RuntimeError(f"to_sparse_csr: expected a 2-D sparse tensor, got "
                           f"{coo.sparse_dim()} sparse dimensions")
    coo = coo.coalesce()
    rows, cols = coo._sp_indices._array
    crow = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=coo._sp_size[0]))])
    values = coo._sp_values if node is None else _alias(coo._sp_values, node)
    csr = SparseCsrTensor._build(crow.astype(np.int64), cols.astype(np.int64), values,
                                 coo._sp_size)
    source = coo._dense_source()
    return csr if source is None else csr._remember_source(source)


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):
    """A CSR matrix from its parts; ``size`` defaults to (rows, largest column + 1). The
    invariants that keep the parts consistent are checked always, with PyTorch's messages;
    sorted, distinct columns in each row only with ``check_invariants=True``."""
    if device is not None:
        Tensor._make(np.zeros(0)).to(device)  # PyTorch's error for a device that is not here
    crow = _as_tensor(crow_indices)._array.astype(np.int64)
    col = _as_tensor(col_indices)._array.astype(np.int64)
    value_tensor = _as_tensor(values, dtype)
    if crow.ndim != 1 or col.ndim != 1:
        raise could_not_run("_sparse_csr_tensor_unsafe (batched)", "SparseCsrCPU")
    dense_sizes = tuple(value_tensor.shape[1:])
    if size is None:
        size = (len(crow) - 1, int(col.max()) + 1 if col.size else 0) + dense_sizes
    size = tuple(int(s) for s in size)
    _check_invariants(crow, col, value_tensor, size, bool(check_invariants))
    if requires_grad:
        value_tensor = value_tensor.detach().requires_grad_(True)
    else:
        value_tensor = _alias(value_tensor, "SparseCompressedTensorBackward0")
    return SparseCsrTensor._build(crow, col, value_tensor, size)


def _check_invariants(crow, col, values, size, check_order):
    """PyTorch's ``_validate_sparse_compressed_tensor_args`` checks (its messages)."""
    dense_dim = values.dim() - 1
    if len(size) != 2 + dense_dim:
        raise RuntimeError(f"tensor dimensionality must be sum of batch, base, and dense "
                           f"dimensionalities (=0 + 2 + {dense_dim}) but got {len(size)}")
    if tuple(size[2:]) != tuple(values.shape[1:]):
        raise RuntimeError(f"values has incorrect size, expected {list(size[2:])}, got "
                           f"{list(values.shape[1:])}")
    rows, cols = size[:2]
    if len(crow) != rows + 1:
        raise RuntimeError(f"crow_indices.shape[-1] must be equal to the number of rows + 1 "
                           f"(={rows + 1}), but got {len(crow)}")
    if len(col) != values.shape[0]:
        raise RuntimeError(f"col_indices.shape[-1] must be equal to nnz (={values.shape[0]}) as "
                           f"defined by values.shape[0], but got {len(col)}")
    if crow[0] != 0:
        raise RuntimeError("`crow_indices[..., 0] == 0` is not satisfied.")
    if crow[-1] != len(col):
        raise RuntimeError("`crow_indices[..., -1] == nnz` is not satisfied.")
    if np.any(np.diff(crow) < 0) or np.any(np.diff(crow) > cols):
        raise RuntimeError("`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols` is "
                           "not satisfied.")
    if col.size and (col.min() < 0 or col.max() >= cols):
        raise RuntimeError("`0 <= col_indices < ncols` is not satisfied.")
    rows_of = np.repeat(np.arange(rows), np.diff(crow))
    if check_order and not _sorted_distinct(rows_of * cols + col):
        raise RuntimeError("`col_indices[..., crow_indices[..., i - 1]:crow_indices[..., i]] for "
                           "all i = 1, ..., nrows are sorted and distinct along the last "
                           "dimension values` is not satisfied.")


def dense_to_csr(dense, dense_dim=None):
    """``dense.to_sparse_csr()``: its nonzero elements by rows (``ToSparseCsrBackward0``)."""
    if dense.dim() != 2 or dense_dim:
        raise could_not_run("to_sparse_csr (batched or hybrid)", "CPU")
    return csr_from_coo(to_sparse(dense), "ToSparseCsrBackward0")


# the dense tensor's side
Tensor.to_sparse_csr = dense_to_csr
Tensor.is_sparse_csr = property(lambda self: False)
