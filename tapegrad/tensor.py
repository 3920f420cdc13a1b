"""``Tensor``: a numpy array plus the autograd metadata PyTorch keeps on a tensor.

The class holds state and PyTorch's tensor API; every computation is delegated to ``tapegrad.ops``,
the op table, and every gradient question to ``tapegrad.autograd``.
"""
import builtins
import numbers
import operator
import warnings
import weakref

import numpy as np
from numpy.lib.array_utils import byte_bounds

from . import dtypes
from . import _layout
from . import _shared_memory
from . import overrides as _overrides
from ._array_memory import address as _address, same_elements_in
from . import memory_format as _memory_format
from ._printing import format_tensor
from ._warnings import warn_at_caller

__all__ = ["Tensor"]

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field to "
    "be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access "
    "the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
CUDA_MISSING_ERROR = "Torch not compiled with CUDA enabled"
LEAF_INPLACE_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE_ERROR = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)


T_DEPRECATION_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor.")
VOLATILE_REMOVED_WARNING = ("volatile was removed and now has no effect. Use `with "
                            "torch.no_grad():` instead.")
T_ZERO_DIM_WARNING = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                      "these cases.")
_warned = set()


def _warn_once(message, site=None):
    """A warning PyTorch gives once per process (its TORCH_WARN_ONCE), at the user's line; once
    per ``site`` when given (a message with varying details), else once per message."""
    key = message if site is None else site
    if key not in _warned:
        _warned.add(key)
        warn_at_caller(message)


def type_argument_dtype(dtype):
    """The dtype that ``type(dtype)`` converts to: a dtype, a legacy class such as
    ``torch.LongTensor``, or its name ``'torch.LongTensor'``."""
    if isinstance(dtype, str):
        legacy = globals().get(dtype[len("torch."):]) if dtype.startswith("torch.") else None
        if not isinstance(legacy, _LegacyTensorType):
            raise ValueError(f"invalid type: {dtype!r}")
        dtype = legacy
    return dtype.dtype if isinstance(dtype, _LegacyTensorType) else dtype


