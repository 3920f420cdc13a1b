"""``einsum``: Einstein summation as a sequence of pairwise contractions over existing
primitives (permute, reshape, matmul, sum), so it needs no backward rule of its own."""
import builtins
import collections
import math
import string

from .broadcast import expand
from .layout import diagonal
from .linalg import matmul
from .reduction import sum as _reduce_sum
from .shape import permute, reshape

__all__ = [
    "einsum",
]


def einsum(equation, *operands):
    """Einstein summation, as a sequence of permutes, reductions and batched matmuls (the way
    PyTorch evaluates it, so gradients come from those ops' rules)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    inputs, output = _parse_equation(equation, operands)
    operands = _broadcast_subscripts(inputs, operands)
    terms = [_reduce_term(t, labels, output, inputs[:i] + inputs[i + 1:])
             for i, (t, labels) in enumerate(zip(operands, inputs))]
    result, labels = terms[0]
    for position in range(1, len(terms)):
        other, other_labels = terms[position]
        needed_later = set(output).union(*(later for _, later in terms[position + 1:]))
        result, labels = _contract(result, labels, other, other_labels, needed_later)
    result, labels = _reduce_term(result, labels, output, [])
    return permute(result, [labels.index(c) for c in output]) if labels != output else result


def _parse_equation(equation, operands):
    """Input label strings and the output's, with ``...`` spelled out as unused letters."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(inputs) else
                           "einsum(): fewer operands were provided than specified in the equation")
    spare = [c for c in string.ascii_letters if c not in equation]
    batch_rank = builtins.max((t._array.ndim - len(s.replace("...", "")) for s, t in
                               zip(inputs, operands) if "..." in s), default=0)
    ellipsis = "".join(spare[:batch_rank])
    expanded = []
    for labels, t in zip(inputs, operands):
        if "..." in labels:
            own = t._array.ndim - len(labels.replace("...", ""))
            labels = labels.replace("...", ellipsis[batch_rank - own:])
        if len(labels) != t._array.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(labels)}) does not match the number of dimensions "
                               f"({t._array.ndim}) for operand {len(expanded)}"
                               f"{'' if '...' in lhs else ' and no ellipsis was given'}")
        expanded.append(labels)
    if arrow:
        output = rhs.replace("...", ellipsis)
        for label in output:
            if not any(label in labels for labels in expanded):
                raise RuntimeError(f"einsum(): output subscript {label} does not appear in the "
                                   "equation for any input operand")
    else:  # implicit output: the ellipsis, then the labels used once, in alphabetical order
        counts = collections.Counter("".join(inputs).replace("...", ""))
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    return expanded, output


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


def _reduce_term(t, labels, output, others):
    """Take diagonals of repeated labels and sum out labels no other term or the output uses."""
    for label in set(labels):
        while labels.count(label) > 1:
            first = labels.index(label)
            second = labels.index(label, first + 1)
            t = diagonal(t, 0, first, second)
            labels = "".join(c for i, c in enumerate(labels) if i not in (first, second)) + label
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
