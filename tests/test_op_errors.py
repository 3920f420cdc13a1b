"""Bad input: PyTorch's exception and message, and nothing half-done.

Every row of ``BAD_CALLS`` is compared with PyTorch (exception type and exact message) when torch
is installed; the key messages are also pinned as literals. Then each failing operation is run
against prepared tensors (a leaf with a ``.grad``, a non-leaf, plain and integer tensors) and must
leave all of them exactly as they were: values, ``_version``, ``grad_fn``, ``.grad`` and the graph
behind them.
"""
import warnings

import numpy as np
import pytest

import tapegrad


def _setitem(target, key, value):
    target[key] = value


def _backward_after_changing_a_saved_output(T):
    a = (T.ones(3, 2) + T.eye(3, 2)).requires_grad_()
    u, s, _ = T.linalg.svd(a, full_matrices=False)
    s.mul_(2)  # output 1 of LinalgSvdBackward0, which its rule needs
    (u.sum() + s.sum()).backward()


BAD_CALLS = {
    # broadcasting
    "add-broadcast": lambda T: T.ones(2, 3) + T.ones(4),
    "add-broadcast-3d": lambda T: T.ones(2, 3, 4) + T.ones(5, 1, 1),
    "mul-broadcast": lambda T: T.ones(3) * T.ones(2),
    "sub-broadcast": lambda T: T.ones(2, 1) - T.ones(3, 2),
    "div-broadcast": lambda T: T.ones(3) / T.ones(4),
    "pow-broadcast": lambda T: T.ones(3) ** T.ones(4),
    "maximum-broadcast": lambda T: T.maximum(T.ones(3), T.ones(4)),
    "maximum-number": lambda T: T.maximum(T.ones(3), 2.0),  # two tensors, unlike max()
    "minimum-number": lambda T: T.minimum(2, T.ones(3)),
    "fmax-number": lambda T: T.fmax(T.ones(3), 0),
    "where-broadcast": lambda T: T.where(T.ones(3) > 0, T.ones(4), T.ones(3)),
    "lt-broadcast": lambda T: T.ones(3) < T.ones(4),
    "eq-broadcast": lambda T: T.ones(3) == T.ones(2),
    "clamp-tensor-broadcast": lambda T: T.ones(3).clamp(min=T.zeros(2)),
    # empty reductions
    "amin-empty-negative-dim": lambda T: T.zeros(2, 0).amin(-1),
    "amax-empty-dims": lambda T: T.zeros(2, 0).amax((0, -1)),
    "max-empty-negative-dim": lambda T: T.zeros(2, 0).max(-1),
    # several views made by one operation
    "split-piece-inplace": lambda T: T.ones(4, 3, requires_grad=True).split(2)[0].mul_(2),
    "unbind-piece-inplace": lambda T: (T.ones(4, 3, requires_grad=True) * 1).unbind(1)[2].zero_(),
    "svd-saved-output-modified": _backward_after_changing_a_saved_output,
    # a number where a tensor belongs
    "exp-of-number": lambda T: T.exp(0.5),
    "tanh-of-number": lambda T: T.tanh(2),
    "neg-of-number": lambda T: T.neg(1.0),
    "sigmoid-of-number": lambda T: T.sigmoid(0.5),
    # matrix products
    "matmul-mm": lambda T: T.ones(3, 2) @ T.ones(4, 2),
    "mm": lambda T: T.mm(T.ones(3, 2), T.ones(4, 2)),
    "mm-not-matrix": lambda T: T.mm(T.ones(3), T.ones(3, 2)),
    "mv": lambda T: T.mv(T.ones(3, 2), T.ones(3)),
    "matmul-mv": lambda T: T.ones(3, 2) @ T.ones(3),
    "dot": lambda T: T.dot(T.ones(3), T.ones(4)),
    "matmul-dot": lambda T: T.ones(3) @ T.ones(4),
    "matmul-1d-2d": lambda T: T.ones(3) @ T.ones(4, 2),
    "matmul-3d-2d": lambda T: T.ones(2, 3, 4) @ T.ones(5, 2),
    "matmul-3d-3d": lambda T: T.ones(2, 3, 4) @ T.ones(2, 5, 2),
    "matmul-batch-broadcast": lambda T: T.ones(2, 3, 4) @ T.ones(3, 4, 2),
    "matmul-0d": lambda T: T.ones(()) @ T.ones(3),
    "bmm": lambda T: T.bmm(T.ones(2, 3, 4), T.ones(2, 5, 2)),
    "bmm-batch": lambda T: T.bmm(T.ones(2, 3, 4), T.ones(3, 4, 2)),
    "bmm-2d": lambda T: T.bmm(T.ones(3, 4), T.ones(2, 4, 2)),
    "addmm": lambda T: T.addmm(T.ones(3), T.ones(2, 3), T.ones(4, 3)),
    "addmm-bias": lambda T: T.addmm(T.ones(5), T.ones(2, 3), T.ones(3, 4)),
    # views and reshapes
    "reshape-size": lambda T: T.ones(2, 3).reshape(5),
    "reshape-infer": lambda T: T.ones(2, 3).reshape(-1, 4),
    "view-two-infer": lambda T: T.ones(2, 3).view(-1, -1),
    "view-size": lambda T: T.ones(2, 3).view(7),
    "view-noncontiguous": lambda T: T.ones(2, 3).t().view(6),
    "expand": lambda T: T.ones(2, 3).expand(4, 3),
    "expand-fewer": lambda T: T.ones(2, 3).expand(3),
    "t-3d": lambda T: T.ones(2, 3, 4).t(),
    "flatten-order": lambda T: T.ones(2, 3, 4).flatten(2, 1),
    # dimensions out of range
    "sum-dim": lambda T: T.ones(2, 3).sum(2),
    "sum-dim-neg": lambda T: T.ones(2, 3).sum(-3),
    "mean-dims-repeated": lambda T: T.ones(2, 3).mean((0, 0)),
    "max-dim": lambda T: T.ones(2, 3).max(3),
    "argmax-dim": lambda T: T.ones(2, 3).argmax(2),
    "softmax-dim": lambda T: T.ones(2, 3).softmax(2),
    "log_softmax-dim": lambda T: T.ones(3).log_softmax(1),
    "logsumexp-dim": lambda T: T.ones(3).logsumexp(1),
    "var-dim": lambda T: T.ones(3).var(1),
    "transpose-dim": lambda T: T.ones(2, 3).transpose(0, 5),
    "permute-length": lambda T: T.ones(2, 3).permute(0),
    "permute-repeat": lambda T: T.ones(2, 3).permute(0, 0),
    "unsqueeze-dim": lambda T: T.ones(2, 3).unsqueeze(4),
    "squeeze-dim": lambda T: T.ones(2, 3).squeeze(5),
    "cat-dim": lambda T: T.cat([T.ones(2), T.ones(2)], dim=1),
    "unbind-dim": lambda T: T.ones(2).unbind(1),
    "size-dim": lambda T: T.ones(2).size(1),
    # empty reductions, dtypes
    "max-empty": lambda T: T.ones(0).max(),
    "amax-empty": lambda T: T.ones(0).amax(),
    "max-empty-dim": lambda T: T.ones(0, 3).max(0),
    "argmax-empty": lambda T: T.ones(0).argmax(),
    "mean-int": lambda T: T.tensor([1, 2]).mean(),
    "neg-bool": lambda T: -T.tensor([True]),
    "sub-bool": lambda T: T.tensor([True]) - T.tensor([False]),
    "sub-one-bool": lambda T: T.ones(2) - T.tensor([True, False]),
    "pow-int-negative": lambda T: T.tensor([2]) ** -1,
    # indices out of range
    "index-int": lambda T: T.ones(4, 5)[4],
    "index-int-neg": lambda T: T.ones(4, 5)[-5],
    "index-second": lambda T: T.ones(4, 5)[1, 10],
    "index-array": lambda T: T.ones(4, 5)[T.tensor([0, 10])],
    "index-array-second": lambda T: T.ones(4, 5)[:, [7]],
    "index-too-many": lambda T: T.ones(4, 5)[0, 0, 0],
    "index-mask": lambda T: T.ones(4, 5)[T.tensor([True, False, True])],
    "index-float-tensor": lambda T: T.ones(4, 5)[T.tensor([1.0])],
    "index-python-float": lambda T: T.ones(4)[1.5],
    "index-0d": lambda T: T.tensor(1.0)[0],
    "index-negative-step": lambda T: T.ones(4)[::-1],
    "gather-index": lambda T: T.ones(2, 3).gather(1, T.tensor([[0], [5]])),
    "gather-negative-index": lambda T: T.ones(2, 3).gather(1, T.tensor([[-1]])),
    "gather-ndim": lambda T: T.ones(2, 3).gather(1, T.tensor([0])),
    "gather-size": lambda T: T.ones(2, 3).gather(1, T.tensor([[0], [0], [0]])),
    "gather-float-index": lambda T: T.ones(2, 3).gather(1, T.tensor([[0.0]])),
    "gather-dim": lambda T: T.ones(2, 3).gather(2, T.tensor([[0]])),
    "index_select": lambda T: T.ones(2, 3).index_select(0, T.tensor([3])),
    "index_select-negative": lambda T: T.ones(2, 3).index_select(0, T.tensor([-1])),
    "index_select-matrix": lambda T: T.ones(2, 3).index_select(0, T.tensor([[0]])),
    "narrow": lambda T: T.ones(2, 3).narrow(1, 2, 2),
    "narrow-start": lambda T: T.ones(2, 3).narrow(1, -4, 1),
    "narrow-length": lambda T: T.ones(2, 3).narrow(1, 0, -1),
    # joining and splitting
    "cat-size": lambda T: T.cat([T.ones(2, 3), T.ones(2, 4)]),
    "cat-size-dim1": lambda T: T.cat([T.ones(2, 3), T.ones(3, 3)], dim=1),
    "cat-dims": lambda T: T.cat([T.ones(2, 3), T.ones(3)]),
    "cat-empty": lambda T: T.cat([]),
    "stack-size": lambda T: T.stack([T.ones(2, 3), T.ones(3, 2)]),
    "stack-third": lambda T: T.stack([T.ones(2), T.ones(2), T.ones(3)]),
    "stack-empty": lambda T: T.stack([]),
    "split-sizes": lambda T: T.ones(5).split([2, 2]),
    "chunk-zero": lambda T: T.ones(5).chunk(0),
    # in place
    "add_-larger-broadcast": lambda T: T.ones(3).add_(T.ones(2, 3)),
    "add_-mismatch": lambda T: T.ones(3).add_(T.ones(4)),
    "mul_-mismatch": lambda T: T.ones(2, 3).mul_(T.ones(2)),
    "add_-alpha-larger-broadcast": lambda T: T.ones(3).add_(T.ones(2, 3), alpha=0.5),
    "sub_-alpha-mismatch": lambda T: T.ones(50_000).sub_(T.ones(4), alpha=2),
    "add-alpha-1d-tensor": lambda T: T.add(T.ones(2), T.ones(2), alpha=T.tensor([2.0])),
    "sub_-alpha-tensor-requiring-grad": lambda T: T.ones(2).sub_(
        T.ones(2), alpha=T.tensor(2.0, requires_grad=True)),
    "add_-alpha-int-float": lambda T: T.ones(50_000, dtype=T.int64).add_(T.ones(50_000),
                                                                          alpha=2),
    "masked_fill_-larger-broadcast": lambda T: T.ones(3).masked_fill_(
        T.ones(2, 3, dtype=T.bool), 1.0),
    "add_-int-float": lambda T: T.tensor([1, 2]).add_(1.5),
    "add_-int-float-tensor": lambda T: T.tensor([1, 2]).add_(T.ones(2)),
    "div_-int": lambda T: T.tensor([1, 2]).div_(2),
    "pow_-int-negative": lambda T: T.tensor([2]).pow_(-1),
    "copy_-shape": lambda T: T.ones(3).copy_(T.ones(4)),
    "fill_-1d": lambda T: T.ones(3).fill_(T.ones(2)),
    "clamp-none": lambda T: T.ones(3).clamp(),
    "clamp_-none": lambda T: T.ones(3).clamp_(),
    "setitem-shape": lambda T: _setitem(T.ones(4, 5), (slice(None), slice(1, 3)), T.ones(3)),
    "setitem-index-shape": lambda T: _setitem(T.ones(4, 5), T.tensor([0, 1]), T.ones(3)),
    "setitem-oob": lambda T: _setitem(T.ones(4), T.tensor([0, 10]), 1.0),
    "setitem-int-oob": lambda T: _setitem(T.ones(4, 2), (1, 5), 1.0),
    "setitem-mask": lambda T: _setitem(T.ones(4), T.tensor([True, False]), 1.0),
    "leaf-inplace": lambda T: T.ones(3, requires_grad=True).add_(1),
    "view-of-leaf-inplace": lambda T: T.ones(3, requires_grad=True)[:2].mul_(2),
    # autograd entry points
    "backward-nonscalar": lambda T: (T.ones(3, requires_grad=True) * 2).backward(),
    "backward-no-grad": lambda T: T.ones(3).sum().backward(),
    "item-many": lambda T: T.ones(2).item(),
    "bool-many": lambda T: bool(T.ones(2)),
    # products of mixed dtypes: each op's own message, in its own order of checks
    "mm-dtypes": lambda T: T.mm(T.ones(2, 3), T.ones(3, 2, dtype=T.float64)),
    "mm-dtypes-long": lambda T: T.mm(T.ones(2, 3, dtype=T.float64), T.ones(3, 2, dtype=T.int64)),
    "mm-dtypes-half": lambda T: T.mm(T.ones(2, 3), T.ones(3, 2, dtype=T.float16)),
    "mm-sizes-before-dtypes": lambda T: T.mm(T.ones(2, 3), T.ones(2, 3, dtype=T.float64)),
    "matmul-dtypes-operator": lambda T: T.ones(2, 3) @ T.ones(3, 2, dtype=T.float64),
    "matmul-dtypes-1d-1d": lambda T: T.matmul(T.ones(3), T.ones(3, dtype=T.float64)),
    "matmul-dtypes-1d-2d": lambda T: T.matmul(T.ones(3), T.ones(3, 2, dtype=T.float64)),
    "matmul-dtypes-2d-1d": lambda T: T.matmul(T.ones(2, 3), T.ones(3, dtype=T.float64)),
    "matmul-dtypes-3d-3d": lambda T: T.matmul(T.ones(4, 2, 3), T.ones(4, 3, 2, dtype=T.float64)),
    "matmul-dtypes-3d-2d": lambda T: T.matmul(T.ones(4, 2, 3), T.ones(3, 2, dtype=T.float64)),
    "matmul-dtypes-2d-3d": lambda T: T.matmul(T.ones(2, 3), T.ones(4, 3, 2, dtype=T.float64)),
    "matmul-dtypes-3d-1d": lambda T: T.matmul(T.ones(4, 2, 3), T.ones(3, dtype=T.float64)),
    "matmul-dtypes-folded": lambda T: T.matmul(T.ones(3, requires_grad=True),
                                               T.ones(4, 3, 2, dtype=T.float64)),
    "matmul-dtypes-int": lambda T: T.matmul(T.ones(2, 3, dtype=T.int64), T.ones(3, 2)),
    "matmul-number": lambda T: T.matmul(T.ones(2, 2), 2),
    "matmul-operator-number": lambda T: T.ones(2, 2) @ 2,
    "bmm-dtypes": lambda T: T.bmm(T.ones(4, 2, 3, dtype=T.float64), T.ones(4, 3, 2)),
    "mv-dtypes": lambda T: T.mv(T.ones(2, 3), T.ones(3, dtype=T.float64)),
    "mv-matrix-vec": lambda T: T.mv(T.ones(2, 3), T.ones(3, 1)),
    "dot-dtypes": lambda T: T.dot(T.ones(3, dtype=T.float64), T.ones(3)),
    "dot-dtypes-before-sizes": lambda T: T.dot(T.ones(3), T.ones(2, dtype=T.float64)),
    "dot-2d": lambda T: T.dot(T.ones(3, 1), T.ones(3)),
    "inner-dtypes": lambda T: T.inner(T.ones(3), T.ones(3, dtype=T.float64)),
    "addmm-dtypes": lambda T: T.addmm(T.ones(2, 2), T.ones(2, 3), T.ones(3, 2, dtype=T.float64)),
    "addmm-mat1-dtype": lambda T: T.addmm(T.ones(2, 2), T.ones(2, 3, dtype=T.float64),
                                          T.ones(3, 2)),
    "baddbmm-dtypes": lambda T: T.baddbmm(T.ones(2, 2, 2), T.ones(2, 2, 3),
                                          T.ones(2, 3, 2, dtype=T.float64)),
    "baddbmm-input-dtype": lambda T: T.baddbmm(T.ones(2, 2, 2, dtype=T.float64),
                                               T.ones(2, 2, 3), T.ones(2, 3, 2)),
    # expand names the dimension it checks first: the last
    "expand-last-dim": lambda T: T.ones(2, 2).expand(3, 3),
    "expand-new-dims": lambda T: T.ones(2, 3).expand(4, 5, 6),
    "expand-before-leading-minus-one": lambda T: T.ones(2, 1).expand(-1, 4, 3),
    "expand-leading-minus-one": lambda T: T.ones(2, 1).expand(-1, 2, 3),
    # Python numbers from tensors
    "int-many": lambda T: int(T.ones(2)),
    "float-many": lambda T: float(T.ones(2)),
    "float-empty": lambda T: float(T.ones(0)),
    "bool-empty": lambda T: bool(T.ones(0)),
    "item-empty": lambda T: T.ones(0).item(),
    # views by index and by strides
    "select-index": lambda T: T.ones(2, 4).select(1, 4),
    "select-negative-index": lambda T: T.select(T.ones(2, 4), 1, -5),
    "select-dim": lambda T: T.ones(2, 4).select(2, 0),
    "select-0d": lambda T: T.tensor(1.0).select(0, 0),
    "select-float-index": lambda T: T.ones(2, 4).select(0, 1.5),
    "unfold-size": lambda T: T.ones(8).unfold(0, 9, 1),
    "unfold-negative-size": lambda T: T.ones(8).unfold(0, -1, 1),
    "unfold-step": lambda T: T.ones(8).unfold(0, 2, 0),
    "unfold-dim": lambda T: T.ones(8).unfold(1, 2, 1),
    "unfold-0d-size": lambda T: T.tensor(3.0).unfold(0, 2, 1),
    "as_strided-bounds": lambda T: T.ones(8).as_strided((3, 4), (2, 2)),
    "as_strided-offset-bounds": lambda T: T.as_strided(T.ones(8), (3, 4), (2, 1), 1),
    "as_strided-view-bounds": lambda T: T.ones(8)[4:].as_strided((3,), (2,)),
    "as_strided-negative-stride": lambda T: T.ones(8).as_strided((2,), (-1,)),
    "as_strided-lengths": lambda T: T.ones(8).as_strided((2, 2), (1,)),
    "as_strided-negative-offset": lambda T: T.ones(8).as_strided((2,), (1,), -1),
    "as_strided-negative-size": lambda T: T.ones(8).as_strided((-2,), (1,)),
    # out=
    "out-requires-grad": lambda T: T.mul(T.ones(2, requires_grad=True), 2, out=T.empty(2)),
    "out-itself-requires-grad": lambda T: T.exp(T.ones(2), out=T.empty(2, requires_grad=True)),
    "out-alias-names-the-op": lambda T: T.multiply(T.ones(2, requires_grad=True), 2,
                                                   out=T.empty(2)),
    "out-matmul-requires-grad": lambda T: T.matmul(T.ones(2, 2, requires_grad=True), T.ones(2, 2),
                                                   out=T.empty(2, 2)),
    "out-cat-requires-grad": lambda T: T.cat([T.ones(2, requires_grad=True), T.ones(2)],
                                             out=T.empty(4)),
    "out-sum-requires-grad": lambda T: T.sum(T.ones(2, 2, requires_grad=True), 0, out=T.empty(2)),
    "out-float-into-long": lambda T: T.mul(T.ones(2), 2, out=T.empty(2, dtype=T.int64)),
    "out-long-into-bool": lambda T: T.add(T.ones(2, dtype=T.int64), 1,
                                          out=T.empty(2, dtype=T.bool)),
    "out-mean-into-long": lambda T: T.mean(T.ones(2, 2), 0, out=T.empty(2, dtype=T.int64)),
    # movedim
    "movedim-lengths": lambda T: T.zeros(2, 3, 4).movedim((0, 1), (2,)),
    "movedim-repeated-source": lambda T: T.zeros(2, 3, 4).movedim((0, -3), (1, 2)),
    "movedim-repeated-destination": lambda T: T.zeros(2, 3, 4).movedim((0, 1), (-1, 2)),
    "movedim-dim": lambda T: T.zeros(2, 3, 4).movedim(3, 0),
    # sizes that do not fit
    "unflatten-sizes": lambda T: T.ones(2, 12).unflatten(1, (5, -1)),
    "unflatten-sizes-known": lambda T: T.ones(2, 12).unflatten(-1, (5, 3)),
    "unflatten-sizes-zero": lambda T: T.ones(2, 12).unflatten(1, (0, -1)),
    "unflatten-no-sizes": lambda T: T.ones(2, 12).unflatten(1, ()),
    "masked_select-broadcast": lambda T: T.ones(2, 3).masked_select(T.tensor([True, False])),
    "masked_select-broadcast-mask-larger": lambda T: T.masked_select(T.ones(2),
                                                                     T.ones(3, 3) > 0),
    "einsum-subscript-size": lambda T: T.einsum("ij,jk->ik", T.ones(3, 3), T.ones(2, 2)),
    "einsum-subscript-size-same-labels": lambda T: T.einsum("ij,ij->ij", T.ones(3, 3),
                                                            T.ones(3, 2)),
    "einsum-repeated-subscript-size": lambda T: T.einsum("ii->i", T.ones(3, 2)),
    # integer division by zero (float division gives inf or nan)
    "floordiv-int-zero": lambda T: T.tensor([1, 2, 3]) // 0,
    "remainder-int-zero": lambda T: T.tensor([1, 2, 3]) % 0,
    "div-trunc-int-zero": lambda T: T.div(T.tensor([1, 2, 3]), 0, rounding_mode="trunc"),
    "div-floor-int-zero": lambda T: T.div(T.tensor([1, 2, 3]), 0, rounding_mode="floor"),
    "floordiv-int-tensor-with-a-zero": lambda T: T.tensor([1, 2, 3]) // T.tensor([1, 0, 1]),
    "rfloordiv-int-zero": lambda T: 5 // T.tensor([0, 1]),
    "remainder-number-by-int-zero": lambda T: T.remainder(5, T.tensor([0])),
    "floor_divide-out-int-zero": lambda T: T.floor_divide(T.tensor([1]), 0,
                                                          out=T.empty(1, dtype=T.int64)),
}

