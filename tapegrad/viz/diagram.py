"""The picture-independent description of a graph: labelled boxes and the arrows between them.

Every source (the autograd tape, a compiled function's IR) is turned into a ``Diagram`` first; the
DOT writer and the matplotlib drawing both read only this, so the two pictures always agree.
"""

__all__ = ["Diagram", "Box", "FILL_COLORS", "format_shape"]

# torchviz's palette: outputs green, leaves blue, operations white; hex so DOT and matplotlib agree.
FILL_COLORS = {
    "output": "#caff70",   # graphviz darkolivegreen1
    "leaf": "#add8e6",     # lightblue
    "op": "#ffffff",
    "constant": "#e8e8e8",  # a value captured while tracing a compiled function
}


class Box:
    """One node of the picture: a first line (the name) and detail lines under it; filled with
    its kind's colour unless ``fill`` (a ``#rrggbb`` colour) says otherwise."""

    __slots__ = ("key", "lines", "kind", "fill")

    def __init__(self, key, lines, kind, fill=None):
        if kind not in FILL_COLORS:
            raise ValueError(f"unknown box kind {kind!r}; expected one of {sorted(FILL_COLORS)}")
        self.key = key
        self.lines = tuple(lines)
        self.kind = kind
        self.fill = fill or FILL_COLORS[kind]


class Diagram:
    """Boxes in insertion order (the drawing uses it as the left-to-right hint) and arrows
    ``(source key, target key)`` pointing the way data flows in the forward pass."""

    def __init__(self):
        self.boxes = {}
        self.edges = []

    def add_box(self, key, lines, kind, fill=None):
        self.boxes[key] = Box(key, lines, kind, fill)

    def add_edge(self, source, target):
        self.edges.append((source, target))

    def __contains__(self, key):
        return key in self.boxes


def format_shape(shape):
    """``(2, 3)`` for a 2×3 tensor and ``()`` for a scalar, as torchviz labels sizes."""
    return "(" + ", ".join(str(n) for n in shape) + ")"
