"""A layered (Sugiyama-style) layout computed in pure Python, so pictures need no Graphviz.

Steps, each a small function: put every box on a layer (just above its nearest consumer, then
moved towards the side with more arrows, which shortens them as dot's ranking does); break arrows
that span several layers with invisible waypoints; order each layer to reduce crossings (barycenter
sweeps and neighbour swaps, keeping the best order seen); then place boxes horizontally as close
to their neighbours' mean as the minimum gaps allow (isotonic regression, so the placement is the
least-squares optimum for the given order). Units are points.
"""

__all__ = ["Layout", "layered_layout"]

LAYER_GAP = 30.0
BOX_GAP = 16.0
WAYPOINT_WIDTH = 6.0
BEND = 10.0
ORDER_SWEEPS = 8
PLACE_SWEEPS = 6


class Layout:
    """Box centres (``positions``) and sizes, arrow polylines (``routes``, one per edge, in the
    diagram's edge order) and the overall ``width``/``height``; y grows downwards."""

    def __init__(self, positions, sizes, routes, width, height):
        self.positions = positions
        self.sizes = sizes
        self.routes = routes
        self.width = width
        self.height = height


class _Waypoint:
    """A bend point of an arrow that crosses a layer without stopping there."""

    __slots__ = ()


def layered_layout(keys, sizes, edges):
    """Lay out boxes ``keys`` (in hint order) of ``sizes[key] = (width, height)`` joined by
    ``edges`` ``(source, target)`` drawn downwards. Raises ValueError on a cycle."""
    layer_of = _assign_layers(keys, edges)
    layers, up, down, chains = _split_long_edges(keys, layer_of, edges)
    layers = _order_layers(layers, up, down)
    widths = {v: sizes[v][0] if v in sizes else WAYPOINT_WIDTH for layer in layers for v in layer}
    xs = _place_horizontally(layers, widths, up, down)
    ys, height = _place_vertically(layers, sizes)
    left = min((xs[v] - widths[v] / 2 for v in xs), default=0.0)
    right = max((xs[v] + widths[v] / 2 for v in xs), default=0.0)
    positions = {key: (xs[key] - left, ys[key]) for key in keys}
    routes = [_route(chain, xs, ys, sizes, left, bend) for chain, bend in zip(chains, _bends(edges))]
    return Layout(positions, dict(sizes), routes, right - left, height)


def _assign_layers(keys, edges):
    """Layer index from the top: a box's distance (in arrows) from the furthest sink, counted down."""
    pending_out = {key: 0 for key in keys}
    sources_of = {key: [] for key in keys}
    for source, target in edges:
        pending_out[source] += 1
        sources_of[target].append(source)
    height = dict.fromkeys(keys, 0)
    ready = [key for key in keys if pending_out[key] == 0]
    done = 0
    while ready:
        target = ready.pop()
        done += 1
        for source in sources_of[target]:
            height[source] = max(height[source], height[target] + 1)
            pending_out[source] -= 1
            if pending_out[source] == 0:
                ready.append(source)
    if done != len(keys):
        raise ValueError("cannot lay out a graph with a cycle")
    top = max(height.values(), default=0)
    layer_of = {key: top - h for key, h in height.items()}
    _shorten_edges(keys, edges, layer_of)
    lowest = min(layer_of.values(), default=0)
    return {key: layer - lowest for key, layer in layer_of.items()}


def _shorten_edges(keys, edges, layer_of):
    """Move boxes with more arrows in than out up (and the reverse down) as far as their
    neighbours allow: the total arrow length is linear in a box's layer, so this greedy
    step never lengthens it and stops."""
    sources_of = {key: [] for key in keys}
    targets_of = {key: [] for key in keys}
    for source, target in edges:
        targets_of[source].append(target)
        sources_of[target].append(source)
    moved = True
    while moved:
        moved = False
        for key in keys:
            pull = len(sources_of[key]) - len(targets_of[key])
            if pull > 0:
                layer = max(layer_of[s] for s in sources_of[key]) + 1
            elif pull < 0:
                layer = min(layer_of[t] for t in targets_of[key]) - 1
            else:
                continue
            if layer != layer_of[key]:
                layer_of[key] = layer
                moved = True


def _split_long_edges(keys, layer_of, edges):
    """Layers as lists of vertices (boxes and waypoints), neighbour lists one layer up/down, and
    for each edge the chain of vertices it passes through."""
    n_layers = max(layer_of.values(), default=-1) + 1
    layers = [[] for _ in range(n_layers)]
    for key in keys:
        layers[layer_of[key]].append(key)
    up = {key: [] for key in keys}
    down = {key: [] for key in keys}
    chains, first_chain = [], {}
    for source, target in edges:
        if (source, target) in first_chain:  # a repeated arrow (x * x) shares the first's waypoints
            chains.append(first_chain[source, target])
            continue
        chain = [source]
        for layer in range(layer_of[source] + 1, layer_of[target]):
            waypoint = _Waypoint()
            layers[layer].append(waypoint)
            up[waypoint], down[waypoint] = [], []
            chain.append(waypoint)
        chain.append(target)
        for above, below in zip(chain, chain[1:]):
            down[above].append(below)
            up[below].append(above)
        chains.append(chain)
        first_chain[source, target] = chain
    return layers, up, down, chains