LITERAL_MESSAGES = {
    "add-broadcast": "The size of tensor a (3) must match the size of tensor b (4) at "
                     "non-singleton dimension 1",
    "matmul-mm": "mat1 and mat2 shapes cannot be multiplied (3x2 and 4x2)",
    "matmul-3d-2d": "mat1 and mat2 shapes cannot be multiplied (6x4 and 5x2)",
    "reshape-size": "shape '[5]' is invalid for input of size 6",
    "view-two-infer": "only one dimension can be inferred",
    "view-noncontiguous": "view size is not compatible with input tensor's size and stride (at "
                          "least one dimension spans across two contiguous subspaces). Use "
                          ".reshape(...) instead.",
    "sum-dim": "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    "index-second": "index 10 is out of bounds for dimension 1 with size 5",
    "index-too-many": "too many indices for tensor of dimension 2",
    "cat-size": "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 "
                "for tensor number 1 in the list.",
    "stack-size": "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and "
                  "[3, 2] at entry 1",
    "add_-larger-broadcast": "output with shape [3] doesn't match the broadcast shape [2, 3]",
    "add_-int-float": "result type Float can't be cast to the desired output type Long",
    "setitem-index-shape": "shape mismatch: value tensor of shape [3] cannot be broadcast to "
                           "indexing result of shape [2, 5]",
    "leaf-inplace": "a leaf Variable that requires grad is being used in an in-place operation.",
    "backward-nonscalar": "grad can be implicitly created only for scalar outputs",
    "mm-dtypes": "expected m1 and m2 to have the same dtype, but got: float != double",
    "expand-last-dim": "The expanded size of the tensor (3) must match the existing size (2) at "
                       "non-singleton dimension 1.  Target sizes: [3, 3].  Tensor sizes: [2, 2]",
    "int-many": "only one element tensors can be converted to Python scalars",
    "out-requires-grad": "mul(): functions with out=... arguments don't support automatic "
                         "differentiation, but one of the arguments requires grad.",
    "out-float-into-long": "result type Float can't be cast to the desired output type Long",
    "floordiv-int-zero": "ZeroDivisionError",
    "unflatten-sizes": "unflatten: Provided sizes [5, -1] don't multiply up to the size of dim 1 "
                       "(12) in the input tensor",
    "masked_select-broadcast": "The size of tensor a (2) must match the size of tensor b (3) at "
                               "non-singleton dimension 1",
    "einsum-subscript-size": "einsum(): subscript j has size 2 for operand 1 which does not "
                             "broadcast with previously seen size 3",
}


