"""RMSprop: steps scaled by a running average of squared gradients."""
from .. import ops
from .optimizer import Optimizer, addcdiv_, check_lr

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    _legacy_group_defaults = (("momentum", 0), ("centered", False), ("foreach", None),
                              ("maximize", False), ("differentiable", False),
                              ("capturable", False))
    _legacy_number_state = ("step",)
    _capturable_xla = (True, True)

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        check_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      capturable=capturable, foreach=foreach, maximize=maximize,
                                      differentiable=differentiable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["square_avg"] = ops.zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = ops.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = ops.zeros_like(param)
        alpha = group["alpha"]
        state["step"].add_(1)
        grad = self._apply_weight_decay(group, param, grad)
        square_avg = state["square_avg"]
        # PyTorch's _single_tensor_rmsprop, op for op, so float32 trajectories round alike.
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            average = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt()
        else:
            average = square_avg.sqrt()
        average = average + group["eps"]
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]
            buffer.mul_(group["momentum"]).addcdiv_(grad, average)
            param.add_(buffer, alpha=-group["lr"])
        else:
            addcdiv_(param, grad, average, -group["lr"])
