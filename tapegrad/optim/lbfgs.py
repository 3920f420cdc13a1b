"""L-BFGS: quasi-Newton steps from a limited history of parameter and gradient changes.

The optimizer works on all parameters as one flat vector and re-evaluates the loss through the
closure, as ``torch.optim.LBFGS``; its numbers follow PyTorch's loop step for step.
"""
from functools import partial

from .. import ops
from ..autograd import grad_mode
from ._line_search import strong_wolfe
from .optimizer import Optimizer, check_lr

__all__ = ["LBFGS"]


def _real_view(tensor):
    """A complex tensor as its real and imaginary parts (how PyTorch's LBFGS optimizes
    complex parameters: as twice as many real ones)."""
    return ops.view_as_real(tensor) if tensor.is_complex() else tensor


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_lr(lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                                      tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change,
                                      history_size=history_size, line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    # -- the parameters as one flat vector --------------------------------------------------------
    def _gather_flat_grad(self):
        return ops.cat([_real_view(ops.zeros(p.numel(), dtype=p.dtype) if p._grad is None
                                   else p._grad).reshape(-1) for p in self._params], 0)

    def _add_grad(self, step_size, update):
        offset = 0
        for p in map(_real_view, self._params):
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel

    def _evaluate(self, closure):
        with grad_mode.enable_grad():
            return closure()

    def _evaluate_at(self, closure, step_size, *, direction):
        """Loss and flat gradient at ``params + step_size · direction``; parameters restored."""
        saved = [p.clone() for p in self._params]
        self._add_grad(step_size, direction)
        loss = float(self._evaluate(closure))
        flat_grad = self._gather_flat_grad()
        for p, value in zip(self._params, saved):
            p.copy_(value)
        return loss, flat_grad

    # -- one step ---------------------------------------------------------------------------------
    @staticmethod
    def _two_loop_direction(flat_grad, state, history_size):
        """−H·g, with H the L-BFGS inverse-Hessian estimate from the stored history; the
        first loop's coefficients stay in ``state["al"]``, as PyTorch keeps them."""
        old_dirs, old_stps, ro = state["old_dirs"], state["old_stps"], state["ro"]
        alphas = state.setdefault("al", [None] * history_size)
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            alphas[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i] * -alphas[i])
        r = q * state["H_diag"]
        for i in range(len(old_dirs)):
            beta = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i] * (alphas[i] - beta))
        return r

    def _remember(self, state, flat_grad, history_size):
        """Store the latest (gradient change, step) pair if it keeps the estimate positive."""
        y = flat_grad - state["prev_flat_grad"]
        s = state["d"] * state["t"]
        ys = y.dot(s)
        if ys > 1e-10:
            if len(state["old_dirs"]) == history_size:
                for key in ("old_dirs", "old_stps", "ro"):
                    state[key].pop(0)
            state["old_dirs"].append(y)
            state["old_stps"].append(s)
            state["ro"].append(1.0 / ys)
            state["H_diag"] = ys / y.dot(y)

    def step(self, closure):
        """Up to ``max_iter`` L-BFGS iterations; ``closure`` must zero the grads, compute the loss,
        call ``backward()`` and return the loss."""
        group = self.param_groups[0]
        line_search = group["line_search_fn"]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        # LBFGS state is global; PyTorch keeps it under the first parameter.
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        original_loss = self._evaluate(closure)  # a tensor or a number
        current_evals = 1
        state["func_evals"] += 1
        with grad_mode.no_grad():  # PyTorch's step: float() of the loss does not warn
            loss = float(original_loss)
            flat_grad = self._gather_flat_grad()
            if flat_grad.abs().max() <= tolerance_grad:
                return original_loss
            n_iter = 0
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                if state["n_iter"] == 1:
                    state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1)
                    state["d"] = flat_grad.neg()
                else:
                    self._remember(state, flat_grad, group["history_size"])
                    state["d"] = self._two_loop_direction(flat_grad, state, group["history_size"])
                d = state["d"]
                state["prev_flat_grad"] = flat_grad.clone()
                state["prev_loss"] = prev_loss = loss
                if state["n_iter"] == 1:
                    t = min(1.0, float(1.0 / flat_grad.abs().sum())) * lr
                else:
                    t = lr
                gtd = float(flat_grad.dot(d))
                if gtd > -tolerance_change:
                    state["t"] = t
                    break
                optimal = False
                if line_search is not None:
                    # Checked only here, as PyTorch: a step that stops earlier never looks.
                    if line_search != "strong_wolfe":
                        raise RuntimeError("only 'strong_wolfe' is supported")
                    loss, flat_grad, t, evaluations = strong_wolfe(
                        partial(self._evaluate_at, closure, direction=d), t, d, loss,
                        flat_grad, gtd, max_ls=max_eval - current_evals)
                    self._add_grad(t, d)
                    optimal = bool(flat_grad.abs().max() <= tolerance_grad)
                else:
                    self._add_grad(t, d)
                    evaluations = 0
                    if n_iter != max_iter:
                        # Re-evaluate except after the last iteration, as PyTorch.
                        loss = float(self._evaluate(closure))
                        flat_grad = self._gather_flat_grad()
                        optimal = bool(flat_grad.abs().max() <= tolerance_grad)
                        evaluations = 1
                state["t"] = t
                current_evals += evaluations
                state["func_evals"] += evaluations
                if (n_iter == max_iter or current_evals >= max_eval or optimal
                        or (d * t).abs().max() <= tolerance_change
                        or abs(loss - prev_loss) < tolerance_change):
                    break
        return original_loss
