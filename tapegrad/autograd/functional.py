"""``torch.autograd.functional``: Jacobians, Hessians and their products with vectors, for
functions of tensors.

Everything is built on reverse mode (``autograd.grad``). Forward-mode products (``jvp``, ``hvp``,
``strategy="forward-mode"`` Jacobians) use the double-vjp trick: the vjp ``u ↦ uᵀJ`` is linear in
``u``, so differentiating it with respect to ``u`` in the direction ``v`` gives ``J v`` (at any
``u``: see ``transpose_point``). Inputs and outputs keep PyTorch's structure: a tuple in gives a
tuple out, a tensor in gives a tensor out (forward-mode Jacobians give lists, as PyTorch's do).
"""
import numpy as np

from .. import ops
from ..tensor import Tensor
from . import forward_ad, grad_mode
from .engine import grad as autograd_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


def transpose_point(like):
    """The dummy cotangent ``u`` of the double-vjp trick: ones that require grad. The vjp is
    linear in ``u``, so any point gives ``J v``; zero is the one to avoid, because a rule that
    splits its cotangent by sign (a sum in log space, as logcumsumexp's) has its kink there and
    would give a zero derivative."""
    return Tensor._make(np.ones_like(like._array)).requires_grad_(True)


# -- argument handling ----------------------------------------------------------------------------
def _as_tuple(value, arg_name, fn_name):
    """``(was_a_tuple, tuple_of_tensors)``, with PyTorch's error for anything else."""
    was_tuple = isinstance(value, tuple)
    values = value if was_tuple else (value,)
    for index, element in enumerate(values):
        if not isinstance(element, Tensor):
            where = (f"the value at index {index} has type {type(element)}" if was_tuple
                     else f"the given {arg_name} has type {type(element)}")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but {where}.")
    return was_tuple, values


def _unpack(result, was_tuple):
    return result if was_tuple else result[0]


def _unpack_blocks(blocks, outputs_were_tuple, inputs_were_tuple):
    """A tuple (per output) of tuples (per input) of blocks, unpacked where PyTorch unpacks."""
    if not inputs_were_tuple:
        blocks = tuple(row[0] for row in blocks)
    return _unpack(blocks, outputs_were_tuple)


def _prepare(tensors, create_graph, need_graph):
    """Fresh leaves to differentiate with respect to; under ``create_graph`` an input that
    requires grad stays connected to its own history (through a view), so the result can be
    differentiated further with respect to it."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad
                 else t.detach().requires_grad_(need_graph) for t in tensors)


def _finish(tensors, create_graph):
    """Detach results unless the caller asked for a graph through them."""
    if isinstance(tensors[0], Tensor):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(_finish(group, create_graph) for group in tensors)


def _check_v(v, other, other_was_tuple):
    if len(other) != len(v):
        if other_was_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (v_element, reference) in enumerate(zip(v, other)):
        if v_element.size() != reference.size():
            prefix = f"Entry {index} in " if other_was_tuple else ""
            raise RuntimeError(f"{prefix}v has invalid size: should be {reference.size()} but got "
                               f"{v_element.size()}.")


def _prepare_v(v, fn_name, create_graph, against, against_was_tuple, none_message):
    """``v`` as a tuple checked against ``against``; ``None`` only when that is one element."""
    if v is None:
        if len(against) != 1 or against[0].nelement() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _prepare(v, create_graph, need_graph=False)
    _check_v(v, against, against_was_tuple)
    return v


_V_NONE_FOR_INPUT = ("The vector v can only be None if the input to the user-provided function "
                     "is a single Tensor with a single element.")

_NOT_INDEPENDENT = {
    "outputs": ("Output {i} of the user-provided function does not require gradients. The "
                "outputs must be computed in a differentiable manner from the input when running "
                "in strict mode."),
    "grad_inputs": ("The gradient with respect to input {i} is independent of the inputs of the "
                    "user-provided function. This is not allowed in strict mode."),
    "jacobian": ("While computing the hessian, found that the jacobian of the user-provided "
                 "function with respect to input {i} is independent of the input. This is not "
                 "allowed in strict mode. You should ensure that your function is twice "
                 "differentiable and that the jacobian depends on the inputs (this would be "
                 "violated by a linear function for example)."),
    "hessian": ("The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is thrice differentiable and that the hessian depends on the "
                "inputs."),
}


def _check_requires_grad(tensors, kind, strict):
    """In strict mode, every tensor must exist and depend on the inputs."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_NOT_INDEPENDENT[kind].format(i=i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs needing no grad and gives ``None`` for unused
    inputs."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(out, g) for out, g in zip(outputs, grad_outputs)
            if out is not None and out.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return autograd_grad([out for out, _ in kept], inputs, [g for _, g in kept],
                         retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)


