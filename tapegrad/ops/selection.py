"""PyTorch's CPU ``topk``, unstable ``sort`` and ``mode``, position for position, in plain Python.

Which of several equal values ``topk`` returns, and in which order, is whatever libstdc++'s
``std::partial_sort`` (when ``64 * k <= n``) or ``std::nth_element`` followed by ``std::sort`` of
the first ``k - 1`` does to (value, position) pairs compared on the values only
(ATen's TopKImpl.h). Those algorithms are deterministic, but no vectorized numpy expression
reproduces their tie order, so they are written out here as libstdc++ has them (bits/stl_algo.h,
bits/stl_heap.h): introsort with median-of-three pivots and a final insertion sort, introselect,
heap select and heap sort. Each takes its comparator ``before(x, y)``: for ``sort`` and ``topk``
NaN counts as the largest value; ``mode`` sorts with a plain ``<``.

Plain Python on purpose: eager mode imports no Numba (a compile of these functions took about 15 s
on first use), and ``topk``, ``sort`` and ``mode`` only come here within ``EXACT_TIES_BUDGET``
(``topk`` and ``sort`` only for rows with ties).
"""
import operator

import numpy as np

THRESHOLD = 16  # libstdc++'s _S_threshold: below it, insertion sort


def _larger_first(x, y):
    """Whether value ``x`` goes before ``y`` in a descending order (NaN first)."""
    return (x != x and y == y) or x > y


def _smaller_first(x, y):
    """Whether value ``x`` goes before ``y`` in an ascending order (NaN last)."""
    return (x == x and y != y) or x < y


def _ordering(largest):
    """The comparator ``sort`` and ``topk`` give std::sort: NaN counts as the largest value."""
    return _larger_first if largest else _smaller_first


def _swap(values, positions, i, j):
    values[i], values[j] = values[j], values[i]
    positions[i], positions[j] = positions[j], positions[i]


def _floor_log2(n):
    result = 0
    while n > 1:
        n >>= 1
        result += 1
    return result


# ------------------------------------------------------------------------------------ heaps

