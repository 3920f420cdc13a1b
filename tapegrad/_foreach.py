"""``torch._foreach_*``: one operation over a list of tensors, as optimizers and EMA code call it.

PyTorch fuses these into multi-tensor kernels; here each applies the per-tensor operation in turn
(same values, same in-place semantics). The second operand may be one number, a list of numbers,
one tensor, or a list of tensors; in-place forms return the list they were given, out-of-place
forms a tuple.
"""
from .ops.norm import vector_norm
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


for _op in ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp_min", "clamp_max"):
    _binary(_op, _op)


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
            "cos", "floor", "ceil", "round", "trunc", "frac", "expm1", "log1p", "rsqrt"):
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
            "_foreach_copy_"]
del _op
