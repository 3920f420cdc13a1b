"""Sparse COO tensors, as ``torch.sparse_coo_tensor`` makes them: indices, values and a size.

A ``SparseCooTensor`` holds an int64 ``indices`` tensor (``sparse_dim x nnz``), a dense ``values``
tensor (``nnz x dense sizes``) and the full size. Duplicated indices are allowed until
``coalesce()`` sums them and sorts the indices, as in PyTorch.

Autograd works in *values space*: a sparse tensor's gradient is the gradient of its values (one
entry per stored element, in storage order), so the engine only ever moves dense tensors. The
values tensor carries the sparse tensor's history (``grad_fn``, ``requires_grad``), and each sparse
operation records a node named as PyTorch names it (``SparseCooTensorWithDimsAndTensorsBackward0``,
``CoalesceBackward0``, ``ToDenseBackward0``, ``MmBackward0`` …) whose rule is written with
tapegrad operations, so ``create_graph`` works through it. One exception: a sparse tensor that
is still exactly the conversion of a dense tensor (``to_sparse``; see ``_dense_source``) sends
the dense gradients of ``torch.mm`` and of dense-with-sparse operations to that tensor whole, as
PyTorch's ``ToSparseBackward`` passes them through.

In-place operations (``mul_``, ``add_``, ``zero_`` …) compute their result and take its indices
and values, as PyTorch's do (``_become``). The shared part of the sparse layouts is
``_SparseTensor``; the CSR layout is ``tapegrad.sparse._csr``.

What is not implemented raises PyTorch's ``NotImplementedError`` ("Could not run 'aten::…' with
arguments from the 'SparseCPU' backend"), never a wrong answer: the dense data such operations
would read (``_array``) does not exist on a sparse tensor.
"""
import builtins
import copy
import sys

import numpy as np

from . import dtypes, _layout
from . import ops
from ._printing import _OPTS, _block_str, _formatter, _printed_values
from .autograd import grad_mode
from .autograd.graph import FREED_MESSAGE, Node
from .ops.registry import Primitive, _edge, _modified_message
from .overrides import disabled_torch_function
from .tensor import LEAF_INPLACE_ERROR, Size, Tensor, _wrap_dim

__all__ = ["SparseCooTensor", "sparse_coo_tensor", "sparse_dense_mm", "sparse_sparse_mm",
           "sparse_cat", "sparse_stack", "to_sparse", "sparse_sum",
           "sparse_softmax", "could_not_run"]

UNCOALESCED_ERROR = "Cannot get {} on an uncoalesced tensor, please call .coalesce() first"


def could_not_run(op, backend="SparseCPU"):
    """PyTorch's error for an operator the sparse backend lacks (here: that tapegrad lacks)."""
    return NotImplementedError(
        f"Could not run 'aten::{op}' with arguments from the '{backend}' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). (tapegrad's sparse tensors "
        "support construction, coalesce, indices/values, to_dense, products, sums, softmax, "
        "select/index_select/cat, elementwise ops that keep zeros, and in-place arithmetic; "
        "call .to_dense() for the rest.)")


# ------------------------------------------------------------------------------------ nodes

class _SparseNode(Node):
    """A backward step of a sparse operation: ``rule(grad, *saved)`` gives the inputs' gradients.
    ``saved`` holds (tensor, version) pairs, checked and freed as the op table's nodes do."""

    __slots__ = ("rule", "saved")

    def apply(self, grads):
        if self.saved is None:
            raise RuntimeError(FREED_MESSAGE)
        return tuple(self.rule(grads[0], *[_unpack(entry) for entry in self.saved]))

    def release(self):
        if self.saved:
            self.saved = None


def _unpack(entry):
    tensor, version = entry
    if tensor._version_counter.value != version:
        raise RuntimeError(_modified_message(tensor, version, None))
    return tensor


_NODE_CLASSES = {}


def _node_class(name):
    if name not in _NODE_CLASSES:
        _NODE_CLASSES[name] = type(name, (_SparseNode,), {"__slots__": ()})
    return _NODE_CLASSES[name]


def _recording(inputs):
    state = grad_mode._state
    return (state.grad_enabled and not state.inference
            and builtins.any(t is not None and t._requires_grad for t in inputs))


def _record(name, result, inputs, rule, saved=()):
    """Attach node ``name`` to the dense ``result`` when an input requires grad (an input None:
    an edge to nothing, as PyTorch's node has for an argument it made itself)."""
    if not _recording(inputs) or result._array.dtype.kind not in "fc":
        return result
    node = _node_class(name)(tuple(_edge(t) if t is not None and t._requires_grad else (None, 0)
                                   for t in inputs))
    node.rule = rule
    node.saved = tuple((t, t._version_counter.value) for t in saved)
    result._grad_fn, result._requires_grad = node, True
    return result


def _no_backward(result, source, name, error):
    """``result`` recorded as node ``name`` of ``source``, for an operation PyTorch's sparse
    backend has no backward for: running it raises ``error()``, PyTorch's error."""
    def refuse(grad):
        raise error()
    return _record(name, result, (source,), refuse)


def _selected(result, source):
    return _no_backward(result, source, "SelectBackward0",
                        lambda: could_not_run("select_backward"))


def _summed(result, source):
    return _no_backward(result, source, "SumBackward1",
                        lambda: RuntimeError("expand is unsupported for Sparse tensors"))


def _alias(values, name, saved=()):
    """``values`` as a new tensor on the same memory, recorded as node ``name`` (identity);
    ``saved``: what PyTorch's node keeps, so that a second backward through it is refused."""
    return _record(name, Tensor._make(values._array), (values,), lambda grad, *_: (grad,), saved)


def _segment_sum(values, inverse, count, name, order=None):
    """Sum ``values`` into ``count`` slots (entry i into slot ``inverse[i]``), adding in
    ``order`` (default: entry order); the gradient of each entry is its slot's."""
    array = values._array
    summed = np.zeros((count,) + array.shape[1:], array.dtype)
    if order is None:
        np.add.at(summed, inverse, array)
    else:
        np.add.at(summed, inverse[order], array[order])
    index = Tensor._make(inverse.astype(np.int64))
    return _record(name, Tensor._make(summed), (values,),
                   lambda grad: (ops.index_select(grad, 0, index),))


# ------------------------------------------------------------------------------ the tensor

