"""PyTorch's argument-parser message for a call that matches none of an op's overloads.

The wording follows ``torch/csrc/utils/python_arg_parser.cpp`` and ``invalid_arguments.cpp``,
quirks included: when a single overload can take that many arguments, the error names its first
argument of the wrong type; otherwise every overload is listed, explained only when the call has
exactly as many arguments as it has parameters (the keyword-only marker ``*`` counting as one),
and a parameter with a default value (``Tensor min = None``) or the marker then matches no
argument, by type or by keyword, nor does a number's ``self`` (``Number self``).
"""
import numbers

from ..tensor import Tensor
from .operands import type_name

_TYPE_CHECKS = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "Number": lambda v: isinstance(v, numbers.Number),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "tuple of ints": lambda v: isinstance(v, (tuple, list)),
}


def _type_name(value):
    return "Tensor" if isinstance(value, Tensor) else type_name(type(value))


def invalid_combination(name, args, kwargs, overloads):
    """The ``TypeError`` for ``name(*args, **kwargs)`` given ``overloads``, the signature texts
    PyTorch prints (``"Tensor input, int sections, int dim = 0"``); a method call passes its
    arguments and overloads without ``self``."""
    plausible = [o for o in overloads if _arity(o)[0] <= len(args) + len(kwargs) <= _arity(o)[1]]
    if len(plausible) == 1:  # PyTorch then parses that overload and names the wrong argument
        error = _wrong_argument(name, plausible[0], args)
        if error is not None:
            return error
    keywords = [f"{key}={_type_name(kwargs[key])}" for key in sorted(kwargs)]
    got = ", ".join([_type_name(a) for a in args] + keywords) + (", " if keywords and not args
                                                                 else "")
    lines = [f"{name}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    for overload in overloads:
        lines.append(f" * ({overload})")
        reason = _mismatch(overload, args, kwargs, keywords)
        if reason:
            lines.append(f"      didn't match because {reason}")
    return TypeError("\n".join(lines) + "\n")


def _parameters(overload):
    return [p for p in overload.split(", ") if p != "*"]


def _arity(overload):
    parameters = _parameters(overload)
    return sum("=" not in p for p in parameters), len(parameters)


def _wrong_argument(name, overload, args):
    for position, (parameter, value) in enumerate(zip(_parameters(overload), args), 1):
        kind, argument = parameter.split(" = ")[0].rsplit(" ", 1)
        check = _TYPE_CHECKS.get(kind)
        if check is not None and not check(value):
            return TypeError(f"{name}(): argument '{argument}' (position {position}) must be "
                             f"{kind}, not {_type_name(value)}")
    return None


def _described(value):
    """``value``'s type as an explanation names it: a list's or a tuple's with its elements'
    (``list of [int, float]``, ``tuple of (int, int)``)."""
    if type(value) in (list, tuple):
        inner = ", ".join(_type_name(element) for element in value)
        return f"list of [{inner}]" if type(value) is list else f"tuple of ({inner})"
    return _type_name(value)


def _mismatch(overload, args, kwargs, keywords):
    parameters = overload.split(", ")  # "*" included: PyTorch's formatter counts it
    if len(args) + len(kwargs) != len(parameters):
        return None
    names = {p.rsplit(" ", 1)[1] for p in parameters if "=" not in p and p != "*"}
    wrong = [key for key in sorted(kwargs) if key not in names]
    if wrong:
        return "some of the keywords were incorrect: " + ", ".join(wrong)
    marked = []
    for parameter, value in zip(parameters, args):
        check = _TYPE_CHECKS.get(parameter.rsplit(" ", 1)[0])
        fits = ("=" not in parameter and not parameter.endswith(" self") and check is not None
                and check(value))
        marked.append(_described(value) if fits else f"!{_described(value)}!")
    return "some of the arguments have invalid types: (" + ", ".join(marked + keywords) + ")"


def int_list(items, function, name, position):
    """``items`` read as PyTorch's argument parser reads a ``tuple of ints``: each an index
    (the first one not a bool), refused in the parser's words."""
    ints = []
    for at, item in enumerate(items):
        try:
            if at == 0 and isinstance(item, bool):
                raise TypeError
            ints.append(item.__index__())
        except (TypeError, AttributeError):
            kind = type(item).__name__
            if at == 0:
                raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                                f"tuple of ints, but found element of type {kind} at pos 0"
                                ) from None
            raise TypeError(f"{function}(): argument '{name}' failed to unpack the object at pos "
                            f"{at + 1} with error \"type must be tuple of ints,but got {kind}\""
                            ) from None
    return tuple(ints)
