"""``torch._foreach_*``: one operation over a list of tensors, as optimizers and EMA code call it.

PyTorch fuses these into multi-tensor kernels; here each applies the per-tensor operation in turn
(same values, same in-place semantics). The second operand may be one number, a list of numbers,
one tensor, or a list of tensors; in-place forms return the list they were given, out-of-place
forms a tuple.
"""
import functools
import re

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


# PyTorch's Python signatures of the overloaded _foreach_ functions, in the order its argument
# errors list them (the in-place forms have the same ones, except pow_'s number base).
_SCALAR = "tuple of Tensors self, Number scalar"
_SCALARS = "tuple of Tensors self, tuple of Scalars scalars"
_TENSORS = "tuple of Tensors self, tuple of Tensors other"
_ADDCOP = "tuple of Tensors self, tuple of Tensors tensor1, tuple of Tensors tensor2, "
_LERP = "tuple of Tensors self, tuple of Tensors tensors1, "
_OVERLOADS = {
    "add": (_SCALAR, _SCALARS, "tuple of Tensors self, Tensor other, *, Number alpha = 1",
            _TENSORS + ", *, Number alpha = 1"),
    "sub": (_SCALAR, _SCALARS, _TENSORS + ", *, Number alpha = 1"),
    "mul": (_SCALARS, "tuple of Tensors self, Tensor other", _TENSORS, _SCALAR),
    "pow": ("Number self, tuple of Tensors exponent", "tuple of Tensors self, Number exponent",
            "tuple of Tensors self, tuple of Scalars exponent",
            "tuple of Tensors self, tuple of Tensors exponent"),
    "clamp_min": (_SCALAR, _SCALARS, _TENSORS),
    "lerp": (_LERP + "Number weight", _LERP + "tuple of Scalars weight",
             _LERP + "tuple of Tensors weights"),
    "addcmul": (_ADDCOP + "tuple of Scalars scalars", _ADDCOP + "Tensor scalars",
                _ADDCOP + "Number value = 1"),
}
for _op, _like in (("div", "mul"), ("clamp_max", "clamp_min"), ("maximum", "clamp_min"),
                   ("minimum", "clamp_min"), ("addcdiv", "addcmul")):
    _OVERLOADS[_op] = _OVERLOADS[_like]


def _type_name(value):
    """A value's type as PyTorch's argument errors describe it (``list of [Parameter, float]``)."""
    if isinstance(value, list):
        return f"list of [{', '.join(map(_type_name, value))}]"
    if isinstance(value, tuple):
        return f"tuple of {tuple(_TypeName(_type_name(v)) for v in value)!r}"
    return type(value).__name__


class _TypeName(str):
    """A type name that a tuple's repr shows unquoted."""

    def __repr__(self):
        return str(self)


def _overload_line(overload, args, kwargs):
    """One overload of an invalid-combination error with PyTorch's reason it did not match.
    Its parser of these messages matches a plain tensor to ``Tensor`` only (by type name),
    counts ``*`` as a parameter (so keyword-only overloads never explain) and names a defaulted
    parameter with its default."""
    params = overload.split(", ")
    line = f" * ({overload})\n"
    if "*" in params or len(params) != len(args) + len(kwargs):
        return line
    names = [re.sub(r"^(tuple of \w+|\w+) ", "", param) for param in params]
    wrong_keywords = [key for key in kwargs if key not in names]
    if wrong_keywords:
        return line + ("      didn't match because some of the keywords were incorrect: "
                       f"{', '.join(wrong_keywords)}\n")
    marked = [_type_name(arg) if param.startswith("Tensor ") and _type_name(arg) == "Tensor"
              else f"!{_type_name(arg)}!" for param, arg in zip(params, args)]
    marked += [f"!{key}={_type_name(value)}!" for key, value in kwargs.items()]
    return line + ("      didn't match because some of the arguments have invalid types: "
                   f"({', '.join(marked)})\n")


def _op_of(name):
    """``add`` for ``_foreach_add_``."""
    return name.strip("_").removeprefix("foreach_")


def _invalid_arguments(name, args, kwargs):
    """PyTorch's ``TypeError`` for arguments that fit none of ``name``'s overloads."""
    kwargs = dict(sorted(kwargs.items()))
    got = [_type_name(arg).split(" of ")[0] for arg in args]
    got += [f"{key}={_type_name(value)}" for key, value in kwargs.items()]
    overloads = _OVERLOADS[_op_of(name)]
    if name.endswith("_"):
        overloads = [o for o in overloads if not o.startswith("Number self")]
    return TypeError(f"{name}() received an invalid combination of arguments - got "
                     f"({', '.join(got)}), but expected one of:\n"
                     + "".join(_overload_line(o, args, kwargs) for o in overloads))