class _SparseTensor(Tensor):
    """What the sparse layouts share: no dense data, a size, and a values tensor that carries
    the autograd state. A subclass has ``_sp_values``, ``_sp_size`` and ``_with_values``."""

    __module__ = "torch"
    __torch_function__ = classmethod(disabled_torch_function)  # its own operations decide

    def __new__(cls, *args, **kwargs):
        raise TypeError("use torch.sparse_coo_tensor or torch.sparse_csr_tensor to make a sparse "
                        "tensor")

    # -- no dense data: every dense operation stops here, naming itself --------------------
    @property
    def _array(self):
        raise could_not_run(_calling_operation(), self._backend)

    # -- metadata -------------------------------------------------------------------------------
    dtype = property(lambda self: self._sp_values.dtype)
    shape = property(lambda self: Size(self._sp_size))

    def size(self, dim=None):
        return Size(self._sp_size) if dim is None else self._sp_size[_wrap_dim(dim, self.dim())]

    def dim(self):
        return len(self._sp_size)

    ndim = property(dim)
    ndimension = dim

    def numel(self):
        return int(np.prod(self._sp_size))

    nelement = numel

    def __len__(self):
        if not self._sp_size:
            raise TypeError("len() of a 0-d tensor")
        return self._sp_size[0]

    def __bool__(self):
        if self.numel() != 1:
            amount = "no values" if self.numel() == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return builtins.bool(self.to_dense().item())

    def __format__(self, spec):
        return object.__format__(self, spec)

    def is_floating_point(self):
        return self._sp_values.is_floating_point()

    def is_complex(self):
        return self._sp_values.is_complex()

    def is_contiguous(self, memory_format=None):
        return False

    def _nnz(self):
        return self._sp_values.shape[0]

    # -- autograd state lives on the values --------------------------------------------------
    _requires_grad = property(lambda self: self._sp_values._requires_grad)
    _grad_fn = property(lambda self: self._sp_values._grad_fn)
    _version_counter = property(lambda self: self._sp_values._version_counter)

    @property
    def requires_grad(self):
        return self._sp_values.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self._sp_values.requires_grad = flag

    def requires_grad_(self, requires_grad=True):
        self._sp_values.requires_grad_(requires_grad)
        return self

    grad_fn = property(lambda self: self._sp_values.grad_fn)
    is_leaf = property(lambda self: self._sp_values.is_leaf)

    def detach(self):
        return self._with_values(self._sp_values.detach())

    data = property(detach)

    def clone(self, *, memory_format=None):
        return self._with_values(ops.clone(self._sp_values))

    # -- the conversion of a dense tensor ---------------------------------------------------
    def _dense_source(self):
        """The dense tensor this one still exactly is the conversion of (``to_sparse``,
        ``to_sparse_csr`` and nothing since), else None. PyTorch's ``ToSparseBackward`` passes
        a dense gradient through to it whole, so ``torch.mm`` and dense-with-sparse operations
        give it gradients off the stored pattern too."""
        source = self.__dict__.get("_sp_source")
        if source is not None and source[1] is self._sp_values._grad_fn:
            return source[0]
        return None

    def _remember_source(self, dense):
        """Mark this tensor as the conversion of ``dense`` (see ``_dense_source``)."""
        if self._sp_values._grad_fn is not None:
            self.__dict__["_sp_source"] = (dense, self._sp_values._grad_fn)
        return self

    def _mapped(self, linear):
        """The same pattern, values ``linear(values)``; the conversion of ``linear(source)``
        when this one converts a dense ``source`` (see ``_dense_source``)."""
        result = self._with_values(linear(self._sp_values))
        source = self._dense_source()
        return result if source is None else result._remember_source(linear(source))

    def __matmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return self.matmul(other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return other @ self._dense_form()

    def matmul(self, other):
        """``self.mm(other)``; a dense vector ``other`` gives a vector (``mv``)."""
        if isinstance(other, Tensor) and other.layout is _layout.strided and other.dim() == 1:
            return as_vector_product(self.mm(other.unsqueeze(1)))
        return self.mm(other)

    def _dense_form(self):
        """``to_dense()`` as the operand of a dense operation (``dense + sparse``, ``dense @
        sparse``): its gradient goes whole to the dense source when there is one."""
        source = self._dense_source()
        if source is None:
            return self.to_dense()
        with grad_mode.no_grad():
            dense = self.to_dense()
        return _record(type(self._sp_values._grad_fn).__name__, Tensor._make(dense._array),
                       (source,), lambda grad: (grad,))

    # -- conversions ----------------------------------------------------------------------------
    def _map_values(self, method, *args, **kwargs):
        values = getattr(self._sp_values, method)(*args, **kwargs)
        return self if values is self._sp_values else self._with_values(values)

    def to(self, *args, **kwargs):
        if builtins.any(a is _layout.strided for a in args):
            raise could_not_run("to", self._backend)
        return self._map_values("to", *args, **kwargs)

    def float(self):
        return self._map_values("float")

    def double(self):
        return self._map_values("double")

    def half(self):
        return self._map_values("half")

    def long(self):
        return self._map_values("long")

    def int(self):
        return self._map_values("int")

    def bool(self):
        return self._map_values("bool")

    def cpu(self):
        return self

    def element_size(self):
        return self._sp_values.element_size()

    def data_ptr(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def numpy(self, *, force=False):
        raise TypeError(f"can't convert {self._layout_name} layout tensor to numpy. Use "
                        "Tensor.to_dense() first.")


class SparseCooTensor(_SparseTensor):
    """A sparse tensor in COO layout; ``type()`` prints as PyTorch's ``torch.Tensor``."""

    _backend, _layout_name = "SparseCPU", "Sparse"
    is_sparse = property(lambda self: True)
    layout = property(lambda self: _layout.sparse_coo)

    @classmethod
    def _build(cls, indices, values, size, coalesced):
        """The tensor from an int64 index tensor, a values tensor (carrying the history) and the
        size, all already checked."""
        sparse = object.__new__(cls)
        sparse.__dict__.update(_sp_indices=indices, _sp_values=values, _sp_size=tuple(size),
                               _sp_coalesced=bool(coalesced))
        return sparse

    def _with_values(self, values):
        """The same indices with new values (an elementwise map of the old ones)."""
        return SparseCooTensor._build(self._sp_indices, values, self._sp_size, self._sp_coalesced)

    def sparse_dim(self):
        return self._sp_indices.shape[0]

    def dense_dim(self):
        return self._sp_values.dim() - 1

    def is_coalesced(self):
        return self._sp_coalesced

    def type(self, dtype=None):
        if dtype is None:
            return "torch.sparse." + self._sp_values.type()[len("torch."):]
        return self._map_values("type", dtype)

    @property
    def grad(self):
        """A leaf's gradient, sparse, as PyTorch gives it: one element per distinct position
        (sorted), whose value every stored duplicate of that position received."""
        grad = self._sp_values.grad
        if grad is None or self._sp_coalesced:
            return None if grad is None else self._with_values(grad)
        sparse_size = self._sp_size[:self.sparse_dim()]
        positions, first = np.unique(_linear_positions(self._sp_indices._array, sparse_size),
                                     return_index=True)
        indices = np.array(np.unravel_index(positions, sparse_size), np.int64).reshape(
            len(sparse_size), len(positions))
        return SparseCooTensor._build(Tensor._make(indices), Tensor._make(grad._array[first]),
                                      self._sp_size, False)

    @grad.setter
    def grad(self, value):
        if value is not None:
            raise could_not_run("_set_grad")
        self._sp_values.grad = None

    def __reduce_ex__(self, protocol):
        """Pickled as its parts (dense tensors, without requires_grad, as PyTorch's)."""
        return (_rebuild_sparse_coo, (self._indices(), self._values(), self._sp_size,
                                      self._sp_coalesced))

    def __deepcopy__(self, memo):
        """A copy of a leaf (its values deep-copied, with their grad), as Tensor's."""
        values = copy.deepcopy(self._sp_values, memo)
        new = SparseCooTensor._build(copy.deepcopy(self._sp_indices, memo), values,
                                     self._sp_size, self._sp_coalesced)
        memo[id(self)] = new
        return new

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        if layout is _layout.sparse_csr and blocksize is None:
            return self.to_sparse_csr()
        if layout not in (None, _layout.sparse_coo) or blocksize is not None:
            raise could_not_run("to_sparse")
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError("to_sparse: conversion from Sparse to Sparse with sparse_dim "
                               "argument !=self.sparse_dim() is not supported")
        return self

    to_sparse_coo = to_sparse

    def copy_(self, src, non_blocking=False):
        """Become a copy of sparse ``src`` (its size too), recorded as ``CopyBackwards``."""
        if not isinstance(src, SparseCooTensor):
            raise RuntimeError(f"copy_() between dense and sparse Tensors is not implemented! "
                               f"Found self type = {self.type()} and src type = {src.type()}")
        values = _record("CopyBackwards", Tensor._make(src._sp_values._array.astype(
            self._sp_values._array.dtype)), (src._sp_values,),
            lambda grad: (grad.to(src.dtype),))
        self.__dict__["_sp_size"] = src._sp_size
        return self._become(SparseCooTensor._build(
            Tensor._make(src._sp_indices._array.copy()), values, src._sp_size,
            src._sp_coalesced))

    def detach_(self):
        self.__dict__["_sp_values"] = self._sp_values.detach()
        return self

    def to_sparse_csr(self, dense_dim=None):
        from .sparse._csr import csr_from_coo
        return csr_from_coo(self, "ToSparseCsrBackward0")

    # -- the stored data ------------------------------------------------------------------------
    def _indices(self):
        return Tensor._make(self._sp_indices._array)

    def _values(self):
        return Tensor._make(self._sp_values._array)

    def indices(self):
        if not self._sp_coalesced:
            raise RuntimeError(UNCOALESCED_ERROR.format("indices"))
        return self._indices()

    def values(self):
        if not self._sp_coalesced:
            raise RuntimeError(UNCOALESCED_ERROR.format("values"))
        return _alias(self._sp_values, "ValuesBackward0")

    def coalesce(self):
        """Duplicated indices summed, indices sorted (row-major); ``self`` when already so."""
        if self._sp_coalesced:
            return self
        sparse_size = self._sp_size[:self.sparse_dim()]
        linear = _linear_positions(self._sp_indices._array, sparse_size)
        unique, inverse, order = _grouped(linear)
        values = _segment_sum(self._sp_values, inverse, len(unique), "CoalesceBackward0", order)
        indices = np.array(np.unravel_index(unique, sparse_size), np.int64).reshape(
            len(sparse_size), len(unique))
        return SparseCooTensor._build(Tensor._make(indices), values, self._sp_size, True)

    def to_dense(self, dtype=None, *, masked_grad=None):
        """The dense tensor; duplicated entries add up."""
        if dtype is not None:
            raise RuntimeError("dtype argument is not supported by sparse_to_dense")
        values = self._sp_values
        dense = np.zeros(self._sp_size, values._array.dtype)
        where = tuple(self._sp_indices._array)
        np.add.at(dense, where, values._array)
        index = tuple(Tensor._make(row) for row in where)
        return _record("ToDenseBackward0", Tensor._make(dense), (values,),
                       lambda grad: (grad[index],))

    # -- arithmetic ---------------------------------------------------------------------------
    def __mul__(self, other):
        """By a number or a dense tensor that broadcasts to this shape (each stored element
        times the one at its position); sparse * sparse is not supported."""
        if isinstance(other, SparseCooTensor):
            return _sparse_product(self, other)
        if isinstance(other, Tensor) and other.dim():
            return self._with_values(self._sp_values * self._at_positions(other, "mul.Tensor"))
        return self._mapped(lambda x: x * other)

    __rmul__ = __mul__
    mul = __mul__

    def _at_positions(self, dense, op):
        """The elements of ``dense`` (broadcast to this shape) at the stored positions."""
        if self.dense_dim() or np.broadcast_shapes(dense.shape, self._sp_size) != self._sp_size:
            raise could_not_run(op)
        index = tuple(Tensor._make(row) for row in self._sp_indices._array)
        return dense.expand(self._sp_size)[index]

    def __truediv__(self, other):
        if isinstance(other, Tensor) and (other.is_sparse or other.dim()):
            raise could_not_run("div.Tensor")
        return self._mapped(lambda x: x / other)

    div = __truediv__

    def __neg__(self):
        return self._mapped(lambda x: -x)

    neg = __neg__

    def __add__(self, other):
        return self.add(other)

    def __sub__(self, other):
        return self.sub(other)

    # dense ∘ sparse: Python asks this subclass first. PyTorch adds into, and multiplies with,
    # the dense operand: the result is dense
    def __radd__(self, other):
        if not isinstance(other, Tensor):
            raise could_not_run("add.Tensor")
        return other + self._dense_form()

    def __rsub__(self, other):
        if not isinstance(other, Tensor):
            raise could_not_run("sub.Tensor")
        return other - self._dense_form()

    def add(self, other, *, alpha=1):
        """Sparse + sparse, merged as PyTorch merges (see ``_merge``)."""
        return self._combined(other, alpha, "AddBackward0")

    def sub(self, other, *, alpha=1):
        return self._combined(other, -alpha, "SubBackward0")

    def _combined(self, other, alpha, node):
        if not isinstance(other, Tensor) or not other.is_sparse:
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                               "instead.")
        if self._sp_size != other._sp_size:
            raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but "
                               f"{list(self._sp_size)} != {list(other._sp_size)}")
        if self.sparse_dim() != other.sparse_dim():
            raise _density_error(self, other)
        return _merge(self, other, alpha, node)

    # -- in place: PyTorch computes the result and takes its indices and values ----------------
    def mul_(self, other):
        """In place; PyTorch marks the result uncoalesced, whatever the operands."""
        return self._become(self.mul(other), coalesced=False)

    def div_(self, other):
        return self._become(self.div(other))

    def neg_(self):
        return self._become(self.neg())

    def add_(self, other, *, alpha=1):
        return self._become(self.add(other, alpha=alpha))

    def sub_(self, other, *, alpha=1):
        return self._become(self.sub(other, alpha=alpha))

    def zero_(self):
        """No stored elements left (coalesced), as PyTorch's ``zero_`` leaves a sparse tensor."""
        values = self._sp_values
        shape, dtype = values.shape, values.dtype
        nothing = Tensor._make(np.zeros((0,) + shape[1:], values._array.dtype))
        empty = _record("ZeroBackward0", nothing, (values,),
                        lambda grad: (ops.zeros(shape, dtype=dtype),))
        indices = Tensor._make(np.zeros((self.sparse_dim(), 0), np.int64))
        return self._become(SparseCooTensor._build(indices, empty, self._sp_size, True))

    __imul__, __itruediv__, __iadd__, __isub__ = mul_, div_, add_, sub_
    multiply_, divide_, true_divide_, subtract_, negative_ = mul_, div_, div_, sub_, neg_

    def _become(self, result, coalesced=None):
        """Take ``result``'s indices and values. The old values are not written (a ``values()``
        taken before keeps its numbers, as in PyTorch), but their version moves on, so that a
        backward step that saved them refuses to run."""
        values, old = result._sp_values, self._sp_values
        if values.dtype != old.dtype:
            raise RuntimeError(f"result type {_scalar_name(values)} can't be cast to the desired "
                               f"output type {_scalar_name(old)}")
        if values._grad_fn is None:  # nothing recorded: the values tensor itself takes them
            old.set_(values)         # (with PyTorch's refusal for a leaf that requires grad)
            values = old
        elif old._requires_grad and old._grad_fn is None:
            raise RuntimeError(LEAF_INPLACE_ERROR)
        else:
            values._version_counter = old._version_counter
            old._version_counter.value += 1
        self.__dict__.update(
            _sp_indices=result._sp_indices, _sp_values=values,
            _sp_coalesced=result._sp_coalesced if coalesced is None else coalesced,
            _sp_source=result.__dict__.get("_sp_source"))
        return self

    # -- products, reductions, transposes ---------------------------------------------------

    def mm(self, mat2):
        """``torch.mm``: PyTorch gives a sparse *leaf* a dense gradient here, which a sparse
        tensor's values cannot hold, so that one case is refused (``torch.sparse.mm`` is not)."""
        if isinstance(mat2, SparseCooTensor):
            return sparse_sparse_mm(self, mat2, "MmBackward0")
        values = self._sp_values
        if values._requires_grad and values.grad_fn is None and grad_mode.is_grad_enabled():
            raise NotImplementedError(
                "torch.mm gives a sparse leaf that requires grad a dense gradient, which "
                "tapegrad's sparse tensors cannot hold; use torch.sparse.mm (sparse gradient), "
                "or build the sparse tensor from values that require grad")
        return sparse_dense_mm(self, mat2, "MmBackward0", source=self._dense_source())

    def select(self, dim, index):
        """The slice at ``index`` along ``dim``: sparse over the sparse dimensions left, dense
        (the stored values at it added up) when ``dim`` was the last one. PyTorch has no
        backward for it."""
        dim = _wrap_dim(dim, self.dim())
        size = self._sp_size[dim]
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"{list(self._sp_size)} at dimension {dim}")
        index %= size
        values, sparse_dims = self._sp_values, self.sparse_dim()
        new_size = self._sp_size[:dim] + self._sp_size[dim + 1:]
        if dim >= sparse_dims:
            picked = _selected(values.detach().select(dim - sparse_dims + 1, index), values)
            return SparseCooTensor._build(self._sp_indices, picked, new_size, self._sp_coalesced)
        keep = np.flatnonzero(self._sp_indices._array[dim] == index)
        picked = values.detach()[Tensor._make(keep)]
        if sparse_dims == 1:
            return _selected(picked.sum(0), values)
        indices = np.delete(self._sp_indices._array[:, keep], dim, axis=0)
        return SparseCooTensor._build(Tensor._make(indices), _selected(picked, values), new_size,
                                      len(keep) <= 1)

    def __getitem__(self, index):
        """Integer indices only, one ``select`` each (PyTorch's error past the end)."""
        position = index if isinstance(index, tuple) else (index,)
        if not builtins.all(isinstance(i, int) and not isinstance(i, builtins.bool)
                            for i in position):
            raise could_not_run("index.Tensor")
        if len(position) > self.dim():
            raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
        result = self
        for dim, i in enumerate(position):
            size = self._sp_size[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size "
                                 f"{size}")
            result = result.select(0, i)
        return result

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The norm of the stored values (duplicates added first); over some dims: refused."""
        dims = () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
        if dims and {_wrap_dim(d, self.dim()) for d in dims} != set(range(self.dim())):
            raise RuntimeError("norm_sparse currently only supports full reductions, so 'dim' "
                               "must either be empty or contain all dimensions of the input")
        p = 2 if p == "fro" else p
        values = self.coalesce()._sp_values
        with grad_mode.no_grad():
            total = values.norm(p)

        def rule(grad, saved):
            """d|v|_p / dv = sign(v) |v|^(p-1) / |v|_p^(p-1) (0 where the norm is 0)."""
            scale = ops.where(total > 0, grad / total ** (p - 1), ops.zeros_like(total))
            return (saved.sign() * saved.abs() ** (p - 1) * scale,)
        return _record("NormBackward1", Tensor._make(total._array), (values,), rule,
                       saved=(values,))

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def mean(self, *args, **kwargs):
        raise could_not_run("mean.dim")

    def pow(self, exponent):
        """Each stored element to a power (coalesced first); a power 0 would fill the zeros."""
        if isinstance(exponent, Tensor):
            raise could_not_run("pow.Tensor_Tensor")
        if exponent == 0:
            raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make "
                               "the result tensor dense")
        coalesced = self.coalesce()
        return coalesced._with_values(coalesced._sp_values ** exponent)

    __pow__ = pow

    def sum(self, dim=None, keepdim=False, dtype=None):
        """Over ``dim`` as ``torch.sparse.sum``, but recorded as PyTorch's ``SumBackward1``,
        whose backward needs a sparse ``expand`` that PyTorch lacks."""
        source = self if dtype is None else self.to(dtype)
        if dim is None:
            return source._sp_values.sum()
        with grad_mode.no_grad():
            result = sparse_sum(source, dim)
            if keepdim:
                dims = (dim,) if isinstance(dim, int) else tuple(dim)
                result = _with_kept_dims(result, {_wrap_dim(d, self.dim()) for d in dims})
        if isinstance(result, SparseCooTensor):
            return result._with_values(_summed(result._sp_values, source._sp_values))
        return _summed(result, source._sp_values)

    def index_select(self, dim, index):
        """The slices at ``index`` along ``dim``, in ``index`` order (each slice's elements in
        storage order); uncoalesced, as PyTorch marks it."""
        dim = _wrap_dim(dim, self.dim())
        positions = index._array.reshape(-1).astype(np.int64)
        size = self._sp_size[dim]
        bad = positions[(positions < -size) | (positions >= size)]
        if bad.size:
            raise IndexError(f"index_select(): index contains {int(bad[0])} that is out of range "
                             f"for tensor of size {list(self._sp_size)} at dimension {dim}")
        positions %= size
        new_size = self._sp_size[:dim] + (len(positions),) + self._sp_size[dim + 1:]
        sparse_dims = self.sparse_dim()
        if dim >= sparse_dims:
            values = self._sp_values.index_select(dim - sparse_dims + 1, Tensor._make(positions))
            return SparseCooTensor._build(self._sp_indices, values, new_size, False)
        rows = self._sp_indices._array[dim]
        slot, element = np.nonzero(positions[:, None] == rows[None, :])
        indices = self._sp_indices._array[:, element].copy()
        indices[dim] = slot
        values = self._sp_values.index_select(0, Tensor._make(element.astype(np.int64)))
        return SparseCooTensor._build(Tensor._make(indices), values, new_size, False)

    def unsqueeze(self, dim):
        """A size-1 dimension at ``dim``: sparse (a zero index row) up to the last sparse
        dimension, dense after it."""
        dim = _wrap_dim(dim, self.dim() + 1)
        return _with_kept_dims(self._with_values(_alias(self._sp_values, "UnsqueezeBackward0")),
                               {dim})

    def permute(self, *dims):
        """Sparse dimensions among themselves, dense ones among themselves."""
        dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
        order = [_wrap_dim(d, self.dim()) for d in dims]
        sparse_dims = self.sparse_dim()
        if sorted(order[:sparse_dims]) != list(range(sparse_dims)):
            raise RuntimeError("permute(sparse_coo): transpositions between sparse and dense "
                               "dimensions are not allowed.Only transpositions within sparse "
                               "and dense dimensions are supported.")
        dense_order = [0] + [d - sparse_dims + 1 for d in order[sparse_dims:]]
        values = self._sp_values.permute(dense_order) if dense_order != sorted(dense_order) \
            else _alias(self._sp_values, "PermuteBackward0")
        indices = Tensor._make(np.ascontiguousarray(self._sp_indices._array[order[:sparse_dims]]))
        identity = order == list(range(self.dim()))
        return SparseCooTensor._build(indices, values, tuple(self._sp_size[d] for d in order),
                                      self._sp_coalesced and identity)

    def t(self):
        if self.sparse_dim() != 2 or self.dense_dim():
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but "
                               f"got {self.sparse_dim()} sparse and {self.dense_dim()} dense "
                               "dimensions")
        return self._transposed(0, 1, "TBackward0")

    T = property(t)

    def transpose(self, dim0, dim1):
        dim0, dim1 = _wrap_dim(dim0, self.dim()), _wrap_dim(dim1, self.dim())
        if builtins.max(dim0, dim1) >= self.sparse_dim():
            raise could_not_run("transpose.int")
        return self._transposed(dim0, dim1, "TransposeBackward0")

    def _transposed(self, dim0, dim1, node):
        order = list(range(self.sparse_dim()))
        order[dim0], order[dim1] = dim1, dim0
        size = list(self._sp_size)
        size[dim0], size[dim1] = size[dim1], size[dim0]
        indices = Tensor._make(np.ascontiguousarray(self._sp_indices._array[order]))
        result = SparseCooTensor._build(indices, _alias(self._sp_values, node), size,
                                        self._sp_coalesced and dim0 == dim1)
        source = self._dense_source()
        return result if source is None else result._remember_source(
            source.transpose(dim0, dim1))

    # -- printing ---------------------------------------------------------------------------
    def __repr__(self):
        indent = len("tensor(")
        indices_text = _data_text(self._sp_indices._array, indent + len("indices=tensor("))
        values_text = _data_text(self._sp_values._array, indent + len("values=tensor("))
        body = (f"tensor(indices=tensor({indices_text}),\n" + " " * indent
                + f"values=tensor({values_text})")
        suffixes = [f"size={self._sp_size}", f"nnz={self._nnz()}"]
        dtype = self.dtype
        if dtype not in (dtypes.get_default_dtype(), dtypes.default_complex_dtype(),
                         dtypes.int64, dtypes.bool):
            suffixes.append(f"dtype=torch.{dtype.name}")
        suffixes.append("layout=torch.sparse_coo")
        grad_fn = self.grad_fn
        if grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(grad_fn).__name__}>")
        elif self.requires_grad:
            suffixes.append("requires_grad=True")
        return _with_suffixes(body, suffixes, indent)

    __str__ = __repr__


def refuse_dense_api(cls):
    """Name ``cls`` ``Tensor`` (as PyTorch prints its type) and make it refuse, by name, the
    dense methods it does not define (the rest of Tensor's API reads ``_array`` and is refused
    there, named after the primitive it reached)."""
    cls.__name__ = cls.__qualname__ = "Tensor"
    own = set(vars(cls)) | set(vars(_SparseTensor)) | {
        "cuda", "is_inference", "get_device", "is_pinned", "is_neg", "resolve_neg"}
    for name, member in list(vars(Tensor).items()):
        if (not name.startswith("_") and callable(member) and not isinstance(member, type)
                and name not in own and not getattr(member, "checks_layout", False)):
            setattr(cls, name, _refusing(name, cls._backend))


def _refusing(name, backend):
    def refuse(self, *args, **kwargs):
        raise could_not_run(name, backend)
    refuse.__name__ = name
    return refuse


# Elementwise functions that map 0 to 0: PyTorch applies them to the stored values of the
# coalesced tensor (duplicates added first); in place, only to a coalesced one.
ZERO_PRESERVING = ("abs", "sqrt", "sign", "sgn", "square", "relu", "tanh", "sin", "tan",
                   "log1p", "expm1", "trunc", "floor", "ceil", "round", "asin", "atan", "sinh",
                   "atanh", "asinh", "erf", "frac", "deg2rad", "rad2deg", "nan_to_num",
                   "signbit", "isnan", "isinf")


def _on_values(name):
    def elementwise(self, *args, **kwargs):
        coalesced = self.coalesce()
        return coalesced._with_values(getattr(coalesced._sp_values, name)(*args, **kwargs))
    elementwise.__name__ = name
    return elementwise


def _on_values_inplace(name):
    def elementwise_(self, *args, **kwargs):
        if not self._sp_coalesced:
            raise RuntimeError(f"{name} requires coalesced input")
        getattr(self._sp_values, name)(*args, **kwargs)
        return self
    elementwise_.__name__ = name
    return elementwise_


for _name in ZERO_PRESERVING:
    setattr(SparseCooTensor, _name, _on_values(_name))
    if _name not in ("signbit", "isnan", "isinf"):
        setattr(SparseCooTensor, _name + "_", _on_values_inplace(_name + "_"))
SparseCooTensor.__abs__ = SparseCooTensor.abs
refuse_dense_api(SparseCooTensor)


def _calling_operation():
    """The name of the operation that asked a sparse tensor for its dense data: the primitive
    whose forward did, else the innermost caller in the op table or ``nn`` named as a public
    operation."""
    frame = sys._getframe(2)
    public = [vars(module) for module in (ops, sys.modules.get("tapegrad.nn.functional"))
              if module is not None]
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, Primitive):
            return candidate.name
        module, name = frame.f_globals.get("__name__", ""), frame.f_code.co_name
        if module.startswith("tapegrad.compile"):
            raise NotImplementedError(
                "tapegrad.compile cannot trace sparse tensors (layout=torch.sparse_coo): run "
                "the function eagerly, or give it adj.to_dense()")
        if module.startswith(("tapegrad.ops", "tapegrad.nn")) and builtins.any(
                callable(names.get(name)) for names in public):
            return name
        frame = frame.f_back
    return "_dense_data"


# ------------------------------------------------------------------------------ printing

def _data_text(array, indent):
    """PyTorch's ``_tensor_str`` of one part (indices or values), with its size when empty."""
    if array.size == 0:
        return f"[], size={tuple(array.shape)}"
    summarize = array.size > _OPTS.threshold
    fmt = _formatter(_printed_values(array) if summarize else array.reshape(-1))
    return _block_str(array, indent, summarize, fmt)


