"""Lowerings of the primitives that are not fused into loops: each writes a few lines of kernel.

Views become Numba array views, matrix products call numpy's own BLAS (``M.blas_gemm``), and the
row-wise reductions (softmax, log-softmax, logsumexp, var, std, max along a dim), the loss and
indexing are small loop templates. A primitive with no template here runs its own numpy forward from inside the
kernel (``objmode``): slower, but every op of the table compiles, and ``explain()`` lists which ones
took that path.
"""
import numpy as np

from ..ops import PRIMITIVES
from .ir import Operand
from . import kernel_math as M
from .kernel_math import function_for

__all__ = ["emit_call", "TEMPLATES", "uses_fallback", "calls_threaded_library"]

TEMPLATES = {}
BLAS_CALLS = frozenset({"mm", "mv", "addmm", "dot", "bmm"})


def template(*names):
    def register(function):
        for name in names:
            TEMPLATES[name] = function
        return function
    return register


def uses_fallback(node):
    """Whether ``node`` runs through numpy: a template called without a builder only answers
    whether it applies (False: it does not)."""
    return node.op not in TEMPLATES or TEMPLATES[node.op](None, node) is False


def calls_threaded_library(node):
    """Whether ``node`` runs in BLAS or numpy, which bring their own threads (see codegen)."""
    return node.op in BLAS_CALLS or uses_fallback(node)


def emit_call(b, node):
    """Write ``node`` into the kernel being built by ``b``."""
    lower = TEMPLATES.get(node.op)
    if lower is None or lower(b, node) is False:
        _emit_fallback(b, node)


