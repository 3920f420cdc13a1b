"""The strong-Wolfe line search of ``LBFGS(line_search_fn="strong_wolfe")``, as PyTorch's port of
``lswolfe.lua``: bracket a step satisfying the Wolfe conditions, then zoom in on it by cubic
interpolation."""
import math
from collections import namedtuple

__all__ = ["strong_wolfe"]

# One trial step: its length, the loss, the flat gradient and the directional derivative there.
_Trial = namedtuple("_Trial", "t f g gtd")


def _cubic_minimum(a, b, bounds=None):
    """The minimiser of the cubic through two trials (values and slopes), kept within bounds."""
    low, high = bounds if bounds is not None else sorted((a.t, b.t))
    d1 = a.gtd + b.gtd - 3 * (a.f - b.f) / (a.t - b.t)
    d2_square = d1 ** 2 - a.gtd * b.gtd
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = math.sqrt(d2_square)
    if a.t <= b.t:
        minimum = b.t - (b.t - a.t) * ((b.gtd + d2 - d1) / (b.gtd - a.gtd + 2 * d2))
    else:
        minimum = a.t - (a.t - b.t) * ((a.gtd + d2 - d1) / (a.gtd - b.gtd + 2 * d2))
    return min(max(minimum, low), high)


def strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """``(loss, flat_grad, t, evaluations)`` at a step ``t`` along ``d`` that satisfies the strong
    Wolfe conditions (or the best found in ``max_ls`` evaluations); ``evaluate(t)`` gives the
    loss and flat gradient at step ``t``."""
    d_norm = float(d.abs().max())
    start = _Trial(0, f, g, gtd)

    def trial(step):
        loss, grad = evaluate(step)
        return _Trial(step, loss, grad, float(grad.dot(d)))

    new = trial(t)
    evaluations = 1
    previous = start
    done = False
    iteration = 0
    bracket = None
    # Bracketing: grow the step until an interval must contain an acceptable point.
    while iteration < max_ls:
        if new.f > f + c1 * new.t * gtd or (iteration > 1 and new.f >= previous.f):
            bracket = [previous, new]
            break
        if abs(new.gtd) <= -c2 * gtd:
            bracket, done = [new], True
            break
        if new.gtd >= 0:
            bracket = [previous, new]
            break
        step = _cubic_minimum(previous, new, bounds=(new.t + 0.01 * (new.t - previous.t),
                                                     new.t * 10))
        previous, new = new, trial(step)
        evaluations += 1
        iteration += 1
    if iteration == max_ls:
        bracket = [start, new]

    # Zoom: shrink the bracket around a point satisfying the conditions.
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    insufficient_progress = False
    while not done and iteration < max_ls:
        if abs(bracket[1].t - bracket[0].t) * d_norm < tolerance_change:
            break
        step = _cubic_minimum(bracket[0], bracket[1])
        top, bottom = max(bracket[0].t, bracket[1].t), min(bracket[0].t, bracket[1].t)
        margin = 0.1 * (top - bottom)
        if min(top - step, step - bottom) < margin:
            # Too close to an end: after one such step, or beyond the ends, step back inside.
            if insufficient_progress or step >= top or step <= bottom:
                step = top - margin if abs(step - top) < abs(step - bottom) else bottom + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        new = trial(step)
        evaluations += 1
        iteration += 1
        if new.f > f + c1 * new.t * gtd or new.f >= bracket[low].f:
            bracket[high] = new  # sufficient decrease fails: a new upper end
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        else:
            if abs(new.gtd) <= -c2 * gtd:
                done = True
            elif new.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = new
    best = bracket[low]
    return best.f, best.g, best.t, evaluations