def _with_suffixes(text, suffixes, indent, force_newline=True):
    """PyTorch's ``_add_suffixes``: with ``force_newline`` (a COO tensor) the first suffix
    starts a line; the others wrap at the line width."""
    parts, line = [text], len(text) - text.rfind("\n") + 1
    for position, suffix in enumerate(suffixes):
        if (force_newline and position == 0) or line + len(suffix) + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line += len(suffix) + 2
    return "".join(parts) + ")"


# ------------------------------------------------------------------------- construction

def _linear_positions(indices, sparse_size):
    """Each stored element's row-major position in the sparse dimensions."""
    if not len(sparse_size):
        return np.zeros(indices.shape[1], np.int64)
    return np.ravel_multi_index(tuple(indices), sparse_size) if indices.shape[1] else \
        np.zeros(0, np.int64)


def _grouped(linear):
    """The distinct positions, each element's slot among them, and the order in which PyTorch
    adds duplicates: that of its (unstable) sort of the positions, which float sums show."""
    unique, inverse = np.unique(linear, return_inverse=True)
    order = ops.argsort(Tensor._make(linear))._array
    return unique, inverse.reshape(-1), order


def _as_tensor(data, dtype=None):
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    return ops.tensor(data, dtype=dtype)


def sparse_coo_tensor(indices=None, values=None, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None,
                      is_coalesced=None):
    """A sparse COO tensor from ``indices`` (sparse_dim x nnz) and ``values`` (nnz x dense
    sizes); ``size`` defaults to the smallest that holds the indices. Duplicates are kept.
    ``sparse_coo_tensor(size)`` alone: an empty one of that size."""
    if values is None:
        size = indices if size is None else size
        if size is None:
            raise TypeError("sparse_coo_tensor() missing required argument 'size'")
        indices = ops.zeros((len(size), 0), dtype=dtypes.int64)
        values = ops.zeros(0, dtype=dtype)
    if device is not None:
        Tensor._make(np.zeros(0)).to(device)  # PyTorch's error for a device that is not here
    if isinstance(indices, SparseCooTensor) or isinstance(values, SparseCooTensor):
        raise could_not_run("_sparse_coo_tensor_with_dims_and_tensors")
    index_tensor = _as_tensor(indices)
    value_tensor = _as_tensor(values, dtype)
    index_array = index_tensor._array.astype(np.int64)
    if index_array.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: "
                           f"{list(index_array.shape)}")
    if value_tensor.dim() == 0:
        raise RuntimeError("values must have at least one dimension (nnz), but got a 0-d tensor")
    sparse_dim, nnz = index_array.shape
    if value_tensor.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: "
                           f"{nnz}, nnz from values: {value_tensor.shape[0]}")
    dense_sizes = tuple(value_tensor.shape[1:])
    if size is None:
        size = tuple(int(row.max()) + 1 if nnz else 0 for row in index_array) + dense_sizes
    else:
        size = tuple(int(s) for s in size)
        _check_size(index_array, size, sparse_dim, dense_sizes)
    if requires_grad:
        value_tensor = value_tensor.detach().requires_grad_(True)
    else:
        # PyTorch's node saves the result (its gradient is masked by it): it is freed by backward
        value_tensor = _alias(value_tensor, "SparseCooTensorWithDimsAndTensorsBackward0",
                              saved=(value_tensor,))
    coalesced = bool(is_coalesced) or nnz <= 1  # PyTorch's mark on a new tensor
    return SparseCooTensor._build(Tensor._make(index_array), value_tensor, size, coalesced)