class VersionCounter:
    """Counts in-place modifications; a tensor and all its views share one counter."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


class Tensor:
    """An n-dimensional array that can record the operations applied to it.

    Internals (read by the op table and the engine): ``_array`` the numpy data; ``_requires_grad``;
    ``_grad_fn`` the node that made it (None for a leaf); ``_output_nr`` which output of that node
    it is; ``_version_counter``; ``_base`` the tensor it is a view of.
    """

    __module__ = "torch"  # ``type(t)`` prints as in PyTorch: <class 'torch.Tensor'>

    # Every operation makes a tensor, so making one stores only what every tensor needs. The rest
    # is rarely set and defaults to a class attribute until then (stored in ``__dict__`` when set).
    __slots__ = ("_array", "_requires_grad", "_grad_fn", "_version_counter", "__weakref__",
                 "__dict__")
    _output_nr = 0
    _grad = None
    _base = None
    _retains_grad = False
    _hooks = None
    _post_accumulate_grad_hooks = None
    _grad_accumulator = None
    # A view's version when its grad_fn was recorded: an in-place write to its base (or another
    # view of it) since then makes that history stale, and it is regenerated on next use.
    _view_version = None
    _storage = None  # the memory a detach()ed tensor shares (it is no view: no _base)
    # "no_grad" or "inference_mode" for a view made in that mode of a tensor requiring grad
    # (see ops.registry._mark_view_made_without_grad)
    _view_made_without_grad = None
    _fw_grad = None  # the tangent, inside a forward-AD level (autograd.forward_ad)
    _meta = False  # on the meta device: a shape and a dtype, no data (see ``_make_meta``)
    _inference = False  # made in inference mode (see ops.registry)
    _wrapped_number = False  # a Python number made a 0-d tensor for an operation (ops.operands)

    def __new__(cls, *args, requires_grad=False):
        """PyTorch's legacy constructor, in the default dtype: ``Tensor(2, 3)`` (or a
        ``Size``) is an uninitialized tensor of that shape, ``Tensor(data)`` a copy of ``data``."""
        tensor = _new_tensor(cls)
        tensor._init(_legacy_array(args, dtypes.get_default_dtype().numpy))
        if requires_grad:
            tensor.requires_grad_(True)
        return tensor

    def __init__(self, *args, **kwargs):
        """Nothing: ``__new__`` built the tensor. Python passes the constructor's arguments here
        too, and a subclass's own ``__new__`` takes what it likes (``Tagged(data, tag="m")``)."""

    def _init(self, array, grad_fn=None, output_nr=0):
        self._array = array
        self._requires_grad = grad_fn is not None
        self._grad_fn = grad_fn
        self._version_counter = VersionCounter()
        if output_nr:
            self._output_nr = output_nr

    @staticmethod
    def _make(array, grad_fn=None, output_nr=0):
        """Wrap a numpy array without copying (the op table's fast path)."""
        t = _new_tensor(Tensor)
        t._init(array, grad_fn, output_nr)
        return t

    # -- metadata ---------------------------------------------------------------------------------
    @property
    def dtype(self):
        return dtypes.from_numpy_dtype(self._array.dtype)

    @property
    def shape(self):
        return tuple.__new__(Size, self._array.shape)  # numpy's shape needs no checks

    def size(self, dim=None):
        if dim is None:
            return tuple.__new__(Size, self._array.shape)
        if not self._array.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._array.shape[_wrap_dim(dim, self._array.ndim)]

    def dim(self):
        return self._array.ndim

    ndim = property(dim)

    def ndimension(self):
        return self._array.ndim

    def numel(self):
        return self._array.size

    nelement = numel

    def element_size(self):
        return self._array.itemsize

    itemsize = property(element_size)

    @property
    def nbytes(self):
        """The bytes of the elements this tensor shows (its storage may be larger)."""
        return self._array.size * self._array.itemsize

    is_cpu = True

    def get_device(self):
        return -1  # PyTorch's answer for a CPU tensor

    def is_neg(self):
        return False  # real tensors have no lazy negation bit

    def resolve_neg(self):
        return self

    def is_floating_point(self):
        return self._array.dtype.kind == "f"

    def is_contiguous(self, memory_format=None):
        return _memory_format.is_in(self._array, memory_format)

    def stride(self, dim=None):
        array = self._array
        if array.size or array.base is not None:  # (an empty view keeps its own, as in PyTorch)
            strides = tuple(s // array.itemsize for s in array.strides)
        else:  # a new empty array's are all 0 in numpy; PyTorch's are contiguous
            strides = _contiguous_strides(array.shape)
        return strides if dim is None else strides[_wrap_dim(dim, self._array.ndim)]

    def data_ptr(self):
        """The address of the first element (0 for an empty tensor, as in PyTorch)."""
        return _address(self._array) if self._array.size else 0

    def storage_offset(self):
        """How many elements into its storage (its base's memory) this tensor starts."""
        storage = self._storage_array()
        return (_address(self._array) - _address(storage)) // self._array.itemsize

    def untyped_storage(self):
        return UntypedStorage(self._storage_array())

    def storage(self):
        from ._storage import typed_storage
        return typed_storage(self)

    def is_shared(self):
        return _shared_memory.segment_of(self._array) is not None

    def share_memory_(self):
        """Move the storage into shared memory (once), so that processes forked afterwards, and
        those this tensor is sent to (``tapegrad.multiprocessing``), read and write the same
        elements. Views and ``detach()`` aliases made earlier keep the old memory."""
        holder = self._base if self._base is not None else self
        storage = holder._storage_array()
        if _shared_memory.segment_of(storage) is not None:
            return self
        owner = _shared_memory.owning_array(storage)
        segment = _shared_memory.move_to_segment(owner)
        for tensor in {id(holder): holder, id(self): self}.values():
            tensor._array = same_elements_in(tensor._array, owner, segment)
        if holder._storage is not None:
            holder._storage = same_elements_in(holder._storage, owner, segment)
        return self

    def is_pinned(self, device=None):
        return False

    # -- the parts of a complex number (see tapegrad.ops.conjugation) ----------------------------
    @property
    def real(self):
        return ops.real(self)

    @real.setter
    def real(self, value):
        ops.real(self).copy_(value)

    @property
    def imag(self):
        return ops.imag(self)

    @imag.setter
    def imag(self, value):
        ops.imag(self).copy_(value)

    # -- Python callbacks over the elements (CPU tensors, no autograd, as in PyTorch) ----------
    def apply_(self, callable):
        """Replace each element ``x`` by ``callable(x)`` (slow: a Python call per element)."""
        return self._map_elements("apply_", callable)

    def map_(self, tensor, callable):
        """``self[i] = callable(self[i], tensor[i])``, ``tensor`` broadcast to this shape."""
        return self._map_elements("map_", callable, tensor)

    def map2_(self, x, y, callable):
        return self._map_elements("map2_", callable, x, y)

    def _map_elements(self, name, callable, *others):
        if self._requires_grad:
            raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                               f"var.detach().{name}() instead.")
        arrays = [np.broadcast_to(o._array, self._array.shape) for o in others]
        kind = type(self._array.dtype.type(0).item())
        values = [kind(callable(*(a[i].item() for a in (self._array, *arrays))))
                  for i in np.ndindex(self._array.shape)]
        self._array[...] = np.array(values, self._array.dtype).reshape(self._array.shape)
        self._version_counter.value += 1
        return self

    # -- DLPack: zero-copy exchange with numpy, JAX, CuPy ... ------------------------------------
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        return self._array.__dlpack__(stream=stream, max_version=max_version,
                                      dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def pin_memory(self, device=None):
        """Refused as in a CPU-only PyTorch: pinned memory belongs to an accelerator."""
        raise RuntimeError("Cannot access accelerator device when none is available.")

    is_quantized = is_sparse = is_mkldnn = property(lambda self: False)

    @property
    def is_meta(self):
        return self._meta

    def _storage_array(self):
        if self._base is not None:
            return self._base._array
        return self._array if self._storage is None else self._storage

    @property
    def device(self):
        return _META if self._meta else _CPU

    @property
    def layout(self):
        return _layout.strided

    @property
    def is_cuda(self):
        return False

    @property
    def is_nested(self):
        """False: tapegrad has no nested (jagged) tensors."""
        return False

    @property
    def volatile(self):
        """Always False, with PyTorch's warning: ``volatile`` was removed (``no_grad`` does its
        job)."""
        warn_at_caller("volatile was removed (Variable.volatile is always False)")
        return False

    @volatile.setter
    def volatile(self, value):
        warn_at_caller(VOLATILE_REMOVED_WARNING)

    @volatile.deleter
    def volatile(self):
        warn_at_caller(VOLATILE_REMOVED_WARNING)

    @property
    def data(self):
        """The same data, cut out of the graph and out of its version counting (PyTorch's
        ``.data``: a change made through it goes unseen by autograd, unlike ``detach()``'s)."""
        data = Tensor._make(self._array)
        if self._meta:
            data._meta = True
        return data

    @data.setter
    def data(self, value):
        if self._requires_grad and value._array.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._array = value._array
        if value._meta:
            self._meta = True
        elif self._meta:
            del self._meta  # (the class's False again: compiled functions' guards look for it)

    @property
    def _version(self):
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter.value

    # -- autograd state ---------------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if flag.__class__ is not bool:
            raise RuntimeError("requires_grad must be a bool")
        if flag and self._grad_fn is None and self._array.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")  # PyTorch's setter words it so; requires_grad_ not
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        if requires_grad.__class__ is not bool:  # as PyTorch's parser: no 1, None or numpy bool
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                            f"not {ops.operands.type_name(type(requires_grad))}")
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use "
                    "a computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach().")
            return self
        if requires_grad and self._array.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self.is_inference() and not _grad_mode.is_inference_mode_enabled():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = requires_grad
        return self

    @property
    def grad_fn(self):
        if self._view_version is not None and self._view_version != self._version_counter.value:
            ops.inplace.regenerate_view_history(self)
        return self._grad_fn

    @property
    def is_leaf(self):
        if self._view_version is not None:  # a view: a stale one's history is regenerated first
            return self.grad_fn is None
        return self._grad_fn is None

    @property
    def grad(self):
        if self._grad is None and self._grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if tuple(value.shape) != self._array.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the tensor "
                    "are the same size")
            if value.dtype != self.dtype:
                raise RuntimeError(
                    "attempting to assign a gradient with dtype "
                    f"'{ops.operands.CPP_TYPE_NAMES[value.dtype.numpy.name]}' to a tensor with "
                    f"grad_dtype '{_LEGACY_TYPE_NAMES[self._array.dtype.name]}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
                    "the tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
        self._grad = value

    @property
    def output_nr(self):
        """Which output of ``grad_fn`` this tensor is."""
        return self._output_nr

    def is_inference(self):
        """True for a tensor made under ``inference_mode`` (by an operation or a factory)."""
        return self._inference

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep the gradient of this non-leaf tensor in ``.grad`` after backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self._grad_fn._add_tensor_pre_hook(self._output_nr, _RetainGrad(self), retain_grad=True)

    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; it may return a new one."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn._add_tensor_pre_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(hook)
        from .autograd.graph import RemovableHandle
        return RemovableHandle(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs once backward has accumulated this leaf's ``.grad`` (an optimizer
        step per parameter, inside backward)."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = []
        from .autograd.graph import RemovableHandle
        return RemovableHandle.append(self._post_accumulate_grad_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate the gradient of this tensor into the leaves' ``.grad`` (see autograd).
        A ``gradient`` that is not a tensor is read as a sequence of them, as PyTorch does
        (``backward(1.0)`` is refused: a float is not iterable)."""
        if gradient is not None:
            gradient = (gradient,) if isinstance(gradient, Tensor) else tuple(gradient)
        _engine.backward((self,), gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A tensor sharing this one's data and version counter, with no history (not a view:
        its ``_base`` is None, as in PyTorch)."""
        alias = Tensor._make(self._array)
        alias._version_counter = self._version_counter
        alias._storage = self._storage_array()  # the array, not the tensor: no graph kept
        if self._inference:
            alias._inference = True
        if self._meta:
            alias._meta = True
        return alias

    def _become_view_of(self, source):
        """Share ``source``'s memory bookkeeping: one version counter, one base; a view of an
        inference tensor is one too (in inference mode, a view of a normal tensor is normal)."""
        self._version_counter = source._version_counter
        self._base = source if source._base is None else source._base
        if source._inference:
            self._inference = True

    def resize_(self, *sizes, memory_format=None):
        """Change the shape in place, keeping the elements in order (new ones uninitialized)."""
        if self._requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        shape = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) \
            else sizes
        storage = self._storage_array()
        offset = self.storage_offset() if self._array.size else 0
        if self._base is None and storage.flags.c_contiguous and \
                (offset + int(np.prod(shape))) * storage.itemsize <= storage.nbytes:
            # it fits the memory it has: PyTorch keeps the storage, contiguous from the offset
            self._array = _view_of_memory(storage, self._array.dtype, offset, shape, None)
            if self._array.base is not None:
                self._storage = storage
        else:
            resized = np.empty(shape, self._array.dtype)
            n = builtins.min(resized.size, self._array.size)
            resized.reshape(-1)[:n] = self._array.reshape(-1)[:n]
            self._array, self._storage = resized, None
        self._version_counter.value += 1
        return self

    def resize_as_(self, the_template, *, memory_format=None):
        """``resize_`` to ``the_template``'s shape."""
        return self.resize_(the_template.shape, memory_format=memory_format)

    def set_(self, source=None, storage_offset=0, size=None, stride=None):
        """Make this tensor ``source`` in place: the same memory, shape and strides (empty
        without a source); or, given a storage, a view of its memory at ``storage_offset``
        elements with ``size`` and ``stride`` (contiguous by default), in this tensor's dtype."""
        if self._requires_grad and _grad_mode._state.grad_enabled and self._grad_fn is None:
            raise RuntimeError(LEAF_INPLACE_ERROR)
        if source is None:
            self._array = np.empty(0, self._array.dtype)
        elif isinstance(source, Tensor):
            self._array = source._array
        else:  # an UntypedStorage or a TypedStorage
            memory = source._array
            if not memory.flags.c_contiguous:
                memory = memory.copy()  # (no buffer to view otherwise)
            self._array = _view_of_memory(memory, self._array.dtype, storage_offset,
                                          tuple(size) if size is not None else (memory.nbytes //
                                          self._array.itemsize - storage_offset,), stride)
            self._storage = memory
        self._version_counter.value += 1
        return self

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    # -- conversion -------------------------------------------------------------------------------
    def numpy(self, *, force=False):
        """The data as a numpy array sharing memory; refused for a tensor that requires grad
        while grad mode is on (under ``no_grad`` PyTorch allows it, as here)."""
        if self._requires_grad and not force and _grad_mode._state.grad_enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if self._meta:
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to "
                            "copy the tensor to host memory first.")
        return self._array

    # numpy defers to Tensor's reflected operators: ``np.float64(2) * w`` is a tensor with history
    __array_priority__ = 1000

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()  # refuses a tensor that requires grad, as PyTorch
        if dtype is not None:
            return array.astype(dtype, copy=bool(copy))
        return array.copy() if copy else array

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A numpy function applied to a tensor returns a tensor (``np.sqrt(t)``); a bool result
        is uint8, as PyTorch gives it."""
        array = np.asarray(array)
        return Tensor._make(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def tolist(self):
        if self._meta:
            raise NotImplementedError(META_COPY_ERROR)
        return self._array.tolist()

    def item(self):
        if self._array.size != 1:
            raise RuntimeError(f"a Tensor with {self._array.size} elements cannot be converted to "
                               "Scalar")
        if self._meta:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        return self._array.reshape(()).item()

    def _python_number(self):
        """The one element, for ``int()``/``float()``: PyTorch raises a ValueError there, where
        ``item()`` raises a RuntimeError."""
        if self._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._array.reshape(()).item()

    def __float__(self):
        if self._requires_grad and _grad_mode._state.grad_enabled:  # PyTorch: only where recorded
            _warn_once("Converting a tensor with requires_grad=True to a scalar may lead to "
                       "unexpected behavior.\nConsider using tensor.detach() first.")
        return builtins.float(self._real_number("double"))

    def __int__(self):
        return builtins.int(self._real_number("int64_t"))

    def __complex__(self):
        return builtins.complex(self._python_number())

    def _real_number(self, c_type):
        """The one element as a real number: a complex one does not convert, in PyTorch's
        words (it says overflow)."""
        number = self._python_number()
        if isinstance(number, builtins.complex):
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return number

    def __index__(self):
        if self._array.dtype.kind not in "iu" or self._array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    def __bool__(self):
        if self._array.size != 1:
            amount = "no values" if self._array.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return builtins.bool(self._array.reshape(()).item())

    def __len__(self):
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._array.shape[0]

    def __iter__(self):
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._array.shape[0]))

    def __hash__(self):
        return id(self)

    def __repr__(self):
        suffixes = []
        try:
            grad_fn = self.grad_fn  # a stale view's history is regenerated first, as in PyTorch
            node_name = None if grad_fn is None else type(grad_fn).__name__
        except RuntimeError:  # … or cannot be (an output of split/unbind): PyTorch's <Invalid>
            node_name = "Invalid"
        if node_name is not None:
            suffixes.append(f"grad_fn=<{node_name}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        if self._fw_grad is not None:
            suffixes.append(f"tangent={self._fw_grad}")  # (str: a 0-d one prints its number)
        d = self.dtype
        implied = (dtypes.get_default_dtype(),) if self._array.size == 0 else (
            dtypes.get_default_dtype(), dtypes.default_complex_dtype(), dtypes.int64, dtypes.bool)
        show_dtype = d not in implied
        kind = type(self)
        name = kind.__name__ if _is_user_class(kind) else "tensor"
        if self._meta:  # no values to show: PyTorch prints the device and the size instead
            extra = [f"dtype=torch.{d.name}"] if d != dtypes.get_default_dtype() else []
            return (f"{name}(..., device='meta', size={tuple(self._array.shape)}"
                    + "".join(f", {part}" for part in (*extra, *suffixes)) + ")")
        return format_tensor(self._array, dtype_name=d.name, show_dtype=show_dtype,
                             suffixes=tuple(suffixes), name=name)

    def __format__(self, spec):
        """A 0-d tensor formats as its Python number; any other takes no format spec (PyTorch
        defers to ``object.__format__``, which says so)."""
        if self._array.ndim == 0 and type(self) is Tensor:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __contains__(self, element):
        if isinstance(element, (Tensor, numbers.Number)):
            return builtins.bool((element == self).any())
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in "
                           f"a {type(element)}.")

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._array, self._requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                               "the deepcopy protocol at the moment.  If you were attempting to "
                               "deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = _new_tensor(type(self))  # (a subclass's __new__ may want arguments)
        array, storage = self._copied_memory(memo)
        new._init(array)
        if storage is not None:
            new._storage = storage
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = self._grad.clone()
        new.__dict__.update({key: value for key, value in self.__dict__.items()
                             if key not in _MEMORY_ATTRIBUTES})
        memo[id(self)] = new
        return new

    def _copied_memory(self, memo):
        """This tensor's elements in a deep copy, and the copied storage they lie in (None: the
        array is its own), as PyTorch's deepcopy copies each storage once: tensors that shared
        memory share the copy, at the same offsets and strides (views become plain tensors on
        it, as in PyTorch)."""
        storage = self._storage_array()
        if not storage.flags.c_contiguous or not storage.size:  # (no layout to keep)
            return self._array.copy(), None
        key = ("tapegrad storage", id(storage))
        copied = memo.get(key)
        if copied is None:
            copied = memo[key] = storage.copy()
            memo.setdefault(id(memo), []).append(storage)  # (copy's keep-alive convention)
        if self._array is storage:
            return copied, None
        offset = _address(self._array) - _address(storage)
        return np.ndarray(self._array.shape, self._array.dtype, buffer=copied, offset=offset,
                          strides=self._array.strides), copied

    # -- dtype conversion -------------------------------------------------------------------------
    def to(self, *args, dtype=None, copy=False, memory_format=None, **kwargs):
        """``to(dtype)``, ``to(device)``, ``to(other)``: dtypes (and memory formats) change, and
        a tensor moves to the meta device (but not back: a meta tensor has no data to copy)."""
        if memory_format is not None and memory_format is not _memory_format.preserve_format:
            converted = self.to(*args, dtype=dtype, copy=copy, **kwargs)
            if _memory_format.suggested(converted._array) is memory_format:
                return converted  # PyTorch's to() aliases when the strides suggest the format
            return ops.to_dtype(converted, converted.dtype, memory_format=memory_format)
        target = kwargs.get("device")
        for arg in args:
            if isinstance(arg, Tensor):
                dtype, target = arg.dtype, arg.device
            elif isinstance(arg, (dtypes.dtype, type, np.dtype)) or (
                    isinstance(arg, str) and arg in dtypes._BY_NAME):
                dtype = arg
            elif arg is not None:  # (None: the dtype argument, not given)
                target = arg
        kind = _check_device(target)
        moves = kind is not None and (kind == "meta") != self._meta
        if moves and self._meta:
            raise NotImplementedError(META_COPY_ERROR)
        if dtype is None or dtypes.as_dtype(dtype).numpy == self._array.dtype:
            converted = ops.clone(self) if copy or moves else self
        else:
            converted = ops.to_dtype(self, dtypes.as_dtype(dtype))
        return _make_meta(converted) if moves else converted

    def type(self, dtype=None):
        """The legacy type name (``'torch.FloatTensor'``), or a copy converted to ``dtype`` (a
        dtype, a legacy class such as ``torch.LongTensor``, or its name)."""
        if dtype is None:
            return f"torch.{_LEGACY_TYPE_NAMES.get(self.dtype.name, 'Float')}Tensor"
        return self.to(type_argument_dtype(dtype))

    def float(self):
        return self.to(dtypes.float32)

    def double(self):
        return self.to(dtypes.float64)

    def half(self):
        return self.to(dtypes.float16)

    def bfloat16(self):
        return self.to(dtypes.bfloat16)  # tapegrad's TypeError: numpy has no bfloat16

    def chalf(self):
        return self.to(dtypes.complex32)  # tapegrad's TypeError: numpy has no complex32

    def cfloat(self):
        return self.to(dtypes.complex64)

    def cdouble(self):
        return self.to(dtypes.complex128)

    def long(self):
        return self.to(dtypes.int64)

    def int(self):
        return self.to(dtypes.int32)

    def bool(self):
        return self.to(dtypes.bool)

    def short(self):
        return self.to(dtypes.int16)

    def char(self):
        return self.to(dtypes.int8)

    def byte(self):
        return self.to(dtypes.uint8)

    # -- subclasses (see tapegrad.overrides) ----------------------------------------------
    __torch_function__ = classmethod(_overrides.default_torch_function)

    def __init_subclass__(cls, **kwargs):
        """A user's subclass switches on ``__torch_function__`` dispatch (tapegrad's own
        subclasses, Parameter and the sparse tensor, need none)."""
        super().__init_subclass__(**kwargs)
        if _is_user_class(cls):
            _overrides.enable_subclass_dispatch()

    def as_subclass(self, cls):
        """This tensor as an instance of ``cls``: the same memory, on the tape through
        ``AliasBackward0``, as PyTorch makes it."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError(f"as_subclass(): argument 'cls' must be a subclass of Tensor, not "
                            f"{type(cls).__name__}")
        with _overrides.DisableTorchFunctionSubclass():
            result = ops.shape._alias(self)
        result.__class__ = cls
        return result

    @staticmethod
    def _make_subclass(cls, data, require_grad=False, dispatch_strides=False,
                       dispatch_device=False, device_for_backend_keys=None):
        """A leaf of class ``cls`` sharing ``data``'s memory and version counter, no history:
        how a subclass's ``__new__`` (and PyTorch's ``Parameter``) makes its instances."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError(f"cls must be a type (got {type(cls).__name__})")
        if require_grad and data._array.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        made = _new_tensor(cls)
        made._init(data._array)
        made._version_counter = data._version_counter
        made._requires_grad = bool(require_grad)
        return made

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        """The nonzero elements as a sparse COO tensor (see ``tapegrad._sparse_tensor``)."""
        from ._sparse_tensor import to_sparse
        return to_sparse(self, sparse_dim, layout=layout, blocksize=blocksize,
                         dense_dim=dense_dim)

    def to_sparse_coo(self):
        return self.to_sparse()

    def _is_view(self):
        """Whether this tensor is a view of another (its ``_base``)."""
        return self._base is not None

    def is_complex(self):
        return self._array.dtype.kind == "c"

    def new(self, *args):
        """The legacy constructor in this tensor's dtype: ``w.new(2, 3)`` (uninitialized),
        ``w.new([1, 2])`` (data), ``w.new()`` (empty)."""
        return Tensor._make(_legacy_array(args, self._array.dtype))

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        _check_device("cuda" if device is None else device)

    def contiguous(self, memory_format=_memory_format.contiguous_format):
        if _memory_format.is_in(self._array, memory_format):
            return self
        if memory_format is _memory_format.preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        return ops.clone(self, memory_format=memory_format)

    def clone(self, *, memory_format=None):
        return ops.clone(self, memory_format=memory_format)

    def copy_(self, src, non_blocking=False):
        return ops.copy_(self, src)

    # -- shapes and views -------------------------------------------------------------------------
    @property
    def T(self):
        if self._array.ndim != 2:
            _warn_once(T_ZERO_DIM_WARNING if self._array.ndim == 0 else T_DEPRECATION_WARNING)
        return ops.numpy_T(self)

    @property
    def mT(self):
        _require_matrices(self, "tensor.mT")
        return ops.transpose(self, -2, -1)

    @property
    def mH(self):
        """The conjugate transpose: the transpose, for real tensors."""
        _require_matrices(self, "tensor.mH")
        return ops.conj(ops.transpose(self, -2, -1))

    @property
    def H(self):
        if self._array.ndim != 2:
            hint = (" For batches of matrices, consider using tensor.mH"
                    if self._array.ndim > 2 else "")
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                               f"{self._array.ndim}-D tensor.{hint}")
        return ops.conj(ops.transpose(self, 0, 1))

    def adjoint(self):
        _require_matrices(self, "tensor.adjoint()")
        return ops.conj(ops.transpose(self, -2, -1))

    def t(self):
        return ops.t(self)

    def where(self, condition, other):
        """``torch.where(condition, self, other)``: self where condition holds, else other."""
        return ops.where(condition, self, other)

    def view(self, *shape, dtype=None, **size):
        if dtype is not None and not shape:
            return ops.shape.view_dtype(self, dtype)
        if len(shape) == 1 and isinstance(shape[0], (dtypes.dtype, type)):
            return ops.shape.view_dtype(self, shape[0])
        return ops.view(self, *shape, **size)

    def view_as(self, other):
        return ops.view(self, other.shape)

    def reshape(self, *shape, **keywords):
        return ops.reshape(self, *shape, **keywords)

    def reshape_as(self, other):
        return ops.reshape(self, other.shape)

    def expand_as(self, other):
        return ops.expand(self, other.shape)

    def __getitem__(self, key):
        return ops.getitem(self, key)

    def __setitem__(self, key, value):
        ops.setitem(self, key, value)

    # -- operators (the binary ones are set below, once the op table exists) ----------------------
    def __matmul__(self, other):  # a number is refused by Python's own TypeError, as PyTorch
        return ops.matmul(self, other) if isinstance(other, Tensor) else NotImplemented

    def __rmatmul__(self, other):
        return ops.matmul(other, self) if isinstance(other, Tensor) else NotImplemented

    def __neg__(self):
        return ops.neg(self)

    def __pos__(self):
        return ops.special.positive(self)  # (itself, but a bool tensor is refused)

    def __abs__(self):
        return ops.abs(self)

    def __invert__(self):
        return ops.bitwise._invert(self)


_new_tensor = object.__new__


def _is_user_class(cls):
    """A subclass of Tensor defined outside tapegrad (Parameter and the sparse tensor print
    as tensors and need no ``__torch_function__`` dispatch)."""
    return not cls.__module__.startswith(("torch", "tapegrad"))


def _size(sizes):
    """A ``Size`` from a pickle."""
    return Size(sizes)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``; slices, sums and repeats
    stay Sizes."""

    __module__ = "torch"  # ``type(t.shape)`` prints as in PyTorch: <class 'torch.Size'>

    def __reduce__(self):  # pickled by tapegrad's own name (there may be no module "torch")
        return _size, (tuple(self),)

    def __new__(cls, sizes=()):
        if type(sizes) is not tuple or not builtins.all(type(s) is int for s in sizes):
            sizes = tuple(_size_entry(s, i) for i, s in enumerate(sizes))
        return tuple.__new__(cls, sizes)

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):  # as tuple's own + does: no lists, no iterables
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(other + tuple(self))

    def __mul__(self, times):
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def _size_entry(value, position):
    """One entry of a Size: an integer (an integer tensor of one element counts)."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {position} is "
                        f"'{type(value).__name__}')") from None


class UntypedStorage:
    """The memory behind a tensor and its views, as far as PyTorch programs inspect it."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    def data_ptr(self):
        return _address(self._array) if self._array.size else 0

    def nbytes(self):
        """From the first element to the end of the last one (what a zero stride repeats counts
        once)."""
        return byte_bounds(self._array)[1] - _address(self._array)

    size = nbytes

    def __len__(self):
        return self._array.nbytes

    def tolist(self):
        """The bytes, as ints."""
        return np.ascontiguousarray(self._array).reshape(-1).view(np.uint8).tolist()

    def __repr__(self):
        """One byte per line, then the header, as PyTorch prints a storage."""
        header = f"[torch.storage.UntypedStorage(device=cpu) of size {len(self)}]"
        return " " + "\n ".join(map(str, self.tolist())) + "\n" + header

    __str__ = __repr__