_MISSING = {
    "back": ("The output of the user-provided function is independent of input {i}. This is not "
             "allowed in strict mode."),
    "back_trick": ("The gradient with respect to the input is independent of entry {i} in the "
                   "grad_outputs when using the double backward trick to compute forward mode "
                   "gradients. This is not allowed in strict mode."),
    "double_back": ("The jacobian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode."),
    "double_back_trick": ("The hessian of the user-provided function is independent of entry {i} "
                          "in the grad_jacobian. This is not allowed in strict mode as it "
                          "prevents from using the double backward trick to replace forward mode "
                          "AD."),
}


def _fill_in_zeros(grads, references, strict, create_graph, stage):
    """Zeros in place of missing gradients (an error instead, in strict mode)."""
    result = []
    for i, (g, reference) in enumerate(zip(grads, references)):
        if g is None:
            if strict:
                raise RuntimeError(_MISSING[stage].format(i=i))
            g = ops.zeros_like(reference)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        result.append(g)
    return tuple(result)


def _outer_grad_mode(create_graph):
    """The final differentiation records a graph only if asked to (or if grad mode is on)."""
    return grad_mode.set_grad_enabled(bool(create_graph) or grad_mode.is_grad_enabled())


def _call_scalar_function(func, inputs, fn_name, strict):
    """``func(*inputs)``, which must be one single-element tensor (for Hessian products)."""
    outputs = func(*inputs)
    was_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    if was_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")
    return outputs


# -- products -------------------------------------------------------------------------------------
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ J)``."""
    with grad_mode.enable_grad():
        inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _as_tuple(func(*inputs),
                                                "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(v, "vjp", create_graph, outputs, outputs_were_tuple,
                       "The vector v can only be None if the user-provided function returns a "
                       "single Tensor with a single element.")
    with _outer_grad_mode(create_graph):
        products = _fill_in_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict,
                                  create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), outputs_were_tuple),
            _unpack(_finish(products, create_graph), inputs_were_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``, by the double-vjp trick."""
    with grad_mode.enable_grad():
        inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, "jvp", create_graph, inputs, inputs_were_tuple, _V_NONE_FOR_INPUT)
        outputs_were_tuple, outputs = _as_tuple(func(*inputs),
                                                "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        dummy = tuple(transpose_point(out) for out in outputs)
        grad_inputs = _grad(outputs, inputs, dummy, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with _outer_grad_mode(create_graph):
        products = _fill_in_zeros(_grad(grad_inputs, dummy, v, create_graph), outputs, strict,
                                  create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_were_tuple),
            _unpack(_finish(products, create_graph), outputs_were_tuple))


def _hessian_products(fn_name, func, inputs, v, create_graph, strict):
    """The shared start of ``vhp`` and ``hvp``: prepared inputs and ``v``, the output, and the
    gradient built with a graph so it can be differentiated again."""
    inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _prepare(inputs, create_graph, need_graph=True)
    v = _prepare_v(v, fn_name, create_graph, inputs, inputs_were_tuple, _V_NONE_FOR_INPUT)
    outputs = _call_scalar_function(func, inputs, fn_name, strict)
    gradient = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(gradient, "jacobian", strict)
    return inputs_were_tuple, inputs, v, outputs, gradient


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ H)`` for a scalar function."""
    with grad_mode.enable_grad():
        inputs_were_tuple, inputs, v, outputs, gradient = _hessian_products(
            "vhp", func, inputs, v, create_graph, strict)
    with _outer_grad_mode(create_graph):
        products = _fill_in_zeros(_grad(gradient, inputs, v, create_graph), inputs, strict,
                                  create_graph, "double_back")
    return (_finish(outputs, create_graph)[0],
            _unpack(_finish(products, create_graph), inputs_were_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar function, by the double-vjp trick (equal to ``vhp``
    for the symmetric Hessians of twice continuously differentiable functions)."""
    with grad_mode.enable_grad():
        inputs_were_tuple, inputs, v, outputs, gradient = _hessian_products(
            "hvp", func, inputs, v, create_graph, strict)
        dummy = tuple(transpose_point(t) for t in inputs)
        double_back = _grad(gradient, inputs, dummy, create_graph=True)
        _check_requires_grad(gradient, "hessian", strict)
    with _outer_grad_mode(create_graph):
        products = _fill_in_zeros(_grad(double_back, dummy, v, create_graph), inputs, strict,
                                  create_graph, "double_back_trick")
    return (_finish(outputs, create_graph)[0],
            _unpack(_finish(products, create_graph), inputs_were_tuple))