def _order_layers(layers, up, down):
    """Barycenter sweeps, alternately upwards (from the outputs, where the walk started) and
    downwards, ties kept in the diagram's order; returns the order with fewest crossings."""
    layers = [list(layer) for layer in layers]
    hint = {v: p for layer in layers for p, v in enumerate(layer)}
    best, best_crossings = [list(layer) for layer in layers], _crossings(layers, down)
    for sweep in range(ORDER_SWEEPS):
        upwards = sweep % 2 == 0
        indices = range(len(layers) - 2, -1, -1) if upwards else range(1, len(layers))
        for i in indices:
            reference = layers[i + 1] if upwards else layers[i - 1]
            neighbours = down if upwards else up
            position = {v: p for p, v in enumerate(reference)}
            current = {v: p for p, v in enumerate(layers[i])}
            layers[i].sort(key=lambda v: (_barycenter(neighbours[v], position, current[v]), hint[v]))
        _transpose(layers, up, down)
        crossings = _crossings(layers, down)
        if crossings < best_crossings:
            best, best_crossings = [list(layer) for layer in layers], crossings
    return best


def _barycenter(neighbours, position, fallback):
    if not neighbours:
        return fallback
    return sum(position[n] for n in neighbours) / len(neighbours)


def _transpose(layers, up, down):
    """Swap neighbours in a layer while that removes crossings (dot's "transpose" step)."""
    improved = True
    while improved:
        improved = False
        for i, layer in enumerate(layers):
            above = {v: p for p, v in enumerate(layers[i - 1])} if i > 0 else {}
            below = {v: p for p, v in enumerate(layers[i + 1])} if i + 1 < len(layers) else {}
            for j in range(len(layer) - 1):
                left, right = layer[j], layer[j + 1]
                if (_pair_crossings(right, left, up, down, above, below)
                        < _pair_crossings(left, right, up, down, above, below)):
                    layer[j], layer[j + 1] = right, left
                    improved = True


def _pair_crossings(left, right, up, down, above, below):
    """Crossings between the arrows of two neighbours when ``left`` is placed left of ``right``."""
    return (sum(1 for a in up[left] for b in up[right] if above[a] > above[b])
            + sum(1 for a in down[left] for b in down[right] if below[a] > below[b]))


def _crossings(layers, down):
    total = 0
    for upper, lower in zip(layers, layers[1:]):
        position = {v: p for p, v in enumerate(lower)}
        ends = [(i, position[w]) for i, v in enumerate(upper) for w in down[v]]
        total += sum(1 for a, (i, p) in enumerate(ends) for j, q in ends[a + 1:]
                     if (i - j) * (p - q) < 0)
    return total


def _place_horizontally(layers, widths, up, down):
    xs = {}
    for layer in layers:
        _place_layer(layer, [0.0] * len(layer), widths, xs)
    for sweep in range(PLACE_SWEEPS + 1):
        if sweep == PLACE_SWEEPS:          # a last pass balances between both neighbours
            order, neighbours = range(len(layers)), lambda v: up[v] + down[v]
        elif sweep % 2 == 0:
            order, neighbours = range(len(layers)), lambda v: up[v]
        else:
            order, neighbours = range(len(layers) - 1, -1, -1), lambda v: down[v]
        for i in order:
            desired = [_mean_x(neighbours(v), xs, xs[v]) for v in layers[i]]
            _place_layer(layers[i], desired, widths, xs)
    return xs


def _mean_x(neighbours, xs, fallback):
    return sum(xs[n] for n in neighbours) / len(neighbours) if neighbours else fallback


def _place_layer(layer, desired, widths, xs):
    """Least-squares positions near ``desired`` keeping the order and the minimum gaps."""
    offsets = [0.0]
    for left, right in zip(layer, layer[1:]):
        offsets.append(offsets[-1] + (widths[left] + widths[right]) / 2 + BOX_GAP)
    shifted = _isotonic([d - o for d, o in zip(desired, offsets)])
    for v, s, o in zip(layer, shifted, offsets):
        xs[v] = s + o


def _isotonic(values):
    """Pool-adjacent-violators: the non-decreasing sequence closest to ``values`` in least squares."""
    blocks = []  # [mean, count]
    for value in values:
        blocks.append([value, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, count = blocks.pop()
            blocks[-1] = [(blocks[-1][0] * blocks[-1][1] + mean * count) / (blocks[-1][1] + count),
                          blocks[-1][1] + count]
    return [mean for mean, count in blocks for _ in range(count)]


def _place_vertically(layers, sizes):
    ys, top = {}, 0.0
    for layer in layers:
        height = max((sizes[v][1] for v in layer if v in sizes), default=0.0)
        for v in layer:
            ys[v] = top + height / 2
        top += height + LAYER_GAP
    return ys, max(top - LAYER_GAP, 0.0)


def _bends(edges):
    """Sideways offsets that keep repeated arrows apart: 0 for the first, then ±BEND, ±2·BEND …"""
    seen = {}
    for edge in edges:
        k = seen[edge] = seen.get(edge, -1) + 1
        yield (k + 1) // 2 * BEND * (1 if k % 2 else -1)


def _route(chain, xs, ys, sizes, left, bend):
    source, *waypoints, target = chain
    start = (xs[source] - left, ys[source] + sizes[source][1] / 2)
    end = (xs[target] - left, ys[target] - sizes[target][1] / 2)
    middle = [(xs[w] - left, ys[w]) for w in waypoints]
    if bend and not middle:
        middle = [((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)]
    return [start, *((x + bend, y) for x, y in middle), end]
