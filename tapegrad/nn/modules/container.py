"""Containers: ``Sequential`` (a pipeline), ``ModuleList`` and ``ModuleDict`` (registered holders
of modules), ``ParameterList`` and ``ParameterDict`` (registered holders of parameters)."""
import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ...tensor import Tensor
from ..parameter import Parameter
from .module import Module, _class_repr, _indent

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _checked_index(index, length):
    index = operator.index(index)
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range")
    return index % length


class _ModuleSequence(Module):
    """What Sequential and ModuleList share: modules numbered "0", "1", … kept contiguous."""

    def __delitem__(self, index):
        """Deletes the entries by name (``_keys_at``), then renumbers the rest in place (no
        registration hooks run again); like PyTorch, the modules end up in an OrderedDict."""
        for key in self._keys_at(index):
            delattr(self, key)
        object.__setattr__(self, "_modules", OrderedDict(
            (str(i), module) for i, module in enumerate(self._modules.values())))
        Module._changes += 1

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def pop(self, key):
        module = self[key]
        del self[key]
        return module

    def _shift_in(self, index, module):
        """As PyTorch: moves the entries named ``index``, ``index + 1``, … up by one name, then
        stores ``module`` under ``str(index)`` (names given by an OrderedDict stay)."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        Module._changes += 1


class Sequential(_ModuleSequence):
    """Calls its modules in order, each on the previous one's output.

    ``Sequential(m0, m1, ...)`` names them "0", "1", …; ``Sequential(OrderedDict(name=m))`` keeps
    the given names.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return list(self._modules.values())[_checked_index(index, len(self._modules))]

    def __setitem__(self, index, module):
        setattr(self, list(self._modules)[_checked_index(index, len(self._modules))], module)

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {_class_repr(Module)}")
        if not -len(self) <= index <= len(self):
            raise IndexError(f"Index out of range: {index}")
        self._shift_in(index + len(self) if index < 0 else index, module)
        return self

    def _keys_at(self, index):
        """The names of the entries at positions ``index`` (an int or a slice)."""
        keys = list(self._modules)
        return keys[index] if isinstance(index, slice) else [keys[_checked_index(index, len(keys))]]

    def __add__(self, other):
        _check_sequential_operand(other)
        return Sequential(*self, *other)

    def __iadd__(self, other):
        _check_sequential_operand(other)
        return self.extend(other)

    def __mul__(self, times):
        _check_multiplier(self, times)
        return Sequential(*(list(self) * times))

    __rmul__ = __mul__

    def __imul__(self, times):
        _check_multiplier(self, times)  # repeats the entries named "0", "1", …, as PyTorch does
        return self.extend([self._modules[str(i)] for i in range(len(self))] * (times - 1))

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


def _check_sequential_operand(other):
    if not isinstance(other, Sequential):
        raise ValueError("add operator supports only objects of Sequential class, but "
                         f"{_class_repr(type(other))} is given.")


def _check_multiplier(sequential, times):
    """Repeating a Sequential shares its modules ``times`` over, as PyTorch's ``seq * n``."""
    if not isinstance(times, int):
        raise TypeError(f"unsupported operand type(s) for *: {_class_repr(type(sequential))} "
                        f"and {_class_repr(type(times))}")
    if times <= 0:
        raise ValueError(f"Non-positive multiplication factor {times} for "
                         f"{_class_repr(type(sequential))}")


