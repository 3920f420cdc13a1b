"""``einsum``: Einstein summation as a sequence of pairwise contractions over existing
primitives (permute, reshape, matmul, sum), so it needs no backward rule of its own."""
import builtins
import collections
import math
import string

from ..tensor import Tensor
from .broadcast import expand
from .elementwise import mul
from .layout import diagonal
from .linalg import matmul
from .reduction import sum as _reduce_sum
from .shape import permute, reshape

__all__ = [
    "einsum",
]


def einsum(*args):
    """Einstein summation, as a sequence of permutes, reductions and batched matmuls (the way
    PyTorch evaluates it, so gradients come from those ops' rules). Takes an equation string
    and operands, or PyTorch's sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    equation, operands = _equation_and_operands(args)
    inputs, output = _parse_equation(equation, operands)
    operands = _broadcast_subscripts(inputs, operands)
    if len(operands) == 1:
        return _single_term(operands[0], inputs[0], output)
    if set("".join(inputs)) <= set(output):
        return _broadcast_product(operands, inputs, output)
    terms = [_reduce_term(t, labels, output, inputs[:i] + inputs[i + 1:])
             for i, (t, labels) in enumerate(zip(operands, inputs))]
    result, labels = terms[0]
    for position in range(1, len(terms)):
        other, other_labels = terms[position]
        needed_later = set(output).union(*(later for _, later in terms[position + 1:]))
        result, labels = _contract(result, labels, other, other_labels, needed_later)
    result, labels = _reduce_term(result, labels, output, [])
    return permute(result, [labels.index(c) for c in output]) if labels != output else result


def _equation_and_operands(args):
    """The equation string and the operand tensors, from either calling form."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        return _sublist_equation(args), tuple(args[0:len(args) - len(args) % 2:2])
    equation, operands = args[0], args[1:]
    if not isinstance(equation, str):
        raise TypeError("einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return equation, operands


def _sublist_equation(args):
    """The equation that an interleaving of operands and subscript lists (with an optional
    output list last) spells: subscripts 0-25 are A-Z, 26-51 are a-z, ``...`` is Ellipsis."""
    def letters(sublist):
        return "".join(_sublist_letter(n) for n in sublist)

    equation = ",".join(letters(sublist) for sublist in args[1::2])
    if len(args) % 2:
        equation += "->" + letters(args[-1])
    return equation


def _sublist_letter(n):
    if n is Ellipsis:
        return "..."
    if not 0 <= n < 52:
        raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                         "[0, 52)")
    return string.ascii_uppercase[n] if n < 26 else string.ascii_lowercase[n - 26]


def _scan_subscripts(text, start, operands=None):
    """The subscripts in ``text`` (the equation's part at index ``start``) as label strings:
    one per operand for the left-hand side (``operands`` is their count), one for the output
    (``operands`` None). Spaces are ignored; a stray '.', a label that is not a letter or more
    operands than given raise PyTorch's errors."""
    groups, labels, i = [], "", 0

    def whose():
        return "output" if operands is None else f"operand {len(groups)}"

    while i < len(text):
        c = text[i]
        if c == ".":
            if "..." in labels:
                raise RuntimeError(f"einsum(): found '.' for {whose()}" + (
                    " but an ellipsis (...) was already found" if operands is None else
                    " for which an ellipsis was already found"))
            if text[i:i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for {whose()} that is not part of any "
                                   f"ellipsis{' (...)' if operands is None else ''}")
            labels, i = labels + "...", i + 3
            continue
        if c == "," and operands is not None:
            groups, labels = groups + [labels], ""
            if len(groups) >= operands:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                                   "equation")
        elif c in string.ascii_letters:
            labels += c
        elif c != " ":
            raise RuntimeError(f"einsum(): invalid subscript given at index {start + i} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        i += 1
    return groups + [labels]


def _parse_equation(equation, operands):
    """Input label strings and the output's, with ``...`` spelled out as unused letters."""
    lhs, arrow, rhs = equation.partition("->")
    inputs = _scan_subscripts(lhs, 0, len(operands))
    if len(inputs) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    for number, (labels, t) in enumerate(zip(inputs, operands)):
        _check_rank(labels, t._array.ndim, number)
    spare = [c for c in string.ascii_letters if c not in equation]
    batch_rank = builtins.max((t._array.ndim - len(s.replace("...", "")) for s, t in
                               zip(inputs, operands) if "..." in s), default=0)
    ellipsis = "".join(spare[:batch_rank])
    expanded = [labels.replace("...", ellipsis[batch_rank + len(labels) - 3 - t._array.ndim:])
                for labels, t in zip(inputs, operands)]
    if arrow:
        (output,) = _scan_subscripts(rhs, len(lhs) + 2)
        _check_output(output, "".join(inputs))
        output = output.replace("...", ellipsis)
    else:  # implicit output: the ellipsis, then the labels used once, in alphabetical order
        counts = collections.Counter("".join(inputs).replace("...", ""))
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    return expanded, output


def _check_rank(labels, ndim, number):
    """PyTorch's error for an operand with more or fewer subscripts than dimensions."""
    count = len(labels.replace("...", ""))
    if "..." in labels and count > ndim:
        raise RuntimeError(f"einsum(): the number of subscripts in the equation ({count}) is more "
                           f"than the number of dimensions ({ndim}) for operand {number}")
    if "..." not in labels and count != ndim:
        raise RuntimeError(f"einsum(): the number of subscripts in the equation ({count}) does "
                           f"not match the number of dimensions ({ndim}) for operand {number} "
                           "and no ellipsis was given")


def _check_output(output, input_labels):
    """Each output subscript must appear in some input, and only once in the output."""
    seen = set()
    for label in output.replace("...", ""):
        if label in seen or label not in input_labels:
            raise RuntimeError(f"einsum(): output subscript {label} " + (
                "appears more than once in the output" if label in seen else
                "does not appear in the equation for any input operand"))
        seen.add(label)


def _broadcast_subscripts(inputs, operands):
    """The operands expanded so that each subscript has one size: PyTorch broadcasts a size-1
    dimension against the other operands' size of the same subscript, and refuses other
    mismatches operand by operand."""
    sizes = {}
    for number, (labels, t) in enumerate(zip(inputs, operands)):
        own = {}
        for label, size in zip(labels, t._array.shape):
            if own.setdefault(label, size) != size:
                raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {number} "
                                   f"but the sizes don't match, {size} != {own[label]}")
        for label, size in own.items():
            seen = sizes.setdefault(label, size)
            if size != seen and 1 not in (size, seen):
                raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand "
                                   f"{number} which does not broadcast with previously seen size "
                                   f"{seen}")
            sizes[label] = builtins.max(size, seen)
    return [t if t._array.shape == tuple(sizes[c] for c in labels)
            else expand(t, tuple(sizes[c] for c in labels))
            for labels, t in zip(inputs, operands)]