def _rebuild_sparse_coo(indices, values, size, coalesced):
    return SparseCooTensor._build(indices, values, size, coalesced)


def _check_size(indices, size, sparse_dim, dense_sizes):
    """PyTorch's checks of ``check_sparse_tensor_invariants``, always on here: an index outside
    the size would otherwise write out of bounds."""
    if len(size) != sparse_dim + len(dense_sizes):
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
                           f"{len(size)}, sparse_dim = {sparse_dim}, dense_dim = "
                           f"{len(dense_sizes)}")
    if tuple(size[sparse_dim:]) != dense_sizes:
        raise RuntimeError(f"values has incorrect size, expected {list(size[sparse_dim:])}, got "
                           f"{list(dense_sizes)}")
    if not indices.shape[1]:
        return
    for dim, row in enumerate(indices):
        low, high = int(row.min()), int(row.max())
        if low < 0:
            raise RuntimeError(f"found negative index {low} for dim {dim}")
        if high >= size[dim]:
            raise RuntimeError(f"size is inconsistent with indices: for dim {dim}, size is "
                               f"{size[dim]} but found index {high}")


def to_sparse(dense, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """``dense.to_sparse()``: the nonzero elements, coalesced (in CSR for that ``layout``)."""
    if layout is _layout.sparse_csr and sparse_dim is None and blocksize is None:
        from .sparse._csr import csr_from_coo
        return csr_from_coo(to_sparse(dense, dense_dim=dense_dim))
    if layout not in (None, _layout.sparse_coo) or blocksize is not None or dense_dim:
        raise could_not_run("to_sparse")
    array = dense._array
    node = "ToSparseBackward1" if sparse_dim is None else "ToSparseBackward0"
    sparse_dim = array.ndim if sparse_dim is None else sparse_dim
    if sparse_dim == array.ndim:
        where = np.nonzero(array)
    else:
        where = np.nonzero(array.reshape(array.shape[:sparse_dim] + (-1,)).any(axis=-1))
    indices = np.array(where, np.int64).reshape(sparse_dim, -1)
    index = tuple(Tensor._make(row) for row in indices)

    def rule(grad):
        return (ops.zeros(array.shape, dtype=grad.dtype).index_put(index, grad),)

    values = _record(node, Tensor._make(array[tuple(indices)]), (dense,), rule)
    sparse = SparseCooTensor._build(Tensor._make(indices), values, array.shape, True)
    return sparse._remember_source(dense)


# ------------------------------------------------------------------------------ operations

def _merge(a, b, alpha, node):
    """``a + alpha * b`` for sparse ``a``, ``b``: PyTorch's two-pointer merge of the stored
    elements by position (equal positions add), which on coalesced inputs is the coalesced sum."""
    sparse_size = a._sp_size[:a.sparse_dim()]
    left = _linear_positions(a._sp_indices._array, sparse_size)
    right = _linear_positions(b._sp_indices._array, sparse_size)
    if a._sp_coalesced and b._sp_coalesced:
        positions = np.union1d(left, right)
        slots_a, slots_b = np.searchsorted(positions, left), np.searchsorted(positions, right)
    else:
        slots_a, slots_b, positions = _merge_slots(left, right)
    values_a, values_b = a._sp_values, b._sp_values
    dtype = np.result_type(values_a._array, values_b._array)
    summed = np.zeros((len(positions),) + values_a.shape[1:], dtype)
    np.add.at(summed, slots_a, values_a._array)
    np.add.at(summed, slots_b, values_b._array * np.asarray(alpha, dtype))
    index_a, index_b = Tensor._make(slots_a), Tensor._make(slots_b)

    def rule(grad):
        grad_b = ops.index_select(grad, 0, index_b)
        return (ops.index_select(grad, 0, index_a).to(values_a.dtype),
                (grad_b if alpha == 1 else grad_b * alpha).to(values_b.dtype))

    values = _record(node, Tensor._make(summed), (values_a, values_b), rule)
    indices = np.array(np.unravel_index(np.asarray(positions, np.int64), sparse_size),
                       np.int64).reshape(len(sparse_size), len(positions))
    return SparseCooTensor._build(Tensor._make(indices), values, a._sp_size,
                                  a._sp_coalesced and b._sp_coalesced)


def _merge_slots(left, right):
    """Where each element of ``left`` and ``right`` lands in the merged list, and that list
    (PyTorch's walk, which on uncoalesced inputs merges only neighbours that meet)."""
    slots_a, slots_b, positions = np.empty(len(left), np.int64), np.empty(len(right), np.int64), []
    i = j = 0
    while i < len(left) or j < len(right):
        if j == len(right) or (i < len(left) and left[i] < right[j]):
            slots_a[i], i = len(positions), i + 1
            positions.append(left[i - 1])
        elif i == len(left) or right[j] < left[i]:
            slots_b[j], j = len(positions), j + 1
            positions.append(right[j - 1])
        else:
            slots_a[i] = slots_b[j] = len(positions)
            positions.append(left[i])
            i, j = i + 1, j + 1
    return slots_a, slots_b, positions


def sparse_cat(tensors, dim=0):
    """``torch.cat`` of sparse tensors: along a sparse dimension their indices are shifted and
    joined; along a dense one each tensor's values fill its own slice (zeros elsewhere)."""
    tensors = list(tensors)
    for position, tensor in enumerate(tensors):
        if not isinstance(tensor, SparseCooTensor):
            raise RuntimeError(f"Concatenating sparse tensors, but a dense tensor was found at "
                               f"position {position}.")
    first = tensors[0]
    dim = _wrap_dim(dim, first.dim())
    for position, tensor in enumerate(tensors):
        if tensor.sparse_dim() != first.sparse_dim() or builtins.any(
                a != b for d, (a, b) in enumerate(zip(tensor._sp_size, first._sp_size))
                if d != dim):
            raise RuntimeError(f"All tensors must have the same shape: {list(first._sp_size)} "
                               f"(except in the concatenating dimension), but found shape: "
                               f"{list(tensor._sp_size)} at position {position}.")
    size = list(first._sp_size)
    size[dim] = builtins.sum(t._sp_size[dim] for t in tensors)
    offsets = np.cumsum([0] + [t._sp_size[dim] for t in tensors[:-1]])
    if dim < first.sparse_dim():
        indices = np.concatenate([_shifted(t._sp_indices._array, dim, offset)
                                  for t, offset in zip(tensors, offsets)], axis=1)
        values = ops.cat([t._sp_values for t in tensors])
    else:
        indices = np.concatenate([t._sp_indices._array for t in tensors], axis=1)
        axis = dim - first.sparse_dim() + 1
        values = ops.cat([_padded(t._sp_values, axis, offset, size[dim])
                          for t, offset in zip(tensors, offsets)])
    return SparseCooTensor._build(Tensor._make(indices), values, size, False)


def _shifted(indices, row, offset):
    shifted = indices.copy()
    shifted[row] += offset
    return shifted


def _padded(values, axis, before, total):
    """``values`` placed at ``before`` in a dense dimension ``axis`` of length ``total``,
    zeros around (differentiable: a concatenation)."""
    shape = list(values.shape)
    parts = []
    for width in (before, total - before - values.shape[axis]):
        shape[axis] = width
        parts.append(ops.zeros(tuple(shape), dtype=values.dtype))
    return ops.cat([parts[0], values, parts[1]], axis)


def sparse_stack(tensors, dim=0):
    """``torch.stack`` of sparse tensors: each unsqueezed at ``dim``, then concatenated."""
    tensors = list(tensors)
    dim = _wrap_dim(dim, tensors[0].dim() + 1) if tensors else dim
    return sparse_cat([t.unsqueeze(dim) for t in tensors], dim)


def _sparse_product(x, y):
    """Sparse * sparse, as PyTorch's intersection: each element of the ``source`` operand
    times the other's (coalesced) value at its position. Both coalesced: only the common
    positions stay; else every source element stays (times 0 where the other has none)."""
    if x._sp_size != y._sp_size:
        raise RuntimeError(f"mul: expected sizes of 'self' and 'other' to match, but "
                           f"{list(x._sp_size)} != {list(y._sp_size)}")
    if x.sparse_dim() != y.sparse_dim():
        raise _density_error(x, y)
    both_coalesced = x._sp_coalesced and y._sp_coalesced
    probed, source = (x, y) if x._sp_coalesced or x._nnz() >= y._nnz() else (y, x)
    probed = probed.coalesce()
    sparse_size = x._sp_size[:x.sparse_dim()]
    known = _linear_positions(probed._sp_indices._array, sparse_size)
    wanted = _linear_positions(source._sp_indices._array, sparse_size)
    slots = np.searchsorted(known, wanted).clip(max=builtins.max(len(known) - 1, 0))
    found = (slots < len(known)) & (known[slots] == wanted) if len(known) else \
        np.zeros(len(wanted), bool)
    keep = found if both_coalesced else np.ones(len(wanted), bool)
    source_values = source._sp_values[Tensor._make(np.flatnonzero(keep))]
    padded = ops.cat([probed._sp_values, ops.zeros((1,) + tuple(probed._sp_values.shape[1:]),
                                                   dtype=probed.dtype)])
    at_source = padded[Tensor._make(np.where(found, slots, len(known))[keep])]
    values = source_values * at_source if source is x else at_source * source_values
    indices = Tensor._make(np.ascontiguousarray(source._sp_indices._array[:, keep]))
    return SparseCooTensor._build(indices, values, x._sp_size, both_coalesced)


def sparse_sparse_mm(a, b, node):
    """Sparse @ sparse: a coalesced sparse result holding every position some pair of stored
    elements (``a[i, k]``, ``b[k, j]``) reaches; gradients reach both operands' values."""
    for operand in (a, b):
        if operand.sparse_dim() != 2 or operand.dense_dim():
            raise RuntimeError(f"addmm: matrices expected, got {operand.dim()}D tensor")
    if a._sp_size[1] != b._sp_size[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._sp_size[0]}x"
                           f"{a._sp_size[1]} and {b._sp_size[0]}x{b._sp_size[1]})")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(a._sp_values)} but found "
                           f"{_scalar_name(b._sp_values)}")
    left, right = a.coalesce(), b.coalesce()
    (rows, inner_a), (inner_b, cols) = left._sp_indices._array, right._sp_indices._array
    pair_a, pair_b = np.nonzero(inner_a[:, None] == inner_b[None, :])
    size = (a._sp_size[0], b._sp_size[1])
    positions, slots = np.unique(rows[pair_a] * size[1] + cols[pair_b], return_inverse=True)
    pair_a, pair_b, slots = (Tensor._make(np.asarray(x, np.int64).reshape(-1))
                             for x in (pair_a, pair_b, slots))

    def summed(products, count):
        return ops.zeros((count,), dtype=products.dtype).index_add(0, slots, products)

    def rule(grad, values_a, values_b):
        """Each pair's share of its output position's gradient, summed back per element."""
        at_pairs = ops.index_select(grad, 0, slots)
        return (ops.zeros(values_a.shape, dtype=grad.dtype).index_add(
                    0, pair_a, at_pairs * ops.index_select(values_b, 0, pair_b)),
                ops.zeros(values_b.shape, dtype=grad.dtype).index_add(
                    0, pair_b, at_pairs * ops.index_select(values_a, 0, pair_a)))

    values_a, values_b = left._sp_values, right._sp_values
    with grad_mode.no_grad():
        products = ops.index_select(values_a, 0, pair_a) * ops.index_select(values_b, 0, pair_b)
        out = Tensor._make(summed(products, len(positions))._array)
    out = _record(node, out, (values_a, values_b), rule, saved=(values_a, values_b))
    indices = np.array(np.unravel_index(positions, size), np.int64).reshape(2, -1)
    return SparseCooTensor._build(Tensor._make(indices), out, size, True)