def _contiguous_strides(shape):
    """PyTorch's contiguous strides (in elements) of ``shape``: a size 0 counts as 1."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)


def _view_of_memory(memory, dtype, offset, shape, stride):
    """``shape`` elements of ``dtype`` over the bytes of ``memory`` from element ``offset``,
    with ``stride`` (in elements; contiguous when None), refused past the memory's end."""
    itemsize = dtype.itemsize
    if stride is None:
        stride = _contiguous_strides(shape)
    last = offset + sum((n - 1) * s for n, s in zip(shape, stride)) if all(shape) else offset - 1
    if (last + 1) * itemsize > memory.nbytes:
        raise RuntimeError(f"setStorage: sizes {list(shape)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {itemsize} requiring a storage size of "
                           f"{(last + 1) * itemsize} are out of bounds for storage of size "
                           f"{memory.nbytes}")
    return np.ndarray(shape, dtype, buffer=memory, offset=offset * itemsize,
                      strides=tuple(s * itemsize for s in stride))

# What ties a tensor to another's memory: a deep copy has its own (see ``Tensor._copied_memory``).
_MEMORY_ATTRIBUTES = frozenset({"_base", "_storage", "_view_version", "_view_made_without_grad"})


class device:
    """A device as PyTorch names it (``cpu``, ``cuda:1``, ``mps`` …). Any can be named, so
    device-agnostic code runs unchanged; tensors live on the CPU, and placing one elsewhere fails
    as in a PyTorch built without that backend (see ``_check_device``)."""

    __slots__ = ("type", "index")
    __module__ = "torch"  # ``type(d)`` prints as in PyTorch: <class 'torch.device'>

    def __init__(self, type="cpu", index=None):  # noqa: A002  (PyTorch's parameter name)
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, builtins.int) and not isinstance(type, builtins.bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({builtins.type(type).__name__}), but expected one of:\n"
                            " * (torch.device device)\n * (str type, int index = -1)\n")
        kind, colon, number = type.partition(":")
        if kind not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                               f"of device string: {type}")
        if colon:
            if not number.isdigit() or (builtins.len(number) > 1 and number[0] == "0"):
                raise RuntimeError(f"Invalid device string: '{type}'")
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            index = builtins.int(number)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = kind, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):  # (through a function: pickle would look the class up as torch.device)
        return _device, (self.type, self.index)

    def __enter__(self):
        """``with torch.device(...)``: the default device inside the block (the CPU is the only
        one that can be; another is refused as factories refuse it)."""
        _check_device(self)
        _DEVICE_CONTEXTS.append(self)
        return self

    def __exit__(self, *exc_info):
        _DEVICE_CONTEXTS.pop()