class ModuleList(_ModuleSequence):
    """A list of modules whose parameters the parent module sees; it has no ``forward``."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_checked_index(index, len(self._modules)))]

    def __setitem__(self, index, module):
        setattr(self, str(_checked_index(index, len(self._modules))), module)

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList([*self, *other])

    def _keys_at(self, index):
        """The names "i" of positions ``index`` (an int or a slice), as PyTorch deletes them."""
        positions = range(len(self._modules))
        return [str(i) for i in (positions[index] if isinstance(index, slice)
                                 else [_checked_index(index, len(positions))])]

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        return super().extend(modules)

    def insert(self, index, module):
        """As PyTorch: a negative index fails with KeyError '-1' (after shifting), and an index
        past the end leaves a gap."""
        self._shift_in(index, module)

    def __repr__(self):
        """As PyTorch: runs of identical children print once, as ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(module) for module in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []  # [first index, last index, repr]
        for index, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        lines = [_indent(f"({first}): {text}" if first == last else
                         f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, kept in insertion order, registered under their keys."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        module = self._modules[key]
        del self._modules[key]
        return module

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        """Add or overwrite entries from a mapping (in its order) or from key-value pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value "
                            f"pairs, but got {type(modules).__name__}")
        pairs = modules.items() if isinstance(modules, (Mapping, ModuleDict)) \
            else _checked_pairs(modules, "ModuleDict")
        for key, module in pairs:
            self[key] = module


def _checked_pairs(sequence, container):
    """The key-value pairs of an ``update`` argument that is not a mapping, each checked to be
    an iterable of two, with PyTorch's messages."""
    for j, pair in enumerate(sequence):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{container} update sequence element #{j} should be Iterable; "
                            f"is{type(pair).__name__}")
        if len(pair) != 2:
            raise ValueError(f"{container} update sequence element #{j} has length {len(pair)}; "
                             "2 is required")
        yield pair[0], pair[1]


def _as_parameter(value):
    """A plain tensor put in a parameter container becomes a Parameter, as in PyTorch."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) \
        else value


def _describe(value, type_name):
    if not isinstance(value, Tensor):
        return f"Object of type: {type(value).__name__}"
    size = "x".join(str(s) for s in value.shape)
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    return f"{kind} containing: [{type_name(value)} of size {size}]"


class ParameterList(Module):
    """A list of parameters registered as "0", "1", …"""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)([self[i] for i in range(len(self))[index]])
        return getattr(self, str(_checked_index(index, len(self))))

    def __setitem__(self, index, value):
        setattr(self, str(_checked_index(index, len(self))), _as_parameter(value))

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        object.__setattr__(self, "_size", self._size + 1)
        setattr(self, str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values):
        if not isinstance(values, Iterable) or isinstance(values, Tensor):  # a tensor is one value
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(f"  ({i}): " + _describe(p, lambda t: str(t.dtype))
                         for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


def _key_to_attr(key):
    if not isinstance(key, str):
        raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a "
                        f"string (type is '{type(key).__name__}'). Open an issue on github if "
                        "you need non-string keys.")
    return key


class ParameterDict(Module):
    """A dict of parameters, kept in insertion order, registered under their keys."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return getattr(self, _key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None  # first, as in PyTorch: an unhashable key fails as unhashable
        setattr(self, _key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, _key_to_attr(key))

    def __reversed__(self):
        return reversed(self._keys)

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def copy(self):
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict(self.items()))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def popitem(self):
        """The last entry, removed (an empty one fails as an empty dict does)."""
        key, _ = self._keys.popitem()
        self._keys[key] = None
        return key, self.pop(key)

    def fromkeys(self, keys, default=None):
        """A new ParameterDict with ``default`` under every key (called on an instance, as in
        PyTorch)."""
        return ParameterDict((key, default) for key in keys)

    def __or__(self, other):
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other):
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other):
        self.update(other)
        return self

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((key, self[key]) for key in self._keys)

    def values(self):
        return (self[key] for key in self._keys)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def update(self, parameters):
        """Add or overwrite entries. As in PyTorch, an OrderedDict, a ParameterDict and a
        sequence of pairs keep their order, while any other mapping (a plain dict) is added in
        sorted key order."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            f"key/value pairs, but got {type(parameters).__name__}")
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = _checked_pairs(parameters, "ParameterDict")
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(f"  ({key}): " + _describe(value, lambda t: t.type())
                         for key, value in self.items())