def _density_error(x, y):
    return RuntimeError(f"add: expected 'self' and 'other' to have same density, but 'self' has "
                        f"{x.sparse_dim()} sparse dimensions while 'other' has {y.sparse_dim()} "
                        "sparse dimensions")


def sparse_dense_mm(sparse, dense, node, bias=None, beta=1, alpha=1, source=None):
    """``sparse @ dense`` for a 2-D sparse matrix and a dense matrix, recorded as ``node``
    (``MmBackward0`` for ``torch.mm``/``spmm``/``@``, ``SparseAddmmBackward0`` for
    ``torch.sparse.mm`` and ``torch.sparse.addmm``, which adds ``beta * bias`` and scales the
    product by ``alpha``); gradients reach the bias, the dense matrix and the sparse values,
    or instead of the values the dense ``source`` the sparse matrix converts (all of it:
    ``grad @ dense.T``, as ``torch.mm`` gives it)."""
    _check_product(sparse, dense)
    values = sparse._sp_values
    start = None
    if bias is not None:
        if bias.dtype != values.dtype:
            raise RuntimeError(f"expected scalar type {_scalar_name(values)} but found "
                               f"{_scalar_name(bias)}")
        start = bias.expand(sparse._sp_size[0], dense.shape[1])._array * np.asarray(
            beta, bias._array.dtype)
    out = _product(sparse, dense._array, start, alpha)
    row, col = sparse._sp_indices._array
    row_index, col_index = Tensor._make(row), Tensor._make(col)
    transposed_indices = Tensor._make(sparse._sp_indices._array[::-1].copy())
    transposed_size = sparse._sp_size[::-1]
    first = values if source is None else source
    needs_values, needs_dense = first._requires_grad, dense._requires_grad
    bias_shape = None if bias is None or not bias._requires_grad else bias.shape

    def rule(grad, saved_values, saved_dense):
        grad_values = grad_dense = grad_bias = None
        scaled = grad if alpha == 1 else grad * alpha
        if needs_values and source is not None:
            grad_values = ops.mm(scaled, saved_dense.t())
        elif needs_values:
            grad_values = (ops.index_select(scaled, 0, row_index)
                           * ops.index_select(saved_dense, 0, col_index)).sum(1)
        if needs_dense:
            transposed = SparseCooTensor._build(transposed_indices, saved_values,
                                                transposed_size, False)
            grad_dense = sparse_dense_mm(transposed, scaled, "MmBackward0")
        if bias_shape is not None:
            grad_bias = ops.sum_to(grad if beta == 1 else grad * beta, bias_shape)
        return (grad_bias, grad_values, grad_dense) if addmm else (grad_values, grad_dense)

    # torch.sparse.mm is addmm(zeros, sparse, dense): its node has an edge for the bias too
    addmm = node == "SparseAddmmBackward0"
    inputs = (bias, first, dense) if addmm else (first, dense)
    return _record(node, Tensor._make(out), inputs, rule, saved=(values, dense))


