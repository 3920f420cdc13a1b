"""``torch.func``: composable function transforms (``grad``, ``vjp``, ``jvp``, ``linearize``,
``jacrev``, ``jacfwd``, ``hessian``, ``vmap``, ``functionalize``) and modules as functions of
their state (``functional_call``, ``stack_module_state``, ``replace_all_batch_norm_modules_``),
with PyTorch's names, signatures, pytree handling and error messages. While a transform runs,
``autograd.function.active_transforms`` says so, and an ``autograd.Function`` called inside
must define what PyTorch requires of it there (``setup_context``, a vmap rule, a ``jvp``).

They run on tapegrad's ordinary tape. Each differentiating transform calls the function once on
inputs it tracks and takes ``autograd.grad`` products; they nest (``grad(grad(f))``,
``jacfwd(jacrev(f))``, ``vmap(grad(f))``) because an input that already requires grad is
tracked through a view, so outer levels see through inner ones (``_level``). Forward products
use the double-vjp trick: tapegrad has no forward-mode AD.

``vmap`` has no batching rules: it **loops in Python**, calling the function once per example
on views of the inputs and stacking the results. Results match PyTorch's; it is not faster
than writing the loop yourself.
"""
from .batching import vmap
from .functionalization import functionalize
from .gradients import grad, grad_and_value
from .jacobians import hessian, jacfwd, jacrev
from .modules import functional_call, replace_all_batch_norm_modules_, stack_module_state
from .products import jvp, linearize, vjp

__all__ = ["functional_call", "functionalize", "grad", "grad_and_value", "hessian", "jacfwd",
           "jacrev", "jvp", "linearize", "replace_all_batch_norm_modules_", "stack_module_state",
           "vjp", "vmap"]