def raised(fn, T):
    """(exception type name, message) of ``fn(T)``, which must raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as info:
            fn(T)
    return type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("name", BAD_CALLS)
def test_error_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert raised(BAD_CALLS[name], tapegrad) == raised(BAD_CALLS[name], torch)


@pytest.mark.parametrize("name", LITERAL_MESSAGES)
def test_error_message(name):
    assert raised(BAD_CALLS[name], tapegrad)[1] == LITERAL_MESSAGES[name]


# --------------------------------------------------------------------- nothing half-done

class Workbench:
    """Tensors in every autograd role (of library ``T``), to run failing operations against."""

    def __init__(self, T):
        self.leaf = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        (self.leaf * 3).sum().backward()  # the leaf has a .grad of 3s
        self.nonleaf = self.leaf * 2
        self.plain = T.arange(6.0).reshape(2, 3)
        self.ints = T.tensor([1, 2, 3])
        self.tensors = {"leaf": self.leaf, "nonleaf": self.nonleaf, "plain": self.plain,
                        "ints": self.ints}

    def snapshot(self):
        return {name: _state(t) for name, t in self.tensors.items()}


def _state(t):
    grad = t._grad  # read directly: .grad of a non-leaf warns
    return {"values": t._array.copy(), "version": t._version, "grad_fn": t.grad_fn,
            "grad": None if grad is None else grad._array.copy(), "requires_grad": t.requires_grad,
            "shape": tuple(t.shape), "dtype": t.dtype}


def _assert_same_state(before, after):
    for name in before:
        for field in before[name]:
            old, new = before[name][field], after[name][field]
            if isinstance(old, np.ndarray):
                np.testing.assert_array_equal(new, old, err_msg=f"{name}.{field}")
            elif field == "grad_fn":
                assert new is old, f"{name}.grad_fn changed"
            else:
                assert new == old, f"{name}.{field}: {old} -> {new}"


FAILING_OPS = {  # fn(T, bench) -> raises; must leave every tensor of the bench unchanged
    "add-broadcast": lambda T, b: b.leaf + T.ones(4),
    "matmul": lambda T, b: b.nonleaf @ T.ones(4, 2),
    "cat": lambda T, b: T.cat([b.leaf, T.ones(2, 4)]),
    "stack": lambda T, b: T.stack([b.nonleaf, b.plain.t()]),
    "view": lambda T, b: b.nonleaf.view(7),
    "index": lambda T, b: b.nonleaf[5],
    "nonleaf.add_-mismatch": lambda T, b: b.nonleaf.add_(T.ones(4)),
    "nonleaf.add_-larger": lambda T, b: b.nonleaf.add_(T.ones(2, 2, 3)),
    "nonleaf.mul_-requires-grad-other": lambda T, b: b.nonleaf.mul_(b.leaf[:, :2]),
    "nonleaf.sub_-alpha-mismatch": lambda T, b: b.nonleaf.sub_(T.ones(2), alpha=2),
    "nonleaf.sub_-bool": lambda T, b: b.nonleaf.sub_(T.tensor([True, False, True])),
    "nonleaf.pow_-mismatch": lambda T, b: b.nonleaf.pow_(T.ones(5)),
    "nonleaf.clamp_-nothing": lambda T, b: b.nonleaf.clamp_(),
    "nonleaf.copy_-mismatch": lambda T, b: b.nonleaf.copy_(T.ones(5)),
    "nonleaf.fill_-vector": lambda T, b: b.nonleaf.fill_(T.ones(2)),
    "nonleaf.setitem-shape": lambda T, b: _setitem(b.nonleaf, (slice(None), 0), T.ones(3)),
    "nonleaf.setitem-index-shape": lambda T, b: _setitem(b.nonleaf, T.tensor([0]), T.ones(4)),
    "nonleaf.setitem-oob": lambda T, b: _setitem(b.nonleaf, T.tensor([0, 9]), 1.0),
    "nonleaf.setitem-mask": lambda T, b: _setitem(b.nonleaf, T.tensor([True]), 1.0),
    "nonleaf.setitem-grad-value": lambda T, b: _setitem(b.nonleaf, 0, b.leaf),
    "plain.iadd-mismatch": lambda T, b: b.plain.__iadd__(T.ones(3, 3)),
    "plain.setitem-int-oob": lambda T, b: _setitem(b.plain, (0, 7), 1.0),
    "leaf.add_": lambda T, b: b.leaf.add_(1),
    "leaf.setitem": lambda T, b: _setitem(b.leaf, 0, 1.0),
    "leaf-view.mul_": lambda T, b: b.leaf[0].mul_(2),
    "ints.add_-float": lambda T, b: b.ints.add_(1.5),
    "ints.div_": lambda T, b: b.ints.div_(2),
    "ints.pow_-negative": lambda T, b: b.ints.pow_(-1),
    "ints.setitem-oob": lambda T, b: _setitem(b.ints, 3, 0),
    "mm-dtypes": lambda T, b: T.mm(b.nonleaf, b.plain.double().t()),
    "as_strided-bounds": lambda T, b: b.leaf.as_strided((3, 3), (3, 1)),
    "out-requires-grad": lambda T, b: T.mul(b.leaf, 2, out=b.plain),
    "out-is-a-leaf": lambda T, b: T.exp(b.plain, out=b.leaf),
    "out-float-into-long": lambda T, b: T.mul(b.plain, 2, out=b.ints),
    "ints.floordiv-zero-out": lambda T, b: T.floor_divide(b.ints, 0, out=b.ints),
}
ERRORS = (RuntimeError, IndexError, ValueError, TypeError)


@pytest.mark.parametrize("name", FAILING_OPS)
def test_failed_op_leaves_every_tensor_unchanged(name):
    bench = Workbench(tapegrad)
    before = bench.snapshot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ERRORS):
            FAILING_OPS[name](tapegrad, bench)
    _assert_same_state(before, bench.snapshot())
    # The graph behind the non-leaf still works: d(sum(2 * leaf))/d(leaf) adds 2 to the 3s.
    bench.nonleaf.sum().backward()
    np.testing.assert_array_equal(bench.leaf.grad.numpy(), np.full((2, 3), 5.0))


@pytest.mark.parametrize("name", FAILING_OPS)
def test_failing_op_also_fails_in_torch(name):
    """The rows really are errors in PyTorch too (and leave its version counters alone)."""
    torch = pytest.importorskip("torch")
    bench = Workbench(torch)
    with pytest.raises(ERRORS):
        FAILING_OPS[name](torch, bench)
    assert bench.nonleaf._version == 0 and bench.plain._version == 0


def test_failed_backward_leaves_grads_and_graph_usable():
    x = tapegrad.ones(3, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        y.backward()
    assert x.grad is None
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_a_zero_dim_tensor_alpha_is_a_number():
    """PyTorch reads a 0-d tensor ``alpha`` as its value (the tensor-lr optimizer idiom)."""
    a, b = tapegrad.tensor([1.0, 2.0]), tapegrad.tensor([3.0, -1.0])
    alpha = tapegrad.tensor(0.5)
    assert tapegrad.add(a, b, alpha=alpha).tolist() == [2.5, 1.5]
    assert tapegrad.sub(a, b, alpha=alpha).tolist() == [-0.5, 2.5]
    a.add_(b, alpha=alpha)
    assert a.tolist() == [2.5, 1.5]
    a.sub_(b, alpha=alpha)
    assert a.tolist() == [1.0, 2.0]
