"""The matplotlib picture of a ``Diagram``: boxes and arrows placed by ``layout.layered_layout``.

This is the path that needs no system packages; data coordinates are points, so at scale 1 a
box's text fits it exactly whatever the graph's size.
"""
import io

from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.path import Path

from .layout import layered_layout

__all__ = ["draw_diagram", "diagram_image"]

FONT_SIZE = 9.0
CHAR_WIDTH = 0.61      # DejaVu Sans Mono advance, in ems
LINE_HEIGHT = 1.25     # in ems
PADDING = 5.0          # points around the text
MARGIN = 6.0           # points around the picture
MAX_INCHES = 40.0      # a huge graph is shrunk to this, not drawn metres wide


def draw_diagram(diagram, ax=None):
    """Draw into ``ax`` (a new figure sized to the graph when None); returns the Axes."""
    layout = _layout(diagram)
    if ax is None:
        import matplotlib.pyplot as plt
        ax = plt.figure(figsize=_figsize(layout)).add_axes((0, 0, 1, 1))
    _paint(ax, diagram, layout)
    return ax


def diagram_image(diagram, format):
    """The picture as file bytes (png, svg, pdf …) without touching pyplot's global state."""
    layout = _layout(diagram)
    figure = Figure(figsize=_figsize(layout))
    _paint(figure.add_axes((0, 0, 1, 1)), diagram, layout)
    buffer = io.BytesIO()
    figure.savefig(buffer, format=format, dpi=100)
    return buffer.getvalue()


def _layout(diagram):
    sizes = {key: _box_size(box.lines) for key, box in diagram.boxes.items()}
    return layered_layout(list(diagram.boxes), sizes, diagram.edges)


def _box_size(lines):
    width = max(len(line) for line in lines) * CHAR_WIDTH * FONT_SIZE + 2 * PADDING
    height = len(lines) * LINE_HEIGHT * FONT_SIZE + 2 * PADDING
    return width, height


def _figsize(layout):
    width, height = (layout.width + 2 * MARGIN) / 72, (layout.height + 2 * MARGIN) / 72
    shrink = min(1.0, MAX_INCHES / max(width, height))
    return width * shrink, height * shrink


def _paint(ax, diagram, layout):
    ax.set_xlim(-MARGIN, layout.width + MARGIN)
    ax.set_ylim(-layout.height - MARGIN, MARGIN)
    ax.set_aspect("equal")
    ax.set_axis_off()
    scale = _points_per_unit(ax, layout)
    for key, box in diagram.boxes.items():
        (x, y), (width, height) = layout.positions[key], layout.sizes[key]
        ax.add_patch(FancyBboxPatch((x - width / 2, -y - height / 2), width, height,
                                    boxstyle="round,pad=0,rounding_size=3", facecolor=box.fill,
                                    edgecolor="black", linewidth=0.8))
        ax.text(x, -y, "\n".join(box.lines), ha="center", va="center", family="monospace",
                fontsize=FONT_SIZE * scale, linespacing=LINE_HEIGHT)
    for route in layout.routes:
        path = Path([(x, -y) for x, y in route])
        ax.add_patch(FancyArrowPatch(path=path, arrowstyle="-|>", mutation_scale=9 * scale,
                                     linewidth=0.8, color="black"))


def _points_per_unit(ax, layout):
    """How many typographic points one data unit spans in ``ax`` (1 in a figure we sized)."""
    figure = ax.get_figure()
    box = ax.get_position()
    width_pts = box.width * figure.get_figwidth() * 72
    height_pts = box.height * figure.get_figheight() * 72
    return min(width_pts / (layout.width + 2 * MARGIN), height_pts / (layout.height + 2 * MARGIN))
