"""A function called once at a new level, ready for any number of products with its Jacobian.

Reverse products (``vᵀJ``) are one ``autograd.grad`` each. Forward products (``J t``) use the
double-vjp trick of ``autograd.functional.jvp``: ``g(u) = uᵀJ`` is linear in a dummy ``u``, so its
gradient with respect to ``u`` in the direction ``t`` is ``J t``; ``g`` is built once and every
tangent costs one more backward pass. ``grad``, ``vjp``, ``jvp``, ``jacrev`` and ``jacfwd`` all
start here, which is why they nest (see ``_level``).
"""
import contextlib

from .. import ops
from ..autograd import grad_mode
from ..autograd.forward_ad import (check_differentiable_dtype, forward_mode_error,
                                   lacks_second_derivative, may_lack_forward_formula,
                                   tangent_laid_out_as)
from ..autograd.function import functorch_transform
from ..autograd.graph import disable_saved_tensors_hooks
from ..tensor import Tensor
from ..utils import _pytree
from ._arguments import differentiated_positions
from ._level import Level

__all__ = ["Linearization"]


class Linearization:
    """``func(*args, **kwargs)`` with the arguments at ``argnums`` (all when ``None``) tracked.

    ``api`` names the caller in PyTorch's messages (``"vjp(f, *primals)"``); ``check_output``
    validates the output (the aux already split off) as that caller does in PyTorch;
    ``transform`` is the kind of PyTorch transform the caller is (``"grad"``, or ``"jvp"`` for
    forward mode), which decides what an ``autograd.Function`` called by ``func`` must define;
    ``"forward"`` is forward mode outside ``torch.func``'s transforms (``linearize`` traces plain
    dual tensors), where a Function needs only a ``jvp`` rule."""

    def __init__(self, func, args, kwargs, argnums, has_aux, api, check_output, transform="grad",
                 tangent_like=None):
        self.level = Level()
        positions = (differentiated_positions(argnums, len(args)) if argnums is not None
                     else range(len(args)))
        self._call = func, tuple(args), kwargs, list(positions)
        args = list(args)
        if transform in ("jvp", "forward"):
            for i in positions:
                _check_forward_primals(args[i], tangent_like)
        tracked = [self.level.track(args[i]) for i in positions]
        for i, tree in zip(positions, tracked):
            args[i] = tree
        marked = (contextlib.nullcontext() if transform == "forward"
                  else functorch_transform(transform))
        with grad_mode.enable_grad(), marked, _hooks_refused(transform), \
                self.level.running():
            output = func(*args, **kwargs)
        self.aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError(f"{api}: output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            output, self.aux = output
        check_output(output)
        self.output = output
        self.flat_outputs, self.output_spec = _pytree.flatten(output)
        self.flat_inputs, self.input_spec = _pytree.flatten(
            tracked[0] if isinstance(argnums, int) else tuple(tracked))
        self.create_graph = self.level.reaches_outside(self.flat_outputs)
        self._transposed = None  # (dummies u, gradients of uᵀJ), built by the first push

    def pull(self, cotangents, retain_graph=True, create_graph=True):
        """``vᵀJ`` per flat input for cotangents aligned with the flat outputs (``None``: zero),
        zeros for an input the outputs do not reach."""
        create_graph = create_graph and (self.create_graph
                                         or self.level.reaches_outside(cotangents))
        grads = self.level.grad(self.flat_outputs, self.flat_inputs, cotangents, create_graph,
                                retain_graph)
        return [g if g is not None else ops.zeros_like(inp)
                for g, inp in zip(grads, self.flat_inputs)]

    def push(self, tangents):
        """``J t`` per flat output for tangents aligned with the flat inputs (``None``: zero);
        ``None`` for an output that does not depend on the inputs, or that has no tangent (an
        integer or boolean output: PyTorch gives it a zero tangent of its dtype). Where an
        operation cannot be differentiated twice, PyTorch's forward-mode error for it."""
        if self._transposed is None and may_lack_forward_formula(self.flat_outputs):
            error = self._forward_mode_error(tangents)
            if error is not None:
                raise error
        try:
            return self._push(tangents)
        except (RuntimeError, NotImplementedError) as error:
            if not lacks_second_derivative(error):
                raise
            raise (self._forward_mode_error(tangents) or error) from None

    def _forward_mode_error(self, tangents):
        """The error forward mode raises calling the function again on dual arguments (None if
        it raises none): PyTorch's jvp runs so, and names the operation it cannot push."""
        func, args, kwargs, positions = self._call
        primals = [_pytree.flatten(args[i])[0] for i in positions]  # as the flat inputs

        def call(duals):
            duals, args_ = iter(duals), list(args)
            for i, leaves in zip(positions, primals):
                args_[i] = _pytree.unflatten([next(duals) for _ in leaves],
                                             _pytree.flatten(args[i])[1])
            func(*args_, **kwargs)
        return forward_mode_error(call, [leaf for leaves in primals for leaf in leaves],
                                  tangents)

    def _push(self, tangents):
        differentiable = [out for out in self.flat_outputs if _has_tangent(out)]
        if self._transposed is None:
            dummies = [self.level.transpose_point(out) for out in differentiable]
            self._transposed = dummies, self.level.grad(differentiable, self.flat_inputs,
                                                        dummies, create_graph=True)
        dummies, transposed = self._transposed
        create_graph = self.create_graph or self.level.reaches_outside(tangents)
        products = iter(self.level.grad(transposed, dummies, tangents, create_graph))
        return [next(products) if _has_tangent(out) else None for out in self.flat_outputs]

    def unwrap(self, tree):
        return self.level.unwrap(tree)


def _check_forward_primals(tree, tangent_like):
    """PyTorch's checks of a primal made dual: its dtype, and, given ``tangent_like`` (the
    tangent PyTorch pairs with a primal), whether that tangent takes the primal's layout."""
    for leaf in _pytree.flatten(tree)[0]:
        if isinstance(leaf, Tensor):
            check_differentiable_dtype(leaf, "primal")
            if tangent_like is not None:
                tangent_laid_out_as(leaf, tangent_like(leaf))


def _has_tangent(output):
    return output.is_floating_point() or output.is_complex()


_NO_SAVED_TENSORS_HOOKS = ("torch.func.{grad, vjp, jacrev, hessian} don't yet support saved "
                           "tensor hooks. Please open an issue with your use case.")


def _hooks_refused(transform):
    """PyTorch's reverse-mode transforms refuse ``saved_tensors_hooks``, whether already in force
    or entered by the function; forward mode accepts them."""
    if transform != "grad":
        return contextlib.nullcontext()
    if grad_mode._state.saved_tensors_hooks:
        raise RuntimeError(_NO_SAVED_TENSORS_HOOKS)
    return disable_saved_tensors_hooks(_NO_SAVED_TENSORS_HOOKS)
