"""Collation: the samples a batch sampler picked, merged into one batch.

``collate`` dispatches on the type of a batch's first element through a table of per-type
functions (``default_collate_fn_map``, which users may extend, as in PyTorch) and recurses
through mappings, namedtuples and sequences.
"""
import collections.abc
import copy
import re

import numpy as np

from .... import dtypes, ops
from ....tensor import Tensor

__all__ = ["collate", "default_collate", "default_convert", "default_collate_fn_map",
           "collate_tensor_fn", "collate_numpy_array_fn", "collate_numpy_scalar_fn",
           "collate_float_fn", "collate_int_fn", "collate_str_fn"]

# numpy dtypes of strings, bytes and objects: no tensor can hold them
np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, "
                                  "numbers, dicts or lists; found {}")


def default_convert(data):
    """One sample as a DataLoader without batching hands it out: numpy arrays and scalars become
    tensors (inside mappings, namedtuples and sequences too), everything else is unchanged."""
    if isinstance(data, Tensor):
        return data
    elem_type = type(data)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if isinstance(data, np.ndarray) and np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return ops.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # a list, as PyTorch
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data


def collate(batch, *, collate_fn_map=None):
    """Merge a list of samples: an element type found in ``collate_fn_map`` (exactly, else by
    ``isinstance`` in the table's order) uses its function; containers are merged field by
    field."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {key: collate([d[key] for d in batch],
                                                    collate_fn_map=collate_fn_map)
                                       for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map)
                           for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # each field's samples stay the tuple ``zip`` makes, as PyTorch passes them on
        fields = [collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return fields  # a list, as PyTorch
        return _rebuild_sequence(elem, fields)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def _rebuild_mapping(like, items):
    """``items`` in a mapping of ``like``'s type (a copy, so extra attributes survive), or a dict
    when that type cannot be built so."""
    try:
        if isinstance(like, collections.abc.MutableMapping):
            clone = copy.copy(like)
            clone.update(items)
            return clone
        return type(like)(items)
    except TypeError:
        return items


def _rebuild_sequence(like, items):
    """``items`` in a sequence of ``like``'s type, or a list when that type cannot be built so."""
    try:
        if isinstance(like, collections.abc.MutableSequence):
            clone = copy.copy(like)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(like)(items)
    except TypeError:
        return items


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return ops.stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([ops.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    """The batch read as one sequence, as PyTorch reads it: numpy scalars keep their dtype
    (``np.float32`` gives float32) and promote with the other elements as tensor inputs do."""
    return ops.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return ops.tensor(batch, dtype=dtypes.float64)  # Python floats are doubles


def collate_int_fn(batch, *, collate_fn_map=None):
    return ops.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {
    Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch):
    """A list of samples as one batch: tensors and arrays stacked along a new first dimension,
    numbers as a 1-D tensor (Python floats as float64), strings as a tuple, and mappings,
    namedtuples and sequences collated field by field."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
