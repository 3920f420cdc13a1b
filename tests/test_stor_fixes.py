"""Differences found by the storage / views programs (stor_*): ``Tensor.as_strided_`` keeping the
storage it had (its offset and size measured there), and the legacy ``TypedStorage`` API
(element reads and writes with PyTorch's bounds errors, ``fill_``/``copy_``/``clone``, dtype
conversions, legacy type names)."""
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _storage(lib, values=(0.0, 1.0, 2.0, 3.0), dtype=None):
    return _storage_of(lib.tensor(list(values), dtype=dtype))


def _storage_of(tensor):
    """``tensor.storage()`` without its deprecation warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tensor.storage()


# ------------------------------------------------------------------------------ as_strided_

def test_as_strided_in_place_keeps_its_storage():
    b = tapegrad.arange(6.0)
    b.as_strided_((2, 2), (1, 2), 1)
    assert b.storage_offset() == 1 and b.stride() == (1, 2)
    assert b.untyped_storage().nbytes() == 24
    np.testing.assert_array_equal(b.numpy(), [[1.0, 3.0], [2.0, 4.0]])


def test_as_strided_in_place_on_a_view_measures_from_the_base():
    c = tapegrad.arange(6.0)[1:]
    c.as_strided_((2,), (2,), 3)
    assert c.storage_offset() == 3
    np.testing.assert_array_equal(c.numpy(), [3.0, 5.0])


@needs_torch
@pytest.mark.parametrize("geometry", [((2, 2), (1, 2), 1), ((3,), (2,), 0), ((2,), (1,), 4)])
def test_as_strided_in_place_same_as_torch(geometry):
    def case(lib):
        t = lib.arange(6.0)
        t.as_strided_(*geometry)
        return t, t.storage_offset(), t.stride(), t.untyped_storage().nbytes()
    assert_same(case, torch)


def test_as_strided_in_place_gradient():
    w = tapegrad.arange(6.0, requires_grad=True)
    y = w * 1
    y.as_strided_((2,), (2,), 1)
    assert type(y.grad_fn).__name__ == "AsStridedBackward1"
    (y * tapegrad.tensor([3.0, 5.0])).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0, 3, 0, 5, 0, 0])


# ------------------------------------------------------------------------------ TypedStorage

def test_storage_writes_reach_the_tensor():
    t = tapegrad.arange(4.0)
    s = _storage_of(t)
    s[0], s[-1] = 10.0, -1.0
    s[1:3] = 7.0
    np.testing.assert_array_equal(t.numpy(), [10.0, 7.0, 7.0, -1.0])
    s.fill_(2.0)
    np.testing.assert_array_equal(t.numpy(), [2.0] * 4)


def test_storage_copy_is_a_byte_copy():
    s = _storage(tapegrad)
    s.copy_(_storage(tapegrad, (1.0, 2.0), dtype=tapegrad.float64))
    assert s.tolist() == np.array([1.0, 2.0]).view(np.float32).tolist()


def test_storage_clone_and_conversions_copy():
    s = _storage(tapegrad)
    c, d = s.clone(), s.double()
    c[0] = d[0] = 5.0
    assert s[0] == 0.0 and d.dtype == tapegrad.float64 and s.long().tolist() == [0, 1, 2, 3]
    assert s.cpu() is not s and s.cpu().data_ptr() == s.data_ptr()


@needs_torch
@pytest.mark.parametrize("index", [0, 3, -4, 4, -5, slice(1, None), "a"])
def test_storage_getitem_same_as_torch(index):
    assert_same(lambda lib: _storage(lib)[index], torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int16",
                                   "int8", "uint8", "bool", "complex64", "complex128", "uint16"])
def test_storage_type_names_same_as_torch(dtype):
    assert_same(lambda lib: _storage(lib, (1, 0), getattr(lib, dtype)).type(), torch)


@needs_torch
@pytest.mark.parametrize("method", ["double", "float", "half", "long", "int", "short", "char",
                                    "byte", "bool", "complex_float", "complex_double"])
def test_storage_conversions_same_as_torch(method):
    def case(lib):
        converted = getattr(_storage(lib, (0.0, 1.5, -2.0)), method)()
        return str(converted.dtype), converted.tolist()
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("source", [(1.0, 2.0), (1.0, 2.0, 3.0, 4.0, 5.0)])
def test_storage_copy_size_error_same_as_torch(source):
    assert_same(lambda lib: _storage(lib).copy_(_storage(lib, source)).tolist(), torch)


@needs_torch
def test_storage_flags_same_as_torch():
    assert_same(lambda lib: (_storage(lib).is_shared(), _storage(lib).is_cuda,
                             _storage(lib).is_sparse, _storage(lib).is_pinned()), torch)


# ------------------------------------------------------------------------------ view_copy

def test_view_copy_of_a_non_viewable_tensor_is_its_reshape():
    w = tapegrad.arange(12.0, requires_grad=True)
    r = tapegrad.view_copy(w.view(3, 4).t(), (-1,))
    assert type(r.grad_fn).__name__ == "ViewBackward0_copy" and r._base is None
    np.testing.assert_array_equal(r.detach().numpy(), np.arange(12.0).reshape(3, 4).T.ravel())
    (r * tapegrad.arange(12.0)).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.arange(12.0).reshape(4, 3).T.ravel())


@needs_torch
@pytest.mark.parametrize("shape", [(-1,), (2, 6), (5, -1)])
def test_view_copy_of_transposed_same_as_torch(shape):
    assert_same(lambda lib: lib.view_copy(lib.arange(12.0).reshape(3, 4).t(), shape), torch)


# ------------------------------------------------------------------------------ is_set_to

@needs_torch
@pytest.mark.parametrize("other", ["same", "view22", "view4", "clone", "slice", "detach", "tail",
                                   "set"])
def test_is_set_to_same_as_torch(other):
    def case(lib):
        z = lib.zeros(4)
        candidates = {"same": lambda: z, "view22": lambda: z.view(2, 2), "view4": lambda: z.view(4),
                      "clone": z.clone, "slice": lambda: z[:], "detach": z.detach,
                      "tail": lambda: z[1:], "set": lambda: lib.ones(2).set_(z)}
        return z.is_set_to(candidates[other]())
    assert_same(case, torch)


# ------------------------------------------------------------------------------ frombuffer

@needs_torch
@pytest.mark.parametrize("make", ["strided_view", "fortran", "str_dtype", "none_dtype",
                                  "int_requires_grad", "float_requires_grad"])
def test_frombuffer_checks_same_as_torch(make):
    def case(lib):
        calls = {
            "strided_view": lambda: lib.frombuffer(memoryview(bytearray(8))[::2],
                                                   dtype=lib.uint8),
            "fortran": lambda: lib.frombuffer(np.asfortranarray(np.ones((2, 3), np.float32)),
                                              dtype=lib.float32),
            "str_dtype": lambda: lib.frombuffer(bytearray(4), dtype="float32"),
            "none_dtype": lambda: lib.frombuffer(bytearray(4), dtype=None),
            "int_requires_grad": lambda: lib.frombuffer(bytearray(4), dtype=lib.int32,
                                                        requires_grad=True),
            "float_requires_grad": lambda: lib.frombuffer(bytearray(8), dtype=lib.float32,
                                                          requires_grad=True).requires_grad,
        }
        return calls[make]()
    assert_same(case, torch)


def test_frombuffer_shares_the_buffer():
    buf = bytearray(8)
    t = tapegrad.frombuffer(buf, dtype=tapegrad.int32)
    t[1] = 7
    assert buf[4:8] == (7).to_bytes(4, "little")


@needs_torch
@pytest.mark.parametrize("values", [(), (1.5, -2.0)])
def test_storage_repr_same_as_torch(values):
    assert_same(lambda lib: repr(_storage(lib, values)), torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex128", "uint16"])
def test_pickle_storage_type_same_as_torch(dtype):
    assert_same(lambda lib: _storage(lib, (1, 0), getattr(lib, dtype)).pickle_storage_type(),
                torch)


def test_deepcopy_copies_each_storage_once_and_keeps_offsets():
    """Tensors that share memory share the copy's, at the same offsets and strides; a view
    becomes a plain tensor on it (no _base), as PyTorch's deepcopy makes it."""
    import copy
    base = tapegrad.arange(6.0)
    pack = {"base": base, "view": base.view(2, 3), "tail": base[3:]}
    dup = copy.deepcopy(pack)
    assert dup["tail"].storage_offset() == 3 and dup["view"]._base is None
    dup["base"][4] = -1
    assert dup["tail"].tolist() == [3.0, -1.0, 5.0] and base.tolist()[4] == 4.0
    solo = copy.deepcopy(base[3:])
    assert solo.storage_offset() == 3 and solo.untyped_storage().nbytes() == 24
    t = tapegrad.arange(4.0).unsqueeze(0).t()
    assert copy.deepcopy(t).stride() == t.stride()