# -- full matrices --------------------------------------------------------------------------------
def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """``J[i][j]`` of shape ``outputs[i].shape + inputs[j].shape``, one reverse pass per output
    element (or, with ``strategy="forward-mode"``, one per input element).
    ``vectorize=True`` gives the same values (tapegrad has no batched passes to make it faster)
    with PyTorch's rules: no ``strict``, zeros for unused inputs."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             'Hint: If your function has more outputs than inputs, '
                             '"forward-mode" tends to be more performant. Otherwise, prefer to '
                             'use "reverse-mode".')
    if strategy == "forward-mode":
        return _jacobian_forward_mode(func, inputs, create_graph, strict, vectorize)
    with grad_mode.enable_grad():
        inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _as_tuple(
            func(*inputs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               "`vectorized=True` are not supported together. Please either set "
                               "`strict=False` or `vectorize=False`.")
        blocks = tuple(_jacobian_of_output(i, out, inputs, create_graph, strict)
                       for i, out in enumerate(outputs))
    return _unpack_blocks(_finish(blocks, create_graph), outputs_were_tuple, inputs_were_tuple)


def _jacobian_of_output(index, output, inputs, create_graph, strict):
    """The Jacobian blocks of one output with respect to every input, row by row."""
    rows = tuple([] for _ in inputs)
    flat = output.reshape(-1)
    for element in range(output.nelement()):
        row = _grad((flat[element],), inputs, retain_graph=True, create_graph=create_graph)
        for input_index, (g, reference) in enumerate(zip(row, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {index} of the user-provided function is "
                                       f"independent of input {input_index}. This is not allowed "
                                       "in strict mode.")
                g = ops.zeros_like(reference)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError("The jacobian of the user-provided function is independent of "
                                   f"input {index}. This is not allowed in strict mode when "
                                   "create_graph=True.")
            rows[input_index].append(g)
    return tuple(ops.stack(block, dim=0).view(output.size() + reference.size()) if block
                 else ops.zeros(output.size() + reference.size(), dtype=reference.dtype)
                 for block, reference in zip(rows, inputs))


def _jacobian_forward_mode(func, inputs, create_graph, strict, vectorize, keep_graph=False):
    """The Jacobian one column ``J e`` per input element, by the double-vjp trick on a single
    call of ``func`` (PyTorch calls it once too, under vmap: hooks and running statistics see
    one call). As PyTorch's forward-AD results, the columns are not detached when they depend
    on a tensor that requires grad besides the inputs made here (or when ``keep_graph``), and
    tuples come back as lists (the inner lists per output, as PyTorch's)."""
    if create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           '`strategy="forward-mode"` are not supported together (yet). Please '
                           'either set `strict=False` or `strategy="reverse-mode"`.')
    inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    for t in inputs:
        if not (t.is_floating_point() or t.is_complex()):
            raise ValueError(f"Expected primal to be floating point or complex, but got: "
                             f"{t.dtype}")
        # PyTorch makes it dual with a basis tangent, which an expanded input cannot take
        forward_ad.tangent_laid_out_as(t, ops.zeros(tuple(t.shape), dtype=t.dtype))
    with grad_mode.enable_grad():
        prepared = _prepare(inputs, create_graph=True, need_graph=True)
        outputs_were_tuple, outputs = _as_tuple(func(*prepared), "outputs", None)
        made_here = {id(p) for p, t in zip(prepared, inputs) if not t.requires_grad}
        keep_graph = keep_graph or _depends_on_other_leaves(outputs, made_here)
        columns = _forward_columns_or_error(func, inputs, outputs, prepared, keep_graph)
    blocks = [_split_columns([column[i] for column in columns], out, inputs)
              for i, out in enumerate(outputs)]
    if not inputs_were_tuple:
        blocks = tuple(row[0] for row in blocks)
    return blocks if outputs_were_tuple else blocks[0]