def as_vector_product(column):
    """A matrix-vector product's column as the vector PyTorch returns, its node named as
    PyTorch names it (``MvBackward0``)."""
    vector = Tensor._make(np.ascontiguousarray(column._array[:, 0]))
    return _record("MvBackward0", vector, (column,), lambda grad: (grad.unsqueeze(1),))


def _check_product(sparse, dense):
    """PyTorch's checks of a sparse @ dense product's operands."""
    if not isinstance(dense, Tensor):
        raise TypeError(f"mm(): argument 'mat2' (position 2) must be Tensor, not "
                        f"{type(dense).__name__}")
    if dense.is_sparse:
        raise could_not_run("_sparse_sparse_matmul")
    if sparse.sparse_dim() != 2 or sparse.dense_dim():
        raise RuntimeError(f"addmm: matrices expected, got {sparse.sparse_dim()}D tensor")
    if dense.dim() < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got "
                         "1)")
    if dense.dim() > 2:
        raise RuntimeError(f"addmm: matrices expected, got {dense.dim()}D tensor")
    inner = sparse._sp_size[1]
    if dense.shape[0] != inner:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {inner}, got "
                           f"{dense.shape[0]}")
    values = sparse._sp_values
    if values.dtype == dtypes.bool:
        raise NotImplementedError("\"addmm_sparse_dense\" not implemented for 'Bool'")
    if values.dtype != dense.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(values)} but found "
                           f"{_scalar_name(dense)}")


