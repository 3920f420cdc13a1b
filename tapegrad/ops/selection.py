"""PyTorch's CPU ``topk`` and unstable ``sort``, position for position, in plain Python.

Which of several equal values ``topk`` returns, and in which order, is whatever libstdc++'s
``std::partial_sort`` (when ``64 * k <= n``) or ``std::nth_element`` followed by ``std::sort`` of
the first ``k - 1`` does to (value, position) pairs compared on the values only
(ATen's TopKImpl.h). Those algorithms are deterministic, but no vectorized numpy expression
reproduces their tie order, so they are written out here as libstdc++ has them (bits/stl_algo.h,
bits/stl_heap.h): introsort with median-of-three pivots and a final insertion sort, introselect,
heap select and heap sort. NaN counts as the largest value.

Plain Python on purpose: eager mode imports no Numba (a compile of these functions took about 15 s
on first use), and ``topk`` and ``sort`` only come here for rows with ties, within
``EXACT_TIES_BUDGET``.
"""
import numpy as np

THRESHOLD = 16  # libstdc++'s _S_threshold: below it, insertion sort


def _before(x, y, largest):
    """The comparator: whether value ``x`` goes before ``y`` (NaN first when largest)."""
    if largest:
        return (x != x and y == y) or x > y
    return (x == x and y != y) or x < y


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

def _push_heap(values, positions, first, hole, top, value, position, largest):
    parent = (hole - 1) // 2
    while hole > top and _before(values[first + parent], value, largest):
        values[first + hole] = values[first + parent]
        positions[first + hole] = positions[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    values[first + hole] = value
    positions[first + hole] = position


def _adjust_heap(values, positions, first, hole, length, value, position, largest):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _before(values[first + child], values[first + child - 1], largest):
            child -= 1
        values[first + hole] = values[first + child]
        positions[first + hole] = positions[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        values[first + hole] = values[first + child - 1]
        positions[first + hole] = positions[first + child - 1]
        hole = child - 1
    _push_heap(values, positions, first, hole, top, value, position, largest)


def _make_heap(values, positions, first, last, largest):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(values, positions, first, parent, length, values[first + parent],
                     positions[first + parent], largest)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(values, positions, first, last, result, largest):
    value, position = values[result], positions[result]
    values[result], positions[result] = values[first], positions[first]
    _adjust_heap(values, positions, first, 0, last - first, value, position, largest)


def _heap_select(values, positions, first, middle, last, largest):
    _make_heap(values, positions, first, middle, largest)
    for i in range(middle, last):
        if _before(values[i], values[first], largest):
            _pop_heap(values, positions, first, middle, i, largest)


def _sort_heap(values, positions, first, last, largest):
    while last - first > 1:
        last -= 1
        _pop_heap(values, positions, first, last, last, largest)


def _partial_sort(values, positions, first, middle, last, largest):
    _heap_select(values, positions, first, middle, last, largest)
    _sort_heap(values, positions, first, middle, largest)


# ----------------------------------------------------------------------- sort, nth_element

def _move_median_to_first(values, positions, result, a, b, c, largest):
    if _before(values[a], values[b], largest):
        if _before(values[b], values[c], largest):
            _swap(values, positions, result, b)
        elif _before(values[a], values[c], largest):
            _swap(values, positions, result, c)
        else:
            _swap(values, positions, result, a)
    elif _before(values[a], values[c], largest):
        _swap(values, positions, result, a)
    elif _before(values[b], values[c], largest):
        _swap(values, positions, result, c)
    else:
        _swap(values, positions, result, b)


def _partition_pivot(values, positions, first, last, largest):
    """libstdc++'s __unguarded_partition_pivot: the median of three moved to ``first`` is the
    pivot; the cut between the two parts is returned."""
    middle = first + (last - first) // 2
    _move_median_to_first(values, positions, first, first + 1, middle, last - 1, largest)
    low, high = first + 1, last
    while True:
        while _before(values[low], values[first], largest):
            low += 1
        high -= 1
        while _before(values[first], values[high], largest):
            high -= 1
        if not low < high:
            return low
        _swap(values, positions, low, high)
        low += 1


def _linear_insert(values, positions, last, largest):
    value, position = values[last], positions[last]
    before = last - 1
    while _before(value, values[before], largest):
        values[last], positions[last] = values[before], positions[before]
        last = before
        before -= 1
    values[last], positions[last] = value, position


def _insertion_sort(values, positions, first, last, largest):
    if first == last:
        return
    for i in range(first + 1, last):
        if _before(values[i], values[first], largest):
            value, position = values[i], positions[i]
            for j in range(i, first, -1):
                values[j], positions[j] = values[j - 1], positions[j - 1]
            values[first], positions[first] = value, position
        else:
            _linear_insert(values, positions, i, largest)


def _sort(values, positions, first, last, largest):
    """std::sort: introsort loop (recursing on the right part), then a final insertion sort."""
    if last - first < 2:
        return
    stack = [(first, last, 2 * _floor_log2(last - first))]
    while stack:
        low, high, depth = stack.pop()
        while high - low > THRESHOLD:
            if depth == 0:
                _partial_sort(values, positions, low, high, high, largest)
                break
            depth -= 1
            cut = _partition_pivot(values, positions, low, high, largest)
            stack.append((cut, high, depth))
            high = cut
    if last - first > THRESHOLD:
        _insertion_sort(values, positions, first, first + THRESHOLD, largest)
        for i in range(first + THRESHOLD, last):
            _linear_insert(values, positions, i, largest)
    else:
        _insertion_sort(values, positions, first, last, largest)


def _nth_element(values, positions, first, nth, last, largest):
    """std::nth_element: introselect, then an insertion sort of the last small range."""
    if first == last or nth == last:
        return
    depth = 2 * _floor_log2(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(values, positions, first, nth + 1, last, largest)
            _swap(values, positions, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(values, positions, first, last, largest)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(values, positions, first, last, largest)


EXACT_TIES_BUDGET = 50_000  # elements: beyond it ``topk`` and ``sort`` order ties stably


def sort_positions(rows, descending):
    """The order an unstable ``sort`` gives each row of ``rows`` (n_rows, n): std::sort of the
    (value, position) pairs on their values (ATen's SortingKernel.cpp), which does not keep equal
    values in their order once a row is longer than ``THRESHOLD``."""
    count, n = rows.shape
    found = np.empty((count, n), np.int64)
    for r, row in enumerate(rows.tolist()):
        positions = list(range(n))
        _sort(row, positions, 0, n, descending)
        found[r] = positions
    return found


def topk_positions(rows, k, largest, sorted_):
    """The positions ``topk`` picks in each row of ``rows`` (n_rows, n), as TopKImpl.h does.
    The rows are read as Python numbers (exact; NaN compares as in C++)."""
    count, n = rows.shape
    found = np.empty((count, k), np.int64)
    if k == 0:
        return found
    for r, row in enumerate(rows.tolist()):
        positions = list(range(n))
        if k * 64 <= n:
            _partial_sort(row, positions, 0, k, n, largest)
        else:
            _nth_element(row, positions, 0, k - 1, n, largest)
            if sorted_:
                _sort(row, positions, 0, k - 1, largest)
        found[r] = positions[:k]
    return found