def _single_term(t, labels, output):
    """One operand, as PyTorch: its diagonals, permuted into the output's order (a view even
    when nothing moves), the labels left out of the output summed last."""
    t, labels = _take_diagonals(t, labels)
    summed = [c for c in labels if c not in output]
    t = permute(t, [labels.index(c) for c in output + "".join(summed)])
    return _reduce_sum(t, tuple(range(len(output), len(labels)))) if summed else t


def _broadcast_product(operands, inputs, output):
    """Operands whose labels all stay in the output: each aligned with the output (permuted, size-1
    dimensions for its missing labels) and multiplied in turn, as PyTorch does."""
    result = None
    for t, labels in zip(operands, inputs):
        t, labels = _take_diagonals(t, labels)
        aligned = sorted(labels, key=output.index)
        t = permute(t, [labels.index(c) for c in aligned])
        t = reshape(t, tuple(t._array.shape[aligned.index(c)] if c in aligned else 1
                             for c in output))
        result = t if result is None else mul(result, t)
    return result


def _take_diagonals(t, labels):
    """The diagonal of each label repeated within one operand (moved to the last dimension)."""
    for label in set(labels):
        while labels.count(label) > 1:
            first = labels.index(label)
            second = labels.index(label, first + 1)
            t = diagonal(t, 0, first, second)
            labels = "".join(c for i, c in enumerate(labels) if i not in (first, second)) + label
    return t, labels


def _reduce_term(t, labels, output, others):
    """Take diagonals of repeated labels and sum out labels no other term or the output uses."""
    t, labels = _take_diagonals(t, labels)
    needed = set(output).union(*others)
    lonely = tuple(i for i, c in enumerate(labels) if c not in needed)
    if lonely:
        t = _reduce_sum(t, lonely)
        labels = "".join(c for i, c in enumerate(labels) if i not in lonely)
    return t, labels


def _contract(a, a_labels, b, b_labels, keep):
    """Two terms as one batched matmul: shared labels that stay become the batch, shared labels
    that go are contracted, the others are the rows (``a``) and columns (``b``)."""
    shared = [c for c in a_labels if c in b_labels]
    batch = [c for c in shared if c in keep]
    summed = [c for c in shared if c not in keep]
    rows = [c for c in a_labels if c not in b_labels]
    columns = [c for c in b_labels if c not in a_labels]
    sizes = {**dict(zip(b_labels, b._array.shape)), **dict(zip(a_labels, a._array.shape))}
    for c in shared:
        if a._array.shape[a_labels.index(c)] != b._array.shape[b_labels.index(c)]:
            raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes "
                               f"(original->remapped): {list(a._array.shape)} and "
                               f"{list(b._array.shape)}")

    def size(labels):
        return math.prod(sizes[c] for c in labels)

    a = reshape(permute(a, [a_labels.index(c) for c in batch + rows + summed]),
                (size(batch), size(rows), size(summed)))
    b = reshape(permute(b, [b_labels.index(c) for c in batch + summed + columns]),
                (size(batch), size(summed), size(columns)))
    product = matmul(a, b)
    labels = batch + rows + columns
    return reshape(product, tuple(sizes[c] for c in labels)), "".join(labels)
