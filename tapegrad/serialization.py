"""``save`` and ``load``: state dicts (and nests of them) in a numpy ``.npz`` archive.

Unlike ``torch.save`` nothing is pickled: each tensor is one array of the archive, and the
structure around them (dicts, lists, tuples, numbers, strings) is one JSON document stored as a
string array. Loading runs ``np.load(allow_pickle=False)``, so a file can carry data, never code.
"""
import json
import os
import zipfile
from collections import OrderedDict

import numpy as np

from .tensor import Tensor

__all__ = ["save", "load"]

_STRUCTURE = "__tapegrad_structure__"
_FORMAT_VERSION = 1


def save(obj, f, pickle_module=None, pickle_protocol=None, _use_new_zipfile_serialization=True):
    """Write ``obj`` (tensors, numbers, strings, None, and dicts/lists/tuples of them) to ``f``,
    a path or a binary file object."""
    arrays = {}
    structure = {"format": _FORMAT_VERSION, "root": _encode(obj, arrays)}
    arrays[_STRUCTURE] = np.array(json.dumps(structure))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as handle:  # np.savez would append ".npz" to a path
            np.savez(handle, **arrays)
    else:
        np.savez(f, **arrays)


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Read what ``save`` wrote. Tensors come back as new tensors (Parameters as Parameters)."""
    try:
        with np.load(f, allow_pickle=False) as archive:
            if _STRUCTURE not in archive.files:
                raise ValueError("the archive has no tapegrad structure entry")
            structure = json.loads(str(archive[_STRUCTURE]))
            arrays = {name: archive[name] for name in archive.files if name != _STRUCTURE}
    except (ValueError, OSError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise RuntimeError(f"{_describe(f)} is not a file written by tapegrad.save (a .npz "
                           f"archive of arrays and a structure entry): {exc}") from None
    if structure.get("format") != _FORMAT_VERSION:
        raise RuntimeError(f"{_describe(f)} was written in tapegrad save format "
                           f"{structure.get('format')}; this version reads format "
                           f"{_FORMAT_VERSION}")
    return _decode(structure["root"], arrays)


def _describe(f):
    return repr(os.fspath(f)) if isinstance(f, (str, os.PathLike)) else "the file object"


def _encode(obj, arrays):
    if isinstance(obj, Tensor):
        from .nn.parameter import Parameter
        key = f"tensor_{len(arrays)}"
        arrays[key] = obj._array
        return {"tensor": key, "requires_grad": obj._requires_grad,
                "parameter": isinstance(obj, Parameter)}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return {"value": obj}
    if isinstance(obj, dict):
        for key in obj:
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise TypeError(f"tapegrad.save: dictionary keys must be strings or integers, "
                                f"got {type(key).__name__}")
        return {"dict": [[key, _encode(value, arrays)] for key, value in obj.items()],
                "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(v, arrays) for v in obj]}
    raise TypeError(f"tapegrad.save: cannot store an object of type {type(obj).__name__}; it "
                    "stores tensors, numbers, strings, None, and dicts, lists and tuples of them")


def _decode(node, arrays):
    if "tensor" in node:
        tensor = Tensor._make(arrays[node["tensor"]])
        if node["parameter"]:
            from .nn.parameter import Parameter
            return Parameter(tensor, requires_grad=node["requires_grad"])
        return tensor.requires_grad_(node["requires_grad"])
    if "value" in node:
        return node["value"]
    if "dict" in node:
        pairs = [(key, _decode(value, arrays)) for key, value in node["dict"]]
        return OrderedDict(pairs) if node["ordered"] else dict(pairs)
    if "list" in node:
        return [_decode(v, arrays) for v in node["list"]]
    return tuple(_decode(v, arrays) for v in node["tuple"])
