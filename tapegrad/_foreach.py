"""``torch._foreach_*``: one operation over a list of tensors, as optimizers and EMA code call it.

PyTorch fuses these into multi-tensor kernels; here each applies the per-tensor operation in turn
(same values, same in-place semantics). The second operand may be one number, a list of numbers,
one tensor, or a list of tensors; in-place forms return the list they were given, out-of-place
forms a tuple.
"""
from . import ops
from .dtypes import SCALAR_TYPE_NAMES
from .ops.inplace import check_result_type
from .ops.norm import vector_norm
from .ops.operands import CPP_TYPE_NAMES
from .tensor import Tensor

__all__ = []  # filled below: every _foreach_ function this module defines


def _check_list(tensors):
    if not len(tensors):
        raise RuntimeError("Tensor list must have at least one tensor.")


def _spread(tensors, operand):
    """``operand`` once for each tensor."""
    if isinstance(operand, (list, tuple)):
        if len(operand) != len(tensors):
            if operand and isinstance(operand[0], Tensor):
                raise RuntimeError("Tensor lists must have the same number of tensors, got "
                                   f"{len(tensors)} and {len(operand)}")
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        return operand
    return [operand] * len(tensors)


def _scalar_tensor_check(operand):
    if isinstance(operand, Tensor) and operand.ndim:
        raise RuntimeError(f"scalar tensor expected to be 0 dim but it has {operand.ndim} "
                           f"dimensions and {operand.numel()} elements.")


def _define(name, function):
    function.__name__ = function.__qualname__ = name
    globals()[name] = function
    __all__.append(name)


def _binary(op, method, keywords=False):
    """``_foreach_<op>`` and ``_foreach_<op>_`` from the Tensor methods ``method``/``method_``."""
    def outplace(self, other, **kwargs):
        _check_list(self)
        if not isinstance(other, (list, tuple)):
            _scalar_tensor_check(other)
        return tuple(getattr(t, method)(o, **kwargs) for t, o in zip(self, _spread(self, other)))

    def inplace(self, other, **kwargs):
        _check_list(self)
        if not isinstance(other, (list, tuple)):
            _scalar_tensor_check(other)
        for t, o in zip(self, _spread(self, other)):
            getattr(t, method + "_")(o, **kwargs)
        return self
    _define(f"_foreach_{op}", outplace)
    _define(f"_foreach_{op}_", inplace)


for _op in ("add", "sub", "mul", "div", "pow", "clamp_min", "clamp_max"):
    _binary(_op, _op)


def _number_as_tensor(operand):
    """A number operand of maximum/minimum as the 0-d tensor PyTorch's scalar overload acts as
    (``torch.maximum`` itself takes tensors only)."""
    return operand if isinstance(operand, Tensor) else ops.tensor(operand)


def _no_tensor_overload(name):
    """PyTorch's ``TypeError`` for a tensor of several elements where only a number, a list of
    numbers or a list of tensors fits."""
    mismatch = ("      didn't match because some of the arguments have invalid types: "
                "(!list of [Tensor]!, !Tensor!)")
    overloads = ("tuple of Tensors self, Number scalar", "tuple of Tensors self, tuple of Scalars "
                 "scalars", "tuple of Tensors self, tuple of Tensors other")
    lines = [f"{name}() received an invalid combination of arguments - got (list, Tensor), but "
             "expected one of:"]
    for overload in overloads:
        lines += [f" * ({overload})", mismatch]
    return TypeError("\n".join(lines) + "\n")


def _elementwise_extremum(op):
    """``_foreach_maximum``/``_foreach_minimum`` and their in-place forms, which write the result
    back (there is no ``Tensor.maximum_``) and, as PyTorch, refuse a result of a higher kind."""
    function = getattr(ops, op)

    def outplace(self, other):
        _check_list(self)
        if isinstance(other, Tensor) and other.ndim:
            raise _no_tensor_overload(f"_foreach_{op}")
        return tuple(function(t, _number_as_tensor(o)) for t, o in zip(self, _spread(self, other)))

    def inplace(self, other):
        for t, result in zip(self, outplace(self, other)):
            check_result_type(t, result.dtype, CPP_TYPE_NAMES)
            t.copy_(result)
        return self
    _define(f"_foreach_{op}", outplace)
    _define(f"_foreach_{op}_", inplace)


_elementwise_extremum("maximum")
_elementwise_extremum("minimum")


_foreach_pow_tensors = _foreach_pow  # the list-base form _binary made, wrapped below