_DEVICE_CONTEXTS = []  # the devices of the enclosing ``with torch.device(...)`` blocks

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


def _device(type, index):  # noqa: A002
    """A pickled device, restored."""
    return device(type, index)


def _check_device(spec):
    """``spec``'s device type, "cpu" or "meta" (None for None); another device is refused with
    the error PyTorch built without it raises."""
    if spec is None:
        return None
    kind = device(spec).type
    if kind in ("cpu", "meta"):
        return kind
    if kind == "cuda":
        raise AssertionError(CUDA_MISSING_ERROR)
    if kind == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    raise RuntimeError(f"tapegrad runs on the CPU only; device {str(spec)!r} is not available")


_CPU, _META = device("cpu"), device("meta")
_DEFAULT_DEVICE = [_CPU]  # ``torch.set_default_device``'s, outside ``with torch.device`` blocks
META_COPY_ERROR = "Cannot copy out of meta tensor; no data!"
# Set once a meta tensor exists: only from then on do operations look for meta inputs (a list,
# so that modules importing it see the change; eager code without meta tensors pays one test).
meta_in_use = [False]


def _make_meta(tensor):
    """``tensor`` moved to the meta device, in place: it keeps its shape, dtype and history,
    and its data becomes one shared zero broadcast to the shape (no memory, read-only)."""
    meta_in_use[0] = True
    array = tensor._array
    tensor._array = np.broadcast_to(np.zeros((), array.dtype), array.shape)
    tensor._meta = True
    return tensor