def _product(sparse, dense, start=None, alpha=1):
    """The numbers of ``start + alpha * (sparse @ dense)``: each stored element's product added
    into its row, in storage order (PyTorch's order for a coalesced tensor, bit for bit)."""
    row, col = sparse._sp_indices._array
    values = sparse._sp_values._array
    if alpha != 1:
        values = values * np.asarray(alpha, values.dtype)
    shape = (sparse._sp_size[0], dense.shape[1])
    out = np.zeros(shape, np.result_type(values, dense)) if start is None else \
        np.array(start, np.result_type(values, dense))
    np.add.at(out, row, values[:, None] * dense[col])
    return out


def _scalar_name(tensor):
    return dtypes.SCALAR_TYPE_NAMES[str(tensor._array.dtype)]


def sparse_sum(sparse, dim=None, node="SparseSumBackward0"):
    """``torch.sparse.sum``: everything (a dense 0-d tensor) or over ``dim`` (sparse, coalesced;
    dense when every sparse dimension is summed)."""
    if dim is None:
        return sparse._sp_values.sum()
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = sorted({_wrap_dim(d, sparse.dim()) for d in dims})
    sparse_dims = sparse.sparse_dim()
    kept = [d for d in range(sparse_dims) if d not in dims]
    dense_axes = [d - sparse_dims + 1 for d in dims if d >= sparse_dims]
    values = sparse._sp_values
    if not kept:
        return _summed_values(values, [0] + dense_axes, node)
    if dense_axes:
        values = _summed_values(values, dense_axes, node)
    kept_size = tuple(sparse._sp_size[d] for d in kept)
    linear = _linear_positions(sparse._sp_indices._array[kept], kept_size)
    unique, inverse, order = _grouped(linear)
    summed = _segment_sum(values, inverse, len(unique), node, order)
    indices = np.array(np.unravel_index(unique, kept_size), np.int64).reshape(len(kept), -1)
    size = kept_size + tuple(sparse._sp_size[d] for d in range(sparse_dims, sparse.dim())
                             if d not in dims)
    return SparseCooTensor._build(Tensor._make(indices), summed, size, True)