def _push_heap(values, positions, first, hole, top, value, position, before):
    parent = (hole - 1) // 2
    while hole > top and before(values[first + parent], value):
        values[first + hole] = values[first + parent]
        positions[first + hole] = positions[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    values[first + hole] = value
    positions[first + hole] = position


def _adjust_heap(values, positions, first, hole, length, value, position, before):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if before(values[first + child], values[first + child - 1]):
            child -= 1
        values[first + hole] = values[first + child]
        positions[first + hole] = positions[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        values[first + hole] = values[first + child - 1]
        positions[first + hole] = positions[first + child - 1]
        hole = child - 1
    _push_heap(values, positions, first, hole, top, value, position, before)


def _make_heap(values, positions, first, last, before):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(values, positions, first, parent, length, values[first + parent],
                     positions[first + parent], before)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(values, positions, first, last, result, before):
    value, position = values[result], positions[result]
    values[result], positions[result] = values[first], positions[first]
    _adjust_heap(values, positions, first, 0, last - first, value, position, before)


def _heap_select(values, positions, first, middle, last, before):
    _make_heap(values, positions, first, middle, before)
    for i in range(middle, last):
        if before(values[i], values[first]):
            _pop_heap(values, positions, first, middle, i, before)


def _sort_heap(values, positions, first, last, before):
    while last - first > 1:
        last -= 1
        _pop_heap(values, positions, first, last, last, before)


def _partial_sort(values, positions, first, middle, last, before):
    _heap_select(values, positions, first, middle, last, before)
    _sort_heap(values, positions, first, middle, before)


# ----------------------------------------------------------------------- sort, nth_element

def _move_median_to_first(values, positions, result, a, b, c, before):
    if before(values[a], values[b]):
        if before(values[b], values[c]):
            _swap(values, positions, result, b)
        elif before(values[a], values[c]):
            _swap(values, positions, result, c)
        else:
            _swap(values, positions, result, a)
    elif before(values[a], values[c]):
        _swap(values, positions, result, a)
    elif before(values[b], values[c]):
        _swap(values, positions, result, c)
    else:
        _swap(values, positions, result, b)


def _partition_pivot(values, positions, first, last, before):
    """libstdc++'s __unguarded_partition_pivot: the median of three moved to ``first`` is the
    pivot; the cut between the two parts is returned."""
    middle = first + (last - first) // 2
    _move_median_to_first(values, positions, first, first + 1, middle, last - 1, before)
    low, high = first + 1, last
    while True:
        while before(values[low], values[first]):
            low += 1
        high -= 1
        while before(values[first], values[high]):
            high -= 1
        if not low < high:
            return low
        _swap(values, positions, low, high)
        low += 1


def _linear_insert(values, positions, last, before):
    value, position = values[last], positions[last]
    previous = last - 1
    while before(value, values[previous]):
        values[last], positions[last] = values[previous], positions[previous]
        last = previous
        previous -= 1
    values[last], positions[last] = value, position


def _insertion_sort(values, positions, first, last, before):
    if first == last:
        return
    for i in range(first + 1, last):
        if before(values[i], values[first]):
            value, position = values[i], positions[i]
            for j in range(i, first, -1):
                values[j], positions[j] = values[j - 1], positions[j - 1]
            values[first], positions[first] = value, position
        else:
            _linear_insert(values, positions, i, before)


def _sort(values, positions, first, last, before):
    """std::sort: introsort loop (recursing on the right part), then a final insertion sort."""
    if last - first < 2:
        return
    stack = [(first, last, 2 * _floor_log2(last - first))]
    while stack:
        low, high, depth = stack.pop()
        while high - low > THRESHOLD:
            if depth == 0:
                _partial_sort(values, positions, low, high, high, before)
                break
            depth -= 1
            cut = _partition_pivot(values, positions, low, high, before)
            stack.append((cut, high, depth))
            high = cut
    if last - first > THRESHOLD:
        _insertion_sort(values, positions, first, first + THRESHOLD, before)
        for i in range(first + THRESHOLD, last):
            _linear_insert(values, positions, i, before)
    else:
        _insertion_sort(values, positions, first, last, before)


def _nth_element(values, positions, first, nth, last, before):
    """std::nth_element: introselect, then an insertion sort of the last small range."""
    if first == last or nth == last:
        return
    depth = 2 * _floor_log2(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(values, positions, first, nth + 1, last, before)
            _swap(values, positions, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(values, positions, first, last, before)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(values, positions, first, last, before)


EXACT_TIES_BUDGET = 50_000  # elements: beyond it ``topk``, ``sort`` and ``mode`` order ties stably


def sort_positions(rows, descending):
    """The order an unstable ``sort`` gives each row of ``rows`` (n_rows, n): std::sort of the
    (value, position) pairs on their values (ATen's SortingKernel.cpp), which does not keep equal
    values in their order once a row is longer than ``THRESHOLD``."""
    count, n = rows.shape
    found = np.empty((count, n), np.int64)
    for r, row in enumerate(rows.tolist()):
        positions = list(range(n))
        _sort(row, positions, 0, n, _ordering(descending))
        found[r] = positions
    return found


def topk_positions(rows, k, largest, sorted_):
    """The positions ``topk`` picks in each row of ``rows`` (n_rows, n), as TopKImpl.h does.
    The rows are read as Python numbers (exact; NaN compares as in C++)."""
    count, n = rows.shape
    found = np.empty((count, k), np.int64)
    if k == 0:
        return found
    before = _ordering(largest)
    for r, row in enumerate(rows.tolist()):
        positions = list(range(n))
        if k * 64 <= n:
            _partial_sort(row, positions, 0, k, n, before)
        else:
            _nth_element(row, positions, 0, k - 1, n, before)
            if sorted_:
                _sort(row, positions, 0, k - 1, before)
        found[r] = positions[:k]
    return found


def mode_positions(rows):
    """Where ``mode`` finds the mode of each row of ``rows`` (n_rows, n), as ATen's CPU kernel:
    std::sort of the (value, position) pairs with a plain ``<`` (NaN compares false both ways),
    then the first of the longest runs of equal values (NaN equals nothing); the position of
    that run's last pair. Past ``THRESHOLD`` the sort moves ties, so this is not the last
    occurrence of the mode."""
    count, n = rows.shape
    found = np.empty(count, np.int64)
    for r, row in enumerate(rows.tolist()):
        positions = list(range(n))
        _sort(row, positions, 0, n, operator.lt)
        found[r] = positions[_end_of_longest_run(row)]
    return found


def _end_of_longest_run(ordered):
    """The index of the last element of the first longest run of equal values in ``ordered``."""
    end, longest, run = 0, 0, 0
    for i, value in enumerate(ordered):
        run += 1
        if i == len(ordered) - 1 or value != ordered[i + 1]:
            if run > longest:
                end, longest = i, run
            run = 0
    return end
