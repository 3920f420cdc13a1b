"""The compiler's intermediate representation: a typed SSA graph that prints like a jaxpr.

A ``Value`` is one array with a static shape and dtype, assigned exactly once. A ``Node`` applies
one primitive of the op table (by name) to values and defines new ones. A ``Graph`` lists its input
values, its constants (arrays captured while tracing), its nodes in execution order and its outputs.

    { lambda a:f32[64,128] b:f32[128] ; k0:f32[]=2.0 .
      let c:f32[64,128] = add a b
          d:f32[] = sum_all c dims=None keepdim=False
      in (d,) }

Index keys that contain integer arrays refer to them through ``Operand(i)``: the array is then the
node's ``i``-th input, so data never hides in a node's parameters.
"""
import hashlib

import numpy as np

__all__ = ["Value", "Node", "Graph", "Operand", "dtype_name"]

_DTYPE_NAMES = {"float32": "f32", "float64": "f64", "float16": "f16", "int64": "i64",
                "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "bool"}


def dtype_name(dtype):
    return _DTYPE_NAMES.get(np.dtype(dtype).name, np.dtype(dtype).name)


class Value:
    """One array in the graph: shape and dtype are fixed when the value is created."""

    __slots__ = ("shape", "dtype", "__weakref__")

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def type_text(self):
        return f"{dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def __repr__(self):
        return f"<Value {self.type_text} at {id(self):#x}>"


class Operand:
    """A placeholder inside a node parameter for the node's ``index``-th input (an index array)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __eq__(self, other):
        return type(other) is Operand and other.index == self.index

    def __hash__(self):
        return hash(("Operand", self.index))

    def __repr__(self):
        return f"%{self.index}"


class Node:
    """``outputs = op(*inputs, **params)``; ``op`` names a primitive of the op table."""

    __slots__ = ("op", "inputs", "outputs", "params")

    def __init__(self, op, inputs, outputs, params):
        self.op = op
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self.params = dict(params)

    def __repr__(self):
        return f"<Node {self.op}>"


class Graph:
    """Inputs, constants, nodes in execution order and outputs; the compiler's unit of work."""

    def __init__(self, inputs=(), nodes=(), outputs=(), constants=None):
        self.inputs = list(inputs)
        self.nodes = list(nodes)
        self.outputs = list(outputs)
        self.constants = dict(constants or {})  # Value -> numpy array

    def producers(self):
        """Value -> the node that defines it."""
        return {out: node for node in self.nodes for out in node.outputs}

    def users(self):
        """Value -> list of nodes that read it."""
        users = {}
        for node in self.nodes:
            for value in node.inputs:
                users.setdefault(value, []).append(node)
        return users

    # -- text ------------------------------------------------------------------------------------
    def names(self):
        """Short names in order of definition: a, b, …, z, ba, bb, … (as jaxprs name them)."""
        names = {}
        for value in [*self.inputs, *self.constants, *(o for n in self.nodes for o in n.outputs)]:
            if value not in names:
                names[value] = _short_name(len(names))
        return names

    def __str__(self):
        return self.format()

    def format(self, names=None):
        names = names or self.names()

        def name(value):
            return names.get(value, "?")

        inputs = " ".join(f"{name(v)}:{v.type_text}" for v in self.inputs)
        constants = " ".join(f"{name(v)}:{v.type_text}={_constant_text(a)}"
                             for v, a in self.constants.items())
        head = f"{{ lambda {inputs} ; {constants} ." if constants else f"{{ lambda {inputs} ."
        lines = [head]
        for i, node in enumerate(self.nodes):
            outs = " ".join(f"{name(v)}:{v.type_text}" for v in node.outputs)
            args = " ".join(name(v) for v in node.inputs)
            params = " ".join(f"{k}={format_param(p)}" for k, p in node.params.items())
            text = f"{outs} = {node.op} {args}" + (f" {params}" if params else "")
            lines.append(("  let " if i == 0 else "      ") + text)
        outputs = ", ".join(name(v) for v in self.outputs)
        lines.append(f"  in ({outputs}{',' if len(self.outputs) == 1 else ''}) }}")
        return "\n".join(lines)

    def fingerprint(self):
        """A hash of the graph's structure, types, parameters and constant values.

        Equal fingerprints mean the same computation, so compiled kernels can be shared across
        specializations and processes.
        """
        digest = hashlib.sha256(self.format().encode())
        for array in self.constants.values():
            digest.update(np.ascontiguousarray(array).tobytes())
        for node in self.nodes:
            for array in _param_arrays(node.params.values()):
                digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:24]


def _param_arrays(params):
    for param in params:
        if isinstance(param, np.ndarray):
            yield param
        elif isinstance(param, (tuple, list)):
            yield from _param_arrays(param)


def _short_name(i):
    letters = "abcdefghijklmnopqrstuvwxyz"
    text = letters[i % 26]
    i //= 26
    while i:
        text = letters[i % 26] + text
        i //= 26
    return text


def _constant_text(array):
    if array.size == 1:
        return repr(array.reshape(()).item())
    return f"<{array.size} values>"


def format_param(param):
    """Parameters as short, stable text (slices as ``1:3``, dtypes by name, arrays by shape)."""
    if isinstance(param, tuple):
        inner = ", ".join(format_param(p) for p in param)
        return f"({inner}{',' if len(param) == 1 else ''})"
    if isinstance(param, list):
        return "[" + ", ".join(format_param(p) for p in param) + "]"
    if isinstance(param, slice):
        parts = ["" if p is None else str(p) for p in (param.start, param.stop, param.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if param.step is not None else "")
    if param is Ellipsis:
        return "..."
    if isinstance(param, np.ndarray):
        return f"array<{dtype_name(param.dtype)}[{','.join(map(str, param.shape))}]>"
    if isinstance(param, np.dtype):
        return dtype_name(param)
    if isinstance(getattr(param, "numpy", None), np.dtype):  # a tapegrad dtype
        return dtype_name(param.numpy)
    return repr(param)