def _summed_values(values, axes, node):
    """``values`` summed over ``axes``, recorded as ``node``."""
    array = values._array
    kept_shape = tuple(1 if axis in axes else n for axis, n in enumerate(array.shape))
    return _record(node, Tensor._make(np.asarray(array.sum(tuple(axes)))), (values,),
                   lambda grad: (grad.reshape(kept_shape).expand(array.shape),))


def _with_kept_dims(result, dims):
    """A sum's result with the summed dimensions put back as size 1 (``keepdim``), by PyTorch's
    sparse ``unsqueeze``: a dimension at or before the last sparse one comes back sparse (a zero
    index row); the result is marked uncoalesced."""
    if not isinstance(result, SparseCooTensor):
        for d in sorted(dims):
            result = result.unsqueeze(d)
        return result
    indices, values, size = result._sp_indices._array, result._sp_values, list(result._sp_size)
    for d in sorted(dims):
        sparse_dims = len(indices)
        if d <= sparse_dims:
            indices = np.insert(indices, d, 0, axis=0)
        else:
            values = values.unsqueeze(d - sparse_dims + 1)
        size.insert(d, 1)
    return SparseCooTensor._build(Tensor._make(indices), values, size, False)


def sparse_softmax(sparse, dim, dtype=None, log=False):
    """``torch.sparse.softmax`` (``log_softmax`` when ``log``) along ``dim`` over the stored
    elements only: an element not stored counts as -inf. The result is coalesced."""
    name = "SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0"
    source = (sparse if dtype is None else sparse.to(dtype)).coalesce()
    if source.dense_dim():
        raise could_not_run("_sparse_log_softmax" if log else "_sparse_softmax")
    dim = _wrap_dim(dim, source.dim())
    kept = [d for d in range(source.sparse_dim()) if d != dim]
    linear = _linear_positions(source._sp_indices._array[kept],
                               tuple(source._sp_size[d] for d in kept))
    _, groups = np.unique(linear, return_inverse=True)
    group_index = Tensor._make(groups.reshape(-1).astype(np.int64))
    values = source._sp_values
    peaks = np.full(int(groups.max()) + 1 if groups.size else 0, -np.inf, values._array.dtype)
    np.maximum.at(peaks, group_index._array, values._array)
    shift = Tensor._make(peaks[group_index._array])

    def normalized(v):
        """The (log-)softmax of ``v`` per group, with tapegrad operations (differentiable)."""
        shifted = v - shift
        total = ops.zeros(len(peaks), dtype=v.dtype).index_add(0, group_index, shifted.exp())
        if log:
            return shifted - ops.index_select(total.log(), 0, group_index)
        return shifted.exp() / ops.index_select(total, 0, group_index)

    def rule(grad, saved_values):
        out = normalized(saved_values)
        probabilities = out.exp() if log else out
        weighted = grad if log else grad * out
        total = ops.zeros(len(peaks), dtype=grad.dtype).index_add(0, group_index, weighted)
        spread = ops.index_select(total, 0, group_index)
        return (grad - probabilities * spread if log else out * (grad - spread),)

    with grad_mode.no_grad():
        result = Tensor._make(normalized(values)._array)
    result = _record(name, result, (values,), rule, saved=(values,))
    return SparseCooTensor._build(source._sp_indices, result, source._sp_size, True)


# ------------------------------------------------------ the dense tensor's side of the API

def sparse_mask(dense, mask):
    """``dense.sparse_mask(mask)``: ``dense``'s elements at ``mask``'s stored positions, with
    ``mask``'s indices and coalesced mark (a position stored twice is read twice)."""
    if not isinstance(mask, SparseCooTensor):
        raise could_not_run("sparse_mask", backend="CPU")
    if tuple(dense.shape) != mask._sp_size:
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(dense.shape)} but mask has size {list(mask._sp_size)}")
    index = tuple(Tensor._make(row) for row in mask._sp_indices._array)
    picked = dense[index]
    values = _record("SparseMaskBackward0", Tensor._make(picked._array), (picked,),
                     lambda grad: (grad,))
    return SparseCooTensor._build(mask._sp_indices, values, mask._sp_size, mask._sp_coalesced)


def _dense_to_dense(self, dtype=None, *, masked_grad=None):
    """A dense tensor is its own dense form (in ``dtype``, a copy)."""
    return self if dtype is None else self.to(dtype)


def _layout_refusal(name, expected):
    """PyTorch's error for a COO-only method called on a tensor of another layout."""
    def refuse(self, *args, **kwargs):
        if expected is None:
            raise could_not_run(name, backend=getattr(self, "_backend", "CPU"))
        raise RuntimeError(f"{name} expected {expected} layout but got "
                           f"{getattr(self, '_layout_name', 'Strided')}")
    refuse.__name__ = name
    refuse.checks_layout = True  # the other sparse layouts keep it (see refuse_dense_api)
    return refuse


Tensor.sparse_mask = sparse_mask
Tensor.to_dense = _dense_to_dense
Tensor.sparse_dim = lambda self: 0
Tensor.dense_dim = lambda self: self.dim()
for _name, _expected in (("coalesce", "sparse coordinate tensor"),
                         ("indices", "sparse coordinate tensor"),
                         ("is_coalesced", "sparse coordinate tensor"),
                         ("values", "sparse tensor"),
                         ("_values", None), ("_indices", None), ("_nnz", None)):
    setattr(Tensor, _name, _layout_refusal(_name, _expected))