def _shape(shape):
    shape = tuple(int(s) for s in shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _dtype(value):
    from .codegen import numba_dtype
    return numba_dtype(value.dtype)


# ----------------------------------------------------------------------------------------- views

@template("view", "unsafe_view", "squeeze", "squeeze_dim", "unsqueeze", "squeeze_", "alias")
def _reshape(b, node):
    if b is None:
        return None
    (x,), (out,) = node.inputs, node.outputs
    b.define(out, b.shaped(x, out.shape))


@template("permute", "transpose", "t")
def _permute(b, node):
    if b is None:
        return None
    (x,), (out,) = node.inputs, node.outputs
    dims = tuple(node.params["dims"])
    name = b.array(x)
    if dims == tuple(range(len(dims))):
        b.define(out, name, b.layout.get(x, "C"))
    elif len(dims) == 2:
        flipped = {"C": "F", "F": "C"}.get(b.layout.get(x, "C"), "A")
        b.define(out, f"{name}.T", flipped)
        b.transposed[out] = x
    elif out in b.graph.outputs:  # returned: a view of its input, as eagerly
        b.define(out, f"np.transpose({name}, {dims})", "A")
    else:
        _emit_permuted_copy(b, name, out, dims)


def _emit_permuted_copy(b, name, out, dims):
    """``out`` as a C-contiguous copy of ``name`` permuted by ``dims``, written as a loop nest
    (see ``copy_into``; alone, ``np.transpose(x, axes)`` costs Numba seconds); later loops then
    read the copy contiguously.
    Only for values used inside the kernel: a returned permutation must stay a view."""
    result = b.name(out)
    b.emit(f"{result} = np.empty({_shape(out.shape)}, {_dtype(out)})")
    indices = [b.fresh("j") for _ in dims]
    source = [None] * len(dims)
    for position, axis in enumerate(dims):
        source[axis] = indices[position]
    for depth, (index, extent) in enumerate(zip(indices, out.shape)):
        b.emit("    " * depth + f"for {index} in range({b.extent(extent)}):")
    b.emit("    " * len(dims) + f"{result}[{', '.join(indices)}] = {name}[{', '.join(source)}]")
    b.layout[out] = "C"


def _holds(key, marker):
    """Whether the key has ``marker`` (None or Ellipsis) as a part (arrays compared by identity)."""
    return any(part is marker for part in key)


def _spelled_out(key, ndim):
    """``key`` with its Ellipsis written as the full slices it stands for (``x[0, ...]`` of a 3-d
    ``x`` is ``x[0, :, :]``), so that basic keys with one lower as plain indexing."""
    if not _holds(key, Ellipsis):
        return key
    at = next(i for i, part in enumerate(key) if part is Ellipsis)
    consumed = sum(1 for part in key if part is not None and part is not Ellipsis)
    return key[:at] + (slice(None),) * (ndim - consumed) + key[at + 1:]


def _basic_key(key):
    """Source text for a basic index key (ints and slices), or None if it has anything else."""
    parts = []
    for part in key:
        if isinstance(part, int) and not isinstance(part, bool):
            parts.append(str(part))
        elif isinstance(part, slice):
            parts.append(":".join("" if p is None else str(p)
                                  for p in (part.start, part.stop, part.step)))
        else:
            return None
    return ", ".join(parts) if parts else "..."


@template("select", "slice")
def _select(b, node):
    (x,), (out,) = node.inputs, node.outputs
    key = _spelled_out(node.params["key"], len(x.shape))
    plain = tuple(p for p in key if p is not None)
    if _holds(plain, Ellipsis) or _basic_key(plain) is None:
        return False
    if b is None:
        return None
    picked = f"{b.array(x)}[{_basic_key(plain)}]"
    if _holds(key, None):
        b.define(out, f"np.ascontiguousarray({picked}).reshape({_shape(out.shape)})")
    else:
        _define_view(b, out, picked)


def _define_view(b, out, picked):
    """``out`` as the basic-index view ``picked``; a single element is a number in Numba (as
    ``a[1]`` is in numpy), held as one (``Builder.scalars``) and made an array only if needed."""
    if out.shape:
        b.define(out, picked, "A")
    else:
        b.scalars[out] = b.fresh(b.name(out) + "_s")
        b.emit(f"{b.scalars[out]} = {picked}")


@template("split", "split_with_sizes", "unbind")
def _pieces(b, node):
    """Each output a basic-index view of the input, as ``select``/``slice`` make them."""
    if b is None:
        return None
    (x,) = node.inputs
    prefix = (slice(None),) * node.params["dim"]
    keys = ([prefix + (i,) for i in range(len(node.outputs))] if node.op == "unbind" else
            [prefix + (slice(start, stop),) for start, stop in node.params["bounds"]])
    for out, key in zip(node.outputs, keys):
        _define_view(b, out, f"{b.array(x)}[{_basic_key(key)}]")


# ------------------------------------------------------------------------------------- products

def _blas_operand(b, value):
    """(name of a C-contiguous array, "n" or "t"): transposes of C arrays are passed untransposed
    with a flag, so the product needs no copy."""
    source = b.transposed.get(value)
    if source is not None and b.layout.get(source, "C") == "C":
        return b.name(source), "t"
    return b.contiguous(value), "n"


def _fallback_product(transposes, a, c, shape=None):
    """Source of the product of matrices ``a`` and ``c`` (``transposes``: "nt" … whether each is
    read transposed) by the fallback functions, reshaped to ``shape`` if given."""
    product = f"M.{M.FALLBACK_PRODUCT}_{transposes}({a}, {c})"
    return product if shape is None else f"{product}.reshape({_shape(shape)})"


def _product(b, x, y, out):
    """The name of ``x @ y`` (``y`` a matrix or a vector) for ``out``, computed by numpy's BLAS
    (``M.blas_gemm``) or, where that is not found, by ``M.FALLBACK_PRODUCT``."""
    (a, ta), (c, tc) = _blas_operand(b, x), _blas_operand(b, y)
    if len(y.shape) == 1:
        tc = "n"
    m, k = x.shape
    n = y.shape[1] if len(y.shape) == 2 else 1
    gemm = M.blas_gemm(out.dtype)
    if gemm is None:
        return _fallback_product(f"{ta}{tc}", a, c if len(y.shape) == 2 else f"{c}.reshape(({k}, 1))",
                                 out.shape)
    result = b.fresh("mm")
    b.emit(f"{result} = np.empty({_shape(out.shape)}, {_dtype(out)})")
    _emit_gemm(b, gemm, (m, n, k), (a, ta == "t", m if ta == "t" else k),
               (c, tc == "t", k if tc == "t" else n), (result, n), out.dtype)
    return result


def _emit_gemm(b, gemm, sizes, a, c, result, dtype):
    """``result = a @ c`` by row-major cblas_?gemm: ``sizes`` (m, n, k); ``a`` and ``c`` as
    (array, transposed, leading dimension), ``result`` as (array, leading dimension)."""
    from .codegen import numba_dtype
    function, integer = gemm
    real = numba_dtype(dtype)
    (name_a, trans_a, lda), (name_c, trans_c, ldc), (name_r, ldr) = a, c, result
    flag = {False: M.CBLAS_NO_TRANS, True: M.CBLAS_TRANS}
    m, n, k = (f"{integer}({size})" for size in sizes)
    lead = [f"{integer}({max(1, d)})" for d in (lda, ldc, ldr)]
    b.emit(f"{b.param_function(function)}({M.CBLAS_ROW_MAJOR}, {flag[trans_a]}, {flag[trans_c]}, "
           f"{m}, {n}, {k}, {real}(1), {name_a}.ctypes, {lead[0]}, {name_c}.ctypes, {lead[1]}, "
           f"{real}(0), {name_r}.ctypes, {lead[2]})")


@template("mm", "mv")
def _mm(b, node):
    if b is None:
        return None
    (x, y), (out,) = node.inputs, node.outputs
    b.define(out, _product(b, x, y, out))


@template("addmm")
def _addmm(b, node):
    if b is None:
        return None
    (bias, x, y), (out,) = node.inputs, node.outputs
    beta, alpha = node.params.get("beta", 1), node.params.get("alpha", 1)
    product = _product(b, x, y, out)
    if alpha != 1:
        product = f"{product} * {alpha!r}"
    total = product if beta == 0 else f"{product} + {b.array(bias)} * {beta!r}"
    b.define(out, f"({total}).astype({_dtype(out)})")


@template("dot")
def _dot(b, node):
    if b is None:
        return None
    (x, y), (out,) = node.inputs, node.outputs
    b.define(out, f"np.empty((), {_dtype(out)})")
    gemm = M.blas_gemm(out.dtype)
    k = x.shape[0]
    if gemm is None:
        b.emit(f"{b.name(out)}[()] = " + _fallback_product(
            "nn", f"{b.contiguous(x)}.reshape((1, {k}))", f"{b.contiguous(y)}.reshape(({k}, 1))")
            + "[0, 0]")
        return
    # a (1, k) row times a (k, 1) column
    _emit_gemm(b, gemm, (1, 1, k), (b.contiguous(x), False, k), (b.contiguous(y), False, 1),
               (b.name(out), 1), out.dtype)


@template("bmm")
def _bmm(b, node):
    (x, y), (out,) = node.inputs, node.outputs
    if len(x.shape) != 3 or len(y.shape) != 3 or x.shape[0] != y.shape[0]:
        return False
    if b is None:
        return None
    a, c, o = b.contiguous(x), b.contiguous(y), b.name(out)
    b.define(out, f"np.empty({_shape(out.shape)}, {_dtype(out)})")
    q = b.fresh("q")
    b.emit(f"for {q} in range({b.extent(x.shape[0])}):")
    gemm = M.blas_gemm(out.dtype)
    if gemm is None:
        b.emit(f"    {o}[{q}] = " + _fallback_product("nn", f"{a}[{q}]", f"{c}[{q}]", out.shape[1:]))
        return
    (_, m, k), n = x.shape, y.shape[2]
    b.indent += 1
    _emit_gemm(b, gemm, (m, n, k), (f"{a}[{q}]", False, k), (f"{c}[{q}]", False, n),
               (f"{o}[{q}]", n), out.dtype)
    b.indent -= 1


@template("cat")
def _cat(b, node):
    """Each input copied into its slab of the result (``np.concatenate`` compiles slowly: see
    ``_Builder.copy_into`` in codegen)."""
    if b is None:
        return None
    out, dim = node.outputs[0], node.params["dim"]
    b.define(out, f"np.empty({_shape(out.shape)}, {_dtype(out)})")
    start = 0
    for value in node.inputs:
        if len(value.shape) != len(out.shape):
            continue  # a legacy empty 1-d input of a cat of matrices is skipped, as eagerly
        stop = start + value.shape[dim]
        _write_at(b, b.name(out), _along(dim, f"{start}:{stop}"), value.shape, b.array(value))
        start = stop


@template("stack")
def _stack(b, node):
    """Each input copied into its slice of the result (see ``_cat``)."""
    if b is None:
        return None
    out, dim = node.outputs[0], node.params["dim"]
    b.define(out, f"np.empty({_shape(out.shape)}, {_dtype(out)})")
    for i, value in enumerate(node.inputs):
        _write_at(b, b.name(out), _along(dim, str(i)), value.shape, b.array(value))


def _along(dim, index):
    """A basic key (text) picking ``index`` (an index or a slice, as text) along ``dim``."""
    return ", ".join([":"] * dim + [index])


def _write_at(b, array, key, shape, source):
    """``array[key] = source`` for a basic ``key`` (text) and ``source`` of ``shape``: one
    element written directly, a region through a view and a loop nest (``copy_into``)."""
    if not shape:
        b.emit(f"{array}[{key}] = {source}[()]")
        return
    view = b.fresh("view")
    b.emit(f"{view} = {array}[{key}]")
    b.copy_into(view, shape, source)


# ------------------------------------------------------------------------- row-wise reductions

def _rows(shape, dims):
    """(outer, n, inner) when ``dims`` are consecutive axes, else None."""
    dims = tuple(sorted(d % max(len(shape), 1) for d in dims))
    if not shape or dims != tuple(range(dims[0], dims[-1] + 1)):
        return None
    outer = int(np.prod(shape[:dims[0]]))
    n = int(np.prod([shape[d] for d in dims]))
    inner = int(np.prod(shape[dims[-1] + 1:]))
    return outer, n, inner


class _RowLoops:
    """Loops over the rows of a row-wise reduction: ``p`` over the ``outer`` rows and, when
    ``inner`` > 1, ``r`` within each; operands are viewed as (outer, n, inner), or as (outer, n)
    when ``inner`` is 1 (most often: the last axis), which needs no reshape of a 2-D operand."""

    def __init__(self, b, rows):
        self.b = b
        self.outer, self.n, self.inner = rows
        self.p = self.r = None

    def _shape(self, *middle):
        inner = (self.inner,) if self.inner != 1 else ()
        return (self.outer, *middle, *inner)

    def view(self, value):
        """The name of ``value`` viewed as rows."""
        return self.b.shaped(value, self._shape(self.n))

    def output(self, value):
        """Define ``value`` as a new array; the name of it viewed as rows."""
        b = self.b
        b.define(value, f"np.empty({_shape(value.shape)}, {_dtype(value)})")
        return b.reshaped(b.name(value), value.shape, self._shape(self.n))

    def per_row(self, dtype):
        """A new array holding one result per row (see ``define_per_row``)."""
        name = self.b.fresh("o2")
        self.b.emit(f"{name} = np.empty({_shape(self._shape())}, {dtype})")
        return name

    def define_per_row(self, value, name):
        self.b.define(value, self.b.reshaped(name, self._shape(), value.shape))

    def open(self):
        b = self.b
        self.p = b.fresh("p")
        parallel = b.runs_parallel(self.outer * self.n * self.inner) and self.outer > 1
        b.emit(f"for {self.p} in {'prange' if parallel else 'range'}({b.extent(self.outer)}):")
        b.parallel |= parallel
        b.indent += 1
        if self.inner != 1:
            self.r = b.fresh("r")
            b.emit(f"for {self.r} in range({b.extent(self.inner)}):")
            b.indent += 1

    def close(self):
        self.b.indent -= 1 if self.r is None else 2

    def at(self, name, j):
        """``name``'s element ``j`` of the current row."""
        return f"{name}[{self.p}, {j}]" if self.r is None else f"{name}[{self.p}, {j}, {self.r}]"

    def cell(self, name):
        """The current row's element of a ``per_row`` array."""
        return f"{name}[{self.p}]" if self.r is None else f"{name}[{self.p}, {self.r}]"


def _row_max(b, rows, x, dtype, finite):
    """The row's maximum; with ``finite``, an infinite one is 0 (logsumexp's shift, as eager's:
    softmax's shift by an infinite maximum gives nan, as PyTorch's does)."""
    m, j = b.fresh("m"), b.fresh("j")
    b.emit(f"{m} = {dtype}(-np.inf)")
    b.emit(f"for {j} in range({b.extent(rows.n)}):")
    b.emit(f"    {m} = np.maximum({m}, {rows.at(x, j)})")
    if finite:
        b.emit(f"if not np.isfinite({m}):")
        b.emit(f"    {m} = {dtype}(0)")
    return m


@template("softmax", "log_softmax")
def _softmax(b, node):
    (x,), (out,) = node.inputs, node.outputs
    shape = _rows(x.shape, (node.params["dim"],))
    if shape is None:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(out), shape[1]
    x3, o3 = rows.view(x), rows.output(out)
    rows.open()
    m = _row_max(b, rows, x3, dtype, finite=False)
    s, j = b.fresh("s"), b.fresh("j")
    exp = function_for("exp", x.dtype)
    b.emit(f"{s} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    if node.op == "softmax":
        b.emit(f"    e = {exp}({rows.at(x3, j)} - {m})")
        b.emit(f"    {rows.at(o3, j)} = e")
        b.emit(f"    {s} += e")
        b.emit(f"for {j} in range({b.extent(n)}):")
        b.emit(f"    {rows.at(o3, j)} = {dtype}({rows.at(o3, j)} / {s})")
    else:
        b.emit(f"    {s} += {exp}({rows.at(x3, j)} - {m})")
        b.emit(f"{s} = np.log({s})")
        b.emit(f"for {j} in range({b.extent(n)}):")
        b.emit(f"    {rows.at(o3, j)} = {dtype}({rows.at(x3, j)} - {m} - {s})")
    rows.close()


@template("softmax_backward", "log_softmax_backward")
def _softmax_backward(b, node):
    """Per row: ``s = sum(g * o)`` then ``o * (g - s)`` (softmax), or ``s = sum(g)`` then
    ``g - exp(o) * s`` (log-softmax)."""
    (grad, output), (out,) = node.inputs, node.outputs
    shape = _rows(output.shape, (node.params["dim"],))
    if shape is None:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(out), shape[1]
    g3, y3, o3 = rows.view(grad), rows.view(output), rows.output(out)
    rows.open()
    s, j = b.fresh("s"), b.fresh("j")
    g, y = rows.at(g3, j), rows.at(y3, j)
    b.emit(f"{s} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    if node.op == "softmax_backward":
        b.emit(f"    {s} += {g} * {y}")
        b.emit(f"for {j} in range({b.extent(n)}):")
        b.emit(f"    {rows.at(o3, j)} = {dtype}({y} * ({g} - {s}))")
    else:
        b.emit(f"    {s} += {g}")
        b.emit(f"for {j} in range({b.extent(n)}):")
        b.emit(f"    {rows.at(o3, j)} = "
               f"{dtype}({g} - {function_for('exp', output.dtype)}({y}) * {s})")
    rows.close()


def _reduced_rows(x, dims):
    return _rows(x.shape, dims if dims is not None else tuple(range(len(x.shape))))


@template("logsumexp")
def _logsumexp(b, node):
    (x,), (out,) = node.inputs, node.outputs
    shape = _reduced_rows(x, node.params["dims"])
    if shape is None:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(out), shape[1]
    x3, o2 = rows.view(x), rows.per_row(dtype)
    rows.open()
    m = _row_max(b, rows, x3, dtype, finite=True)
    s, j = b.fresh("s"), b.fresh("j")
    b.emit(f"{s} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    {s} += {function_for('exp', x.dtype)}({rows.at(x3, j)} - {m})")
    b.emit(f"{rows.cell(o2)} = {dtype}(np.log({s}) + {m})")
    rows.close()
    rows.define_per_row(out, o2)


@template("layer_norm")
def _layer_norm(b, node):
    """Per row (the normalised trailing dimensions): the mean, the biased variance, then
    ``(x - mean) / sqrt(var + eps) * weight + bias``, each statistic rounded to the input's
    dtype as eager's numpy computes it (float16 and mixed dtypes run through numpy)."""
    (x, weight, bias), (out,) = node.inputs, node.outputs
    k = node.params["normalized_ndim"]
    shape = _rows(x.shape, tuple(range(len(x.shape) - k, len(x.shape))))
    if shape is None or x.dtype.kind != "f" or x.dtype.itemsize < 4 \
            or weight.dtype != x.dtype or bias.dtype != x.dtype:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(out), shape[1]
    x3, o3 = rows.view(x), rows.output(out)
    w, c = b.shaped(weight, (n,)), b.shaped(bias, (n,))
    rows.open()
    mean, ss, scale, j = b.fresh("mean"), b.fresh("ss"), b.fresh("scale"), b.fresh("j")
    b.emit(f"{mean} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    {mean} += {rows.at(x3, j)}")
    b.emit(f"{mean} = {dtype}({mean} / {n})")
    b.emit(f"{ss} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    d = {dtype}({rows.at(x3, j)} - {mean})")
    b.emit(f"    {ss} += d * d")
    b.emit(f"{scale} = {dtype}(np.sqrt({dtype}({ss} / {n}) + {dtype}({node.params['eps']!r})))")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    {rows.at(o3, j)} = {dtype}(({rows.at(x3, j)} - {mean}) / {scale} * {w}[{j}] "
           f"+ {c}[{j}])")
    rows.close()


@template("var", "std")
def _moments(b, node):
    (x,), (out,) = node.inputs, node.outputs
    shape = _reduced_rows(x, node.params["dims"])
    if shape is None:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(out), shape[1]
    x3, o2 = rows.view(x), rows.per_row(dtype)
    rows.open()
    mean, ss, j = b.fresh("mean"), b.fresh("ss"), b.fresh("j")
    b.emit(f"{mean} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    {mean} += {rows.at(x3, j)}")
    b.emit(f"{mean} /= {n}")
    b.emit(f"{ss} = 0.0")
    b.emit(f"for {j} in range({b.extent(n)}):")
    b.emit(f"    d = {rows.at(x3, j)} - {mean}")
    b.emit(f"    {ss} += d * d")
    denominator = max(n - node.params["correction"], 0)
    result = f"{ss} / {denominator}" if denominator else f"{ss} / 0.0"
    if node.op == "std":
        result = f"np.sqrt({result})"
    b.emit(f"{rows.cell(o2)} = {dtype}({result})")
    rows.close()
    rows.define_per_row(out, o2)


@template("max_dim", "min_dim")
def _extremum_dim(b, node):
    (x,), (values, indices) = node.inputs, node.outputs
    shape = _rows(x.shape, (node.params["dim"],))
    if shape is None:
        return False
    if b is None:
        return None
    rows, dtype, n = _RowLoops(b, shape), _dtype(values), shape[1]
    better = ">" if node.params["largest"] else "<"
    x3, v2, i2 = rows.view(x), rows.per_row(dtype), rows.per_row("np.int64")
    rows.open()
    best, at, j = b.fresh("best"), b.fresh("at"), b.fresh("j")
    b.emit(f"{best} = {rows.at(x3, 0)}")
    b.emit(f"{at} = 0")
    b.emit(f"for {j} in range(1, {b.extent(n)}):")
    b.emit(f"    v = {rows.at(x3, j)}")
    b.emit(f"    if {best} == {best} and (v {better} {best} or v != v):")  # the first NaN wins
    b.emit(f"        {best} = v")
    b.emit(f"        {at} = {j}")
    b.emit(f"{rows.cell(v2)} = {best}")
    b.emit(f"{rows.cell(i2)} = {at}")
    rows.close()
    rows.define_per_row(values, v2)
    rows.define_per_row(indices, i2)


# ----------------------------------------------------------------------------------------- loss

@template("nll_loss")
def _nll_loss(b, node):
    (log_probs, target), (out,) = node.inputs[:2], node.outputs
    weight = node.params["weight"]
    if isinstance(weight, Operand):
        return False
    if b is None:
        return None
    classes = log_probs.shape[-1]
    rows = int(np.prod(log_probs.shape[:-1]))
    dtype = _dtype(out)
    lp, tg, losses, total, loss_sum, k = (b.fresh("lp"), b.fresh("tg"), b.fresh("losses"),
                                          b.fresh("wsum"), b.fresh("lsum"), b.fresh("k"))
    ignore = int(node.params["ignore_index"])
    b.emit(f"{lp} = {b.shaped(log_probs, (rows, classes))}")
    b.emit(f"{tg} = {b.shaped(target, (rows,))}")
    b.emit(f"{losses} = np.empty({rows}, {dtype})")
    b.emit(f"{total} = 0.0")
    b.emit(f"{loss_sum} = 0.0")
    b.emit(f"for {k} in range({b.extent(rows)}):")
    b.emit(f"    c = {tg}[{k}]")
    b.emit(f"    if c == {ignore}:")
    b.emit(f"        {losses}[{k}] = 0")
    b.emit("        continue")
    b.emit(f"    if c < 0 or c >= {classes}:")
    b.emit("        raise IndexError(\"Target out of bounds (a class index passed to a compiled "
           "function is outside the classes)\")")
    if weight is None:
        b.emit(f"    {losses}[{k}] = -{lp}[{k}, c]")
        b.emit(f"    {total} += 1.0")
    else:
        w = b.param_array(weight)
        b.emit(f"    {losses}[{k}] = -{lp}[{k}, c] * {w}[c]")
        b.emit(f"    {total} += {w}[c]")
    b.emit(f"    {loss_sum} += {losses}[{k}]")
    reduction = node.params["reduction"]
    if reduction == "none":
        b.define(out, b.reshaped(losses, (rows,), out.shape))
    else:
        b.define(out, f"np.empty((), {dtype})")
        value = loss_sum if reduction == "sum" else f"{loss_sum} / {total}"
        b.emit(f"{b.name(out)}[()] = {value}")


@template("nll_loss_backward")
def _nll_loss_backward(b, node):
    """Zeros, then ``-weight * grad`` (over the total weight for "mean") at each kept row's
    target class."""
    (grad, log_probs, target), (out,) = node.inputs[:3], node.outputs
    weight = node.params["weight"]
    if isinstance(weight, Operand):
        return False
    if b is None:
        return None
    classes = log_probs.shape[-1]
    rows = int(np.prod(target.shape))
    dtype = _dtype(out)
    ignore = int(node.params["ignore_index"])
    reduction = node.params["reduction"]
    tg, go, result, total, k = (b.fresh("tg"), b.fresh("go"), b.fresh("gi"), b.fresh("wsum"),
                                b.fresh("k"))
    w = None if weight is None else b.param_array(weight)
    b.emit(f"{tg} = {b.shaped(target, (rows,))}")
    b.emit(f"{go} = {b.shaped(grad, (rows,)) if reduction == 'none' else b.scalar(grad)}")
    b.filled(result, (rows, classes), 0, out.dtype)
    b.emit(f"{total} = 0.0")
    if reduction == "mean":  # the total weight of the kept rows, as the forward divided by it
        b.emit(f"for {k} in range({b.extent(rows)}):")
        b.emit(f"    if {tg}[{k}] != {ignore}:")
        b.emit(f"        {total} += {'1.0' if w is None else f'{w}[{tg}[{k}]]'}")
    b.emit(f"for {k} in range({b.extent(rows)}):")
    b.emit(f"    c = {tg}[{k}]")
    b.emit(f"    if c == {ignore}:")
    b.emit("        continue")
    scale = f"{go}[{k}]" if reduction == "none" else go
    if reduction == "mean":
        scale = f"{scale} / {total}"
    coefficient = "" if w is None else f" * {w}[c]"
    b.emit(f"    {result}[{k}, c] = {dtype}(-{scale}{coefficient})")
    b.define(out, b.reshaped(result, (rows, classes), out.shape))


# ------------------------------------------------------------------------------------- indexing

def _advanced_key(node, input_rank):
    """The parts of an index key as ("full", None) or ("array", value-or-array), if the key
    holds only full slices and integer arrays; else None."""
    key = node.params["key"]
    if len(key) > input_rank:
        return None
    parts = []
    for part in key:
        if isinstance(part, slice) and part == slice(None):
            parts.append(("full", None))
        elif isinstance(part, Operand):
            value = node.inputs[part.index]
            if value.dtype.kind not in "iu":
                return None
            parts.append(("array", value))
        elif isinstance(part, np.ndarray) and part.dtype.kind in "iu":
            parts.append(("array", part))
        else:
            return None
    parts += [("full", None)] * (input_rank - len(key))
    return parts


def _gather_plan(b, parts, source_shape):
    """Loop layout of an advanced index: output dims, and per source dim its index text."""
    arrays = [i for i, (kind, _) in enumerate(parts) if kind == "array"]
    shapes = [(_array_shape(part)) for kind, part in parts if kind == "array"]
    broadcast = np.broadcast_shapes(*shapes)
    adjacent = arrays == list(range(arrays[0], arrays[-1] + 1))
    out_dims = []  # (size, source dim or None for a broadcast index dim)
    if adjacent:
        for d in range(arrays[0]):
            out_dims.append((source_shape[d], d))
        out_dims += [(s, None) for s in broadcast]
        for d in range(arrays[-1] + 1, len(parts)):
            out_dims.append((source_shape[d], d))
    else:
        out_dims += [(s, None) for s in broadcast]
        out_dims += [(source_shape[d], d) for d, (kind, _) in enumerate(parts) if kind == "full"]
    loop = [b.fresh("g") for _ in out_dims]
    index_loops = [name for name, (_, d) in zip(loop, out_dims) if d is None]
    source_index = []
    for d, (kind, part) in enumerate(parts):
        if kind == "full":
            source_index.append(next(name for name, (_, sd) in zip(loop, out_dims) if sd == d))
            continue
        shape = _array_shape(part)
        name = b.param_array(part) if isinstance(part, np.ndarray) else b.contiguous(part)
        lead = len(broadcast) - len(shape)
        sub = [index_loops[lead + i] if s != 1 else "0" for i, s in enumerate(shape)]
        source_index.append(f"{name}[{', '.join(sub)}]" if sub else f"{name}[()]")
    return loop, out_dims, source_index


def _array_shape(part):
    return part.shape if isinstance(part, np.ndarray) else part.shape


def _open_plain_loops(b, loop, out_dims):
    for name, (size, _) in zip(loop, out_dims):
        b.emit(f"for {name} in range({b.extent(size)}):")
        b.indent += 1


@template("index", "index_select", "gather")
def _index(b, node):
    x, out = node.inputs[0], node.outputs[0]
    parts = _advanced_key(node, len(x.shape))
    if parts is None or not any(kind == "array" for kind, _ in parts):
        return False
    if b is None:
        return None
    source = b.array(x)
    b.define(out, f"np.empty({_shape(out.shape)}, {_dtype(out)})")
    loop, out_dims, source_index = _gather_plan(b, parts, x.shape)
    _open_plain_loops(b, loop, out_dims)
    wrapped = [f"M.wrap_index({s}, {x.shape[d]})" for d, s in enumerate(source_index)]
    target = f"{b.name(out)}[{', '.join(loop)}]" if loop else f"{b.name(out)}[()]"
    b.emit(f"{target} = {source}[{', '.join(wrapped)}]")
    b.indent -= len(loop)


@template("index_backward")
def _index_backward(b, node):
    grad, out = node.inputs[0], node.outputs[0]
    shape = node.params["shape"]
    key = _spelled_out(node.params["key"], len(shape))
    plain = tuple(p for p in key if p is not None)
    if not _holds(plain, Ellipsis) and _basic_key(plain) is not None and not _holds(key, None):
        if b is None:
            return None
        b.filled(b.name(out), shape, 0, out.dtype)
        b.layout[out] = "C"
        _write_at(b, b.name(out), _basic_key(plain), grad.shape, b.array(grad))
        return None
    parts = _advanced_key(node, len(shape))
    if parts is None or not any(kind == "array" for kind, _ in parts):
        return False
    if b is None:
        return None
    b.filled(b.name(out), shape, 0, out.dtype)
    b.layout[out] = "C"
    source = b.contiguous(grad)
    loop, out_dims, target_index = _gather_plan(b, parts, shape)
    _open_plain_loops(b, loop, out_dims)
    wrapped = [f"M.wrap_index({s}, {shape[d]})" for d, s in enumerate(target_index)]
    read = f"{source}[{', '.join(loop)}]" if loop else f"{source}[()]"
    b.emit(f"{b.name(out)}[{', '.join(wrapped)}] += {read}")
    b.indent -= len(loop)


@template("index_put", "copy_slices")
def _index_put(b, node):
    """``x[key] = value`` through a chain of basic views (``steps``: what ``x[1:, ..., 0]``
    parses to); keys with index tensors or strided regions run through numpy."""
    (x, value), out = node.inputs[:2], node.outputs[0]
    steps, advanced = node.params["key"]
    keys, shape = [], x.shape
    for kind, key, _ in steps:
        key = _spelled_out(key, len(shape)) if kind in ("select", "slice") else None
        if key is None or _holds(key, None) or _basic_key(key) is None:
            return False
        keys.append(_basic_key(key))
        shape = np.broadcast_to(np.empty((), bool), shape)[key].shape
    if advanced is not None or not keys or value.shape not in (shape, ()):
        return False
    if b is None:
        return None
    b.define(out, f"{b.array(x)}.copy()")
    target = b.name(out)
    for key in keys[:-1]:
        view = b.fresh("view")
        b.emit(f"{view} = {target}[{key}]")
        target = view
    if shape:  # the view, filled or overwritten
        view = b.fresh("view")
        b.emit(f"{view} = {target}[{keys[-1]}]")
        b.copy_into(view, shape, b.array(value), broadcast=not value.shape)
    else:      # one element
        b.emit(f"{target}[{keys[-1]}] = {b.array(value)}[()]")



# ------------------------------------------------------------------------------------- fallback

def _numba_type(b, value):
    """The name of a module-level Numba type for ``value`` (objmode needs a constant there)."""
    name = {"bool": "boolean"}.get(value.dtype.name, value.dtype.name)
    text = f"numba.types.Array(numba.{name}, {len(value.shape)}, 'C')"
    return b.module_constant(text)


def _emit_fallback(b, node):
    """Run the primitive's numpy forward inside the kernel (Numba's object mode)."""
    PRIMITIVES[node.op]  # an op outside the table fails here, naming itself
    key = f"{b.fallback_prefix}:{len(b.fallbacks)}"
    b.fallbacks[key] = (node.op, node.params)
    annotations = ", ".join(f"{b.name(v)}={_numba_type(b, v)}" for v in node.outputs)
    arguments = ", ".join([repr(key)] + [b.array(v) for v in node.inputs])
    outputs = ", ".join(b.name(v) for v in node.outputs)
    b.emit(f"with objmode({annotations}):  # {node.op}: no lowering, numpy runs it")
    b.emit(f"    {outputs}{',' if len(node.outputs) == 1 else ''} = F.call({arguments})")
    # Numba refuses annotating an output the kernel never reads (another of several outputs, or
    # a result the ``_effects`` kernel does not return)
    b.emit(f"{b.fresh('outputs')} = ({outputs}{',' if len(node.outputs) == 1 else ''})")
    for value in node.outputs:
        b.layout[value] = "C"