def _foreach_pow(self, exponent):
    """``self ** exponent`` for each tensor; ``self`` may also be one number raised to each
    tensor of ``exponent``, PyTorch's scalar-base overload."""
    if isinstance(self, (int, float, bool)):
        _check_list(exponent)
        return tuple(ops.pow(self, e) for e in exponent)
    return _foreach_pow_tensors(self, exponent)


def _unary(op):
    def outplace(self):
        _check_list(self)
        return tuple(getattr(t, op)() for t in self)

    def inplace(self):
        _check_list(self)
        for t in self:
            getattr(t, op + "_")()
        return self
    _define(f"_foreach_{op}", outplace)
    _define(f"_foreach_{op}_", inplace)


for _op in ("sqrt", "neg", "abs", "exp", "log", "sign", "reciprocal", "sigmoid", "tanh", "sin",
            "cos", "floor", "ceil", "round", "trunc", "frac", "expm1", "log1p", "rsqrt", "acos",
            "asin", "atan", "cosh", "sinh", "tan", "erf", "erfc", "lgamma", "log10", "log2"):
    _unary(_op)


def _ternary(op):
    """addcmul/addcdiv: ``self + value * tensor1 (*|/) tensor2``, ``value`` one number, one per
    tensor, or a tensor of them."""
    def outplace(self, tensor1, tensor2, value=1):
        _check_list(self)
        return tuple(getattr(t, op)(a, b, value=v)
                     for t, a, b, v in zip(self, tensor1, tensor2, _values(self, value)))

    def inplace(self, tensor1, tensor2, value=1):
        _check_list(self)
        for t, a, b, v in zip(self, tensor1, tensor2, _values(self, value)):
            getattr(t, op + "_")(a, b, value=v)
        return self
    _define(f"_foreach_{op}", outplace)
    _define(f"_foreach_{op}_", inplace)


def _values(tensors, value):
    """addcmul/addcdiv's ``value`` for each tensor (a tensor holds one number per entry)."""
    return _spread(tensors, value.tolist() if isinstance(value, Tensor) else value)


_ternary("addcmul")
_ternary("addcdiv")


def _foreach_lerp(self, tensors1, weight):
    _check_list(self)
    return tuple(t.lerp(e, w) for t, e, w in zip(self, _spread(self, tensors1),
                                                  _spread(self, weight)))


def _foreach_lerp_(self, tensors1, weight):
    _check_list(self)
    for t, e, w in zip(self, _spread(self, tensors1), _spread(self, weight)):
        t.lerp_(e, w)
    return self


def _foreach_norm(self, ord=2, dtype=None):
    """The ``ord``-norm of each tensor, as 0-d tensors."""
    _check_list(self)
    return tuple(vector_norm(t, ord, dtype=dtype) for t in self)


def _foreach_powsum(self, ord=2, dtype=None):
    """``sum(|t| ** ord)`` of each tensor, as 0-d tensors: the norm before its root, literally
    (``ord=0`` counts ``0 ** 0`` as one, as PyTorch's kernel does)."""
    _check_list(self)
    for t in self:
        if not t.is_floating_point():
            raise NotImplementedError(f'"powsum_cpu" not implemented for '
                                      f"'{SCALAR_TYPE_NAMES[t._array.dtype.name]}'")
    return tuple(t.abs().to(dtype or t.dtype).pow(ord).sum() for t in self)


def _foreach_max(self):
    """The largest element of each tensor, as 0-d tensors."""
    _check_list(self)
    for t in self:
        if not t.numel():
            raise RuntimeError("_foreach_max cannot compute the maximum of an empty tensor; max "
                               "over zero elements is undefined.")
    return tuple(t.max() for t in self)


def _foreach_mm(self, mat2):
    _check_list(self)
    if len(mat2) != len(self):
        raise RuntimeError("_foreach_mm: self and mat2 must have the same number of tensors")
    return tuple(ops.mm(a, b) for a, b in zip(self, mat2))


def _foreach_clone(self, *, memory_format=None):
    _check_list(self)
    kwargs = {} if memory_format is None else {"memory_format": memory_format}
    return tuple(t.clone(**kwargs) for t in self)


def _foreach_zero_(self):
    _check_list(self)
    for t in self:
        t.zero_()
    return self


def _foreach_copy_(self, src, non_blocking=False):
    _check_list(self)
    for t, s in zip(self, _spread(self, src)):
        t.copy_(s)
    return self


__all__ += ["_foreach_lerp", "_foreach_lerp_", "_foreach_norm", "_foreach_zero_",
            "_foreach_copy_", "_foreach_powsum", "_foreach_max", "_foreach_mm", "_foreach_clone"]
del _op