def _self_refused(name, self, args, kwargs):
    """PyTorch's ``TypeError`` for a ``self`` that is no list or tuple of tensors."""
    if _op_of(name) in _OVERLOADS:
        return _invalid_arguments(name, args, kwargs)
    position = " (position 1)" if args else ""
    return TypeError(f"{name}(): argument 'self'{position} must be tuple of Tensors, "
                     f"not {type(self).__name__}")


def _check_tensor_lists(name, args, kwargs):
    """PyTorch's argument parsing of a _foreach_ call: ``self`` must be a list or tuple of
    tensors (a lone tensor or a generator such as ``model.parameters()`` is refused, not
    iterated, and so is a None gradient in the list), and so must every other sequence that
    begins with a tensor. ``_foreach_pow`` also takes a number base."""
    self = args[0] if args else kwargs.get("self")
    number_base = name == "_foreach_pow" and isinstance(self, (int, float, bool))
    if not isinstance(self, (list, tuple)) and not number_base:
        raise _self_refused(name, self, args, kwargs)
    for index, arg in enumerate(args):
        if isinstance(arg, (list, tuple)) and arg and (index == 0 or isinstance(arg[0], Tensor)):
            for position, element in enumerate(arg):
                if not isinstance(element, Tensor):
                    raise TypeError(f"expected Tensor as element {position} in argument "
                                    f"{index}, but got {type(element).__name__}")


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
    globals()[name] = _parsed(name, function)
    __all__.append(name)


def _parsed(name, function):
    """``function`` behind PyTorch's parsing of its arguments."""
    @functools.wraps(function)
    def parsed(*args, **kwargs):
        _check_tensor_lists(name, args, kwargs)
        return function(*args, **kwargs)
    parsed.__name__ = parsed.__qualname__ = name
    return parsed


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


def _elementwise_extremum(op):
    """``_foreach_maximum``/``_foreach_minimum`` and their in-place forms, which write the result
    back (there is no ``Tensor.maximum_``) and, as PyTorch, refuse a result of a higher kind."""
    function = getattr(ops, op)

    def results(name, self, other):
        _check_list(self)
        if isinstance(other, Tensor) and other.ndim:
            raise _invalid_arguments(name, (self, other), {})
        return tuple(function(t, _number_as_tensor(o)) for t, o in zip(self, _spread(self, other)))

    def outplace(self, other):
        return results(f"_foreach_{op}", self, other)

    def inplace(self, other):
        for t, result in zip(self, results(f"_foreach_{op}_", self, other)):
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


_foreach_pow = _parsed("_foreach_pow", _foreach_pow)


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
    def operands(self, tensor1, tensor2, value):
        _check_list(self)
        return zip(self, _spread(self, tensor1), _spread(self, tensor2), _values(self, value))

    def outplace(self, tensor1, tensor2, value=1):
        return tuple(getattr(t, op)(a, b, value=v)
                     for t, a, b, v in operands(self, tensor1, tensor2, value))

    def inplace(self, tensor1, tensor2, value=1):
        for t, a, b, v in operands(self, tensor1, tensor2, value):
            getattr(t, op + "_")(a, b, value=v)
        return self
    _define(f"_foreach_{op}", outplace)
    _define(f"_foreach_{op}_", inplace)


def _values(tensors, value):
    """addcmul/addcdiv's ``value`` for each tensor (a tensor packs one number per entry)."""
    if not isinstance(value, Tensor):
        return _spread(tensors, value)
    if value.ndim != 1:
        raise RuntimeError("Expected packed scalar Tensor to be of dimension 1. "
                           f"Got {value.ndim} instead.")
    if len(value) != len(tensors):
        raise RuntimeError(f"Expected length of scalars to match input of length {len(tensors)} "
                           f"but got {len(value)} instead.")
    return value.tolist()


_ternary("addcmul")
_ternary("addcdiv")


def _lerp_operands(name, self, tensors1, weight):
    """(tensor, end, weight) triples; a tensor ``weight`` stands for a number, so must be 0-d."""
    _check_list(self)
    if isinstance(weight, Tensor) and weight.ndim:
        raise _invalid_arguments(name, (self, tensors1, weight), {})
    return zip(self, _spread(self, tensors1), _spread(self, weight))


def _foreach_lerp(self, tensors1, weight):
    return tuple(t.lerp(e, w) for t, e, w in _lerp_operands("_foreach_lerp", self, tensors1, weight))


def _foreach_lerp_(self, tensors1, weight):
    for t, e, w in _lerp_operands("_foreach_lerp_", self, tensors1, weight):
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


for _name in ("_foreach_lerp", "_foreach_lerp_", "_foreach_norm", "_foreach_zero_",
              "_foreach_copy_", "_foreach_powsum", "_foreach_max", "_foreach_mm", "_foreach_clone"):
    _define(_name, globals()[_name])
del _op, _like, _name