def test_an_in_place_view_op_on_a_view_records_its_own_node():
    """``c.view(2, 2).t_()``: the view's history is TBackward1, not a regenerated AsStrided."""
    c = tapegrad.arange(4.0, requires_grad=True).clone()
    d = c.view(2, 2)
    d.t_()
    assert type(d.grad_fn).__name__ == "TBackward1"
    d.sum().backward()


def test_resize_keeps_its_storage_and_set_views_a_storage():
    x = tapegrad.arange(6.0)
    x.resize_(4)
    assert x.untyped_storage().nbytes() == 24  # shrinking keeps the memory, as in PyTorch
    z = tapegrad.empty(0)
    z.set_(x.untyped_storage(), 1, (2, 2), (1, 2))
    assert z.tolist() == [[1.0, 3.0], [2.0, 4.0]] and z.storage_offset() == 1
    z[0, 0] = -7.0
    assert x[1].item() == -7.0
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 24"):
        z.set_(x.untyped_storage(), 5, (2, 2))


def test_views_of_empty_tensors_are_views():
    e = tapegrad.empty(0, 3)
    assert e.reshape(-1)._base is e and e.flatten()._base is e
    assert tapegrad.zeros(3)[:0]._base is not None


def test_out_refuses_an_expanded_tensor():
    expanded = tapegrad.zeros(2, 1).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        tapegrad.add(tapegrad.ones(2, 3), 1, out=expanded)