def _require_matrices(tensor, name):
    if tensor._array.ndim < 2:
        raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. Got "
                           f"{tensor._array.ndim}-D tensor.")


class _RetainGrad:
    """The hook ``retain_grad()`` installs: stores the incoming gradient on the tensor."""

    __slots__ = ("tensor_ref",)

    def __init__(self, tensor):
        self.tensor_ref = weakref.ref(tensor)

    def __call__(self, grad):
        tensor = self.tensor_ref()
        if tensor is not None:
            if tensor._grad is None:
                tensor._grad = grad.clone()  # its own memory: the engine may reuse ``grad``
            else:
                tensor._grad = tensor._grad + grad
        return None


def _wrap_dim(dim, ndim):
    if not -builtins.max(ndim, 1) <= dim < builtins.max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-builtins.max(ndim, 1)}, {builtins.max(ndim, 1) - 1}], but got {dim})")
    return dim % builtins.max(ndim, 1)


def _rebuild(array, requires_grad):
    return Tensor._make(array.copy()).requires_grad_(requires_grad)


class _VariableType(type):
    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor)


class Variable(metaclass=_VariableType):
    """PyTorch's deprecated ``autograd.Variable``: tensors do its job now, so ``Variable(t,
    requires_grad=True)`` is ``t`` detached (sharing its data) with that flag."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if volatile:
            warn_at_caller(VOLATILE_REMOVED_WARNING)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        return data.detach().requires_grad_(requires_grad)


def _legacy_array(args, dtype):
    """The array of a legacy constructor call: sizes give an uninitialized shape, else data."""
    if not args:
        return np.empty(0, dtype=dtype)
    if builtins.all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return np.empty(args, dtype=dtype)
    (data,) = args if len(args) == 1 else (None,)
    if isinstance(data, Size):
        return np.empty(tuple(data), dtype=dtype)
    if isinstance(data, Tensor):
        return data._array.astype(dtype)
    if not ops.creation.is_sequence(data):
        raise TypeError(f"new(): data must be a sequence (got {ops.operands.type_name(type(data))})")
    return ops.tensor(data, dtype=dtypes.from_numpy_dtype(dtype))._array  # tensor()'s checks


class _LegacyTensorType(type):
    """``torch.FloatTensor`` and its siblings: calling one is the legacy constructor in its dtype;
    ``isinstance(t, torch.FloatTensor)`` asks for a float32 tensor."""

    def __call__(cls, *args):
        return Tensor._make(_legacy_array(args, cls.dtype.numpy))

    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor) and instance._array.dtype == cls.dtype.numpy

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_type(name, dtype):
    return _LegacyTensorType(name, (), {"dtype": dtype, "__module__": "torch"})


FloatTensor = _legacy_type("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_type("DoubleTensor", dtypes.float64)
HalfTensor = _legacy_type("HalfTensor", dtypes.float16)
LongTensor = _legacy_type("LongTensor", dtypes.int64)
IntTensor = _legacy_type("IntTensor", dtypes.int32)
BoolTensor = _legacy_type("BoolTensor", dtypes.bool)
ByteTensor = _legacy_type("ByteTensor", dtypes.uint8)
ShortTensor = _legacy_type("ShortTensor", dtypes.int16)
CharTensor = _legacy_type("CharTensor", dtypes.int8)

_LEGACY_TYPE_NAMES = dtypes.SCALAR_TYPE_NAMES  # torch.FloatTensor, ..., as messages name types

from . import ops  # noqa: E402  (the op table needs Tensor defined first)
from .autograd import engine as _engine  # noqa: E402
from .autograd import grad_mode as _grad_mode  # noqa: E402

# Functions of the op table whose first argument is the tensor double as its methods.
for _name in ops.TENSOR_METHODS:
    setattr(Tensor, _name, getattr(ops, _name))
Tensor.polygamma = ops.gamma_functions.polygamma_method  # x.polygamma(n): the tensor first
Tensor.flip = ops.layout.flip_method  # x.flip(0, 1): varargs, unlike torch.flip(x, dims)
Tensor.tile = ops.layout.tile_method
Tensor.heaviside_ = ops.special.heaviside_  # a method only: PyTorch has no torch.heaviside_
Tensor.split_with_sizes = ops.shape.split_with_sizes
Tensor.narrow_copy = ops.shape.narrow_copy


def _operator(name, function, reflected):
    """The method ``name`` applying ``function``. As in PyTorch, an operand the operation cannot
    take (a string, a list, None) gives NotImplemented, so Python tries the other side:
    ``t == "a"`` is False and ``t + "a"`` is Python's TypeError."""
    if reflected:
        def method(self, other):
            try:
                return function(other, self)
            except TypeError:
                return NotImplemented
    else:
        def method(self, other):
            try:
                return function(self, other)
            except TypeError:
                return NotImplemented
    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    return method


