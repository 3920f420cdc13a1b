"""``vjp``, ``jvp`` and ``linearize``: products of a function's Jacobian with vectors, for
pytrees of tensors.

tapegrad has no forward-mode AD: ``jvp`` uses the double-vjp trick (see ``_linearization``),
which gives the same values at about the cost of two reverse passes.
"""
from .. import ops
from ..autograd.forward_ad import check_differentiable_dtype, tangent_laid_out_as
from ..tensor import Tensor
from ..utils import _pytree
from ._linearization import Linearization

__all__ = ["vjp", "jvp", "linearize"]

VJP_API = "vjp(f, *primals)"
JVP_API = "jvp(f, primals, tangents)"


def check_tensor_outputs(api):
    """The check of ``vjp``'s and ``jvp``'s outputs: a non-empty pytree of tensors."""
    def check(output):
        leaves, _ = _pytree.flatten(output)
        if not leaves or (len(leaves) == 1 and leaves[0] is None):
            raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output "
                               f"(got output = {leaves})")
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "
                                   f"unsupported type {type(leaf)}")
    return check


def _check_vjp_outputs(output):
    check_tensor_outputs(VJP_API)(output)
    for leaf in _pytree.flatten(output)[0]:
        if not (leaf.is_floating_point() or leaf.is_complex()):
            raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex "
                               f"Tensors, got Tensor with dtype {leaf.dtype}")


def reverse_linearization(func, args, argnums, has_aux):
    """The ``Linearization`` ``vjp`` and ``jacrev`` start from (their messages are vjp's)."""
    return Linearization(func, args, {}, argnums, has_aux, VJP_API, _check_vjp_outputs)


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)`` (and ``aux``): ``vjp_fn(cotangents)`` gives ``vᵀJ`` for
    each primal, as often as asked, the cotangents shaped like the output."""
    linear = reverse_linearization(func, primals, None, has_aux)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        """``create_graph=False`` keeps the products out of any graph; by default they are
        differentiable when something outside the level needs them."""
        flat, spec = _pytree.flatten(cotangents)
        if spec != linear.output_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree "
                               "structure of outputs to the function. cotangents: "
                               f"{_pytree.pretty(spec)}, primal output: "
                               f"{_pytree.pretty(linear.output_spec)}")
        grads = linear.pull(flat, retain_graph, create_graph is not False)
        return linear.unwrap(_pytree.unflatten(grads, linear.input_spec))

    output = linear.unwrap(linear.output)
    return (output, vjp_fn, linear.unwrap(linear.aux)) if has_aux else (output, vjp_fn)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J·tangents)`` (and ``aux``); ``primals`` and ``tangents`` are tuples
    of the same structure."""
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{JVP_API}: Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    flat_primals, primals_spec = _pytree.flatten(primals)
    flat_tangents, tangents_spec = _pytree.flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{JVP_API}: Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents "
                           f"also must be. Got primals with structure {primals_spec} and tangents "
                           f"with structure {tangents_spec}")
    for name, leaves in (("primals", flat_primals), ("tangents", flat_tangents)):
        _check_tensors(leaves, name)
    for primal, tangent in zip(flat_primals, flat_tangents):
        check_differentiable_dtype(primal, "primal")
        check_differentiable_dtype(tangent, "tangent")
        if primal.shape != tangent.shape:
            raise RuntimeError("Trying to set a forward gradient that has a different size than "
                               "that of the original Tensor, this is not supported. Tensor is of "
                               f"size {list(primal.shape)} while the given forward gradient is of "
                               f"size {list(tangent.shape)}.")
        tangent_laid_out_as(primal, tangent)
    linear = Linearization(func, primals, {}, None, has_aux, JVP_API,
                           check_tensor_outputs(JVP_API), transform="jvp")
    output = _pytree.tree_map(_unpacked_primal, linear.unwrap(linear.output))
    products = _pushed(linear, flat_tangents, strict)
    return (output, products, linear.unwrap(linear.aux)) if has_aux else (output, products)


def _unpacked_primal(output):
    """A primal output as PyTorch's ``jvp`` unpacks it from its dual tensor: a view
    (``AliasBackward0``) when it is on a graph outside the transform."""
    return ops.shape._alias(output) if output.requires_grad else output


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is ``J·tangents`` at the primals,
    for any number of tangents, without calling ``func`` again."""
    for leaf in _pytree.flatten(primals)[0]:
        if not isinstance(leaf, Tensor):  # PyTorch's first use of the primals, as a tensor
            raise AttributeError(f"'{type(leaf).__name__}' object has no attribute 'new_empty'")
    output = {}

    def tensor_outputs(*args):
        """The tensors of ``func``'s output; PyTorch passes its other leaves through."""
        output["leaves"], output["spec"] = _pytree.flatten(func(*args))
        return tuple(leaf for leaf in output["leaves"] if isinstance(leaf, Tensor))

    linear = Linearization(tensor_outputs, primals, {}, None, False, JVP_API, lambda _: None,
                           transform="forward", tangent_like=_linearize_tangent)
    if not (linear.flat_inputs or linear.flat_outputs):  # PyTorch's traced function of no
        # tangents and no tensor result is constant-folded away, then called with an argument
        raise TypeError("forward() missing 1 required positional argument: 'flat_tangents'")

    def with_other_leaves(tensors):
        tensors = iter(tensors)
        return _pytree.unflatten([next(tensors) if isinstance(leaf, Tensor) else leaf
                                  for leaf in output["leaves"]], output["spec"])

    def jvp_fn(*tangents):
        flat, spec = _pytree.flatten(tangents)
        if spec != linear.input_spec:
            raise RuntimeError(f"Expected the tangents {spec} to have the same argspec as the "
                               f"primals {linear.input_spec}")
        for index, (tangent, primal) in enumerate(zip(flat, linear.flat_inputs)):
            for what in ("shape", "dtype"):
                if getattr(tangent, what) != getattr(primal, what):
                    raise RuntimeError(f"tangent:{index} with {what} {getattr(tangent, what)} in "
                                       f"flattened pytree doesn't match the {what} "
                                       f"{getattr(primal, what)} of the corresponding primal.")
        return with_other_leaves(_pushed(linear, flat, strict=False) if linear.flat_outputs
                                 else ())

    return with_other_leaves(linear.unwrap(linear.output)), jvp_fn


def _linearize_tangent(primal):
    """The tangent PyTorch's ``linearize`` traces with: one element expanded (strides 0)."""
    return primal.new_empty(()).expand_as(primal)


def _pushed(linear, flat_tangents, strict):
    """``J·tangents`` shaped like the output: zeros for an output independent of the inputs
    (an error under ``strict``)."""
    products = []
    for out, product in zip(linear.flat_outputs, linear.push(flat_tangents)):
        if product is None:
            if strict:
                raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is "
                                   "independent of the inputs. This is not allowed with "
                                   "strict=True.")
            product = ops.zeros_like(out)
        products.append(product)
    return linear.unwrap(_pytree.unflatten(products, linear.output_spec))


def _check_tensors(leaves, name):
    if not leaves:
        raise RuntimeError(f"{JVP_API}: Expected {name} to contain at least one Tensor.")
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"{JVP_API}: Expected {name} to only contain Tensors, got "
                               f"{type(leaf)}")