def _forward_columns_or_error(func, inputs, outputs, prepared, keep_graph):
    """The columns; where an operation has no forward formula in PyTorch (or cannot be
    differentiated twice here), PyTorch's forward-mode error, found by forward mode."""
    def error_of_forward_mode():
        return forward_ad.forward_mode_error(lambda duals: func(*duals), inputs,
                                             [None] * len(inputs))
    if forward_ad.may_lack_forward_formula(outputs):
        error = error_of_forward_mode()
        if error is not None:
            raise error
    try:
        return _forward_columns(outputs, prepared, keep_graph)
    except (RuntimeError, NotImplementedError) as error:
        if not forward_ad.lacks_second_derivative(error):
            raise
        raise (error_of_forward_mode() or error) from None


def _forward_columns(outputs, inputs, keep_graph):
    """Per input element ``e``: ``J e`` for every output (zeros for an output that does not
    depend on the inputs), as the derivative of the vjp ``u ↦ uᵀJ`` in the direction ``e``."""
    dummies = tuple(transpose_point(out) if out.requires_grad else None
                    for out in outputs)
    differentiable = [(out, u) for out, u in zip(outputs, dummies) if u is not None]
    vjps = _grad(tuple(out for out, _ in differentiable), inputs,
                 tuple(u for _, u in differentiable), create_graph=True)
    columns = []
    for vjp_of_input, reference in zip(vjps, inputs):
        flat = vjp_of_input.reshape(-1) if vjp_of_input is not None else None
        for element in range(reference.nelement()):
            picked = (flat[element],) if flat is not None else (None,)
            column = iter(_grad(picked, tuple(u for _, u in differentiable),
                                retain_graph=True, create_graph=keep_graph))
            columns.append(tuple(next(column) if u is not None else None for u in dummies))
    return [tuple(c if c is not None else ops.zeros_like(out) for c, out in zip(column, outputs))
            for column in columns]


def _depends_on_other_leaves(outputs, made_here):
    """Whether the graph of ``outputs`` reaches a leaf that requires grad other than the inputs
    made here (a parameter, or an input the caller gave with ``requires_grad``)."""
    seen, stack = set(), [out.grad_fn for out in outputs if out.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in made_here:
            return True
        stack.extend(child for child, _ in node.next_functions)
    return False


def _split_columns(columns, primal, inputs):
    """One output's Jacobian blocks, from its tangents for every basis vector (in order)."""
    stacked = ops.stack(columns) if columns else ops.zeros((0,) + tuple(primal.shape),
                                                           dtype=primal.dtype)
    blocks, start = [], 0
    for reference in inputs:
        part = stacked[start:start + reference.nelement()]
        start += reference.nelement()
        moved = part.permute(*range(1, part.dim()), 0)
        blocks.append(moved.reshape(tuple(primal.shape) + tuple(reference.shape)))
    return blocks


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient; ``H[i][j]`` has shape
    ``inputs[i].shape + inputs[j].shape``."""
    inputs_were_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*args):
        outputs = _call_scalar_function(func, args, "hessian", strict)
        return outputs[0].squeeze()

    def gradient(*args):
        result = jacobian(single_output, args, create_graph=True)
        _check_requires_grad(result, "jacobian", strict)
        return result

    if outer_jacobian_strategy == "forward-mode":
        # PyTorch's forward-over-reverse result keeps a graph (to inputs it made requiring grad)
        blocks = _jacobian_forward_mode(gradient, inputs, create_graph, strict, vectorize,
                                        keep_graph=True)
    else:
        blocks = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                          vectorize=vectorize)
    return _unpack_blocks(blocks, inputs_were_tuple, inputs_were_tuple)