def _reciprocal_times(self, other):
    """``other / self``, computed as PyTorch does (MulBackward0 of a reciprocal, by the operator:
    an array ``other`` goes to numpy, as there)."""
    return ops.reciprocal(self) * other


def _eq_with_arrays(self, other):
    """``==``, the one operator of PyTorch's that takes a numpy array as a tensor."""
    return ops.eq(self, Tensor._make(other) if isinstance(other, np.ndarray) else other)


# name -> (operation, whether the tensor is its second operand); in-place ones write into self
_OPERATORS = {
    "__add__": (ops.add, False), "__radd__": (ops.add, True),
    "__sub__": (ops.sub, False), "__rsub__": (ops.rsub, False),
    "__mul__": (ops.mul, False), "__rmul__": (ops.mul, True),
    "__truediv__": (ops.div, False), "__rtruediv__": (_reciprocal_times, False),
    "__floordiv__": (ops.floor_divide, False), "__rfloordiv__": (ops.floor_divide, True),
    "__mod__": (ops.remainder, False), "__rmod__": (ops.remainder, True),
    "__pow__": (ops.pow, False), "__rpow__": (ops.pow, True),
    "__and__": (ops.bitwise_and, False), "__rand__": (ops.bitwise_and, True),
    "__or__": (ops.bitwise_or, False), "__ror__": (ops.bitwise_or, True),
    "__xor__": (ops.bitwise_xor, False), "__rxor__": (ops.bitwise_xor, True),
    "__lshift__": (ops.bitwise_left_shift, False), "__rlshift__": (ops.bitwise_left_shift, True),
    "__rshift__": (ops.bitwise_right_shift, False),
    "__rrshift__": (ops.bitwise_right_shift, True),
    "__eq__": (_eq_with_arrays, False), "__ne__": (ops.ne, False), "__lt__": (ops.lt, False),
    "__le__": (ops.le, False), "__gt__": (ops.gt, False), "__ge__": (ops.ge, False),
    "__iadd__": (ops.add_, False), "__isub__": (ops.sub_, False), "__imul__": (ops.mul_, False),
    "__itruediv__": (ops.div_, False), "__ifloordiv__": (ops.floor_divide_, False),
    "__imod__": (ops.remainder_, False), "__ipow__": (ops.pow_, False),
    "__iand__": (ops.bitwise_and_, False), "__ior__": (ops.bitwise_or_, False),
    "__ixor__": (ops.bitwise_xor_, False), "__ilshift__": (ops.bitwise_left_shift_, False),
    "__irshift__": (ops.bitwise_right_shift_, False),
}
for _name, (_function, _reflected) in _OPERATORS.items():
    setattr(Tensor, _name, _operator(_name, _function, _reflected))
