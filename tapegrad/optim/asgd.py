"""ASGD: SGD with a decaying step size ``eta`` that also keeps ``ax``, the running average
of the iterates (from step ``t0`` on; before, ``ax`` follows the parameter)."""
from .. import ops
from .optimizer import Optimizer, check_lr

__all__ = ["ASGD"]


class ASGD(Optimizer):
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("capturable", False))
    _legacy_number_state = ("step", "eta", "mu")
    _capturable_tensors = ("params, mus, etas, and state_steps",) * 2

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        check_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["eta"] = ops.tensor(float(group["lr"]))
            state["mu"] = ops.tensor(1.0)
            state["ax"] = ops.zeros_like(param)
        lr, lambd = group["lr"], group["lambd"]
        state["step"].add_(1)
        grad = self._apply_weight_decay(group, param, grad)
        if group["foreach"]:
            self._multi_tensor_rule(lambd, param, grad, state)
        else:
            self._single_tensor_rule(lambd, param, grad, state)
        step = state["step"].item()
        # foreach=True computes the new eta from the float32 step tensor, in float32
        step_for_eta = state["step"] if group["foreach"] else step
        state["eta"].fill_(lr / ((1 + lambd * lr * step_for_eta) ** group["alpha"]))
        state["mu"].fill_(1 / max(1, step - group["t0"]))

    @staticmethod
    def _single_tensor_rule(lambd, param, grad, state):
        """PyTorch's ``_single_tensor_asgd``: decay by ``1 - λη``, then the gradient step; the
        average starts as a copy while ``mu`` is 1."""
        eta = state["eta"].item()  # the float32 state's value, as PyTorch reads it
        param.mul_(1 - lambd * eta)
        param.add_(grad, alpha=-eta)
        ax, mu = state["ax"], state["mu"]
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)

    @staticmethod
    def _multi_tensor_rule(lambd, param, grad, state):
        """PyTorch's ``_multi_tensor_asgd`` (``foreach=True``), which rounds differently: one step
        along ``grad + λ·param`` scaled by the ``eta`` tensor, and the average always moved by
        ``mu``."""
        param.addcmul_(grad.add(param, alpha=lambd), state["eta"], value=-1)
        state["ax"].addcmul_(param.sub(state["ax"]), state["mu"])
