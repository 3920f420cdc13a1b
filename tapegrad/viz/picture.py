"""The public drawing functions, named as torchviz names them.

``make_dot(var)`` returns a ``Digraph``: its ``source`` is DOT text; it renders with Graphviz's
``dot`` when that program is installed and with the built-in matplotlib drawing otherwise, and shows
itself in a notebook either way. ``draw(var, ax)`` always uses matplotlib.
"""
import os
import sys

from .dot import dot_program, dot_source, run_dot
from .tape import tape_diagram

__all__ = ["Digraph", "make_dot", "to_dot", "draw"]


class Digraph:
    """A graph picture: DOT ``source`` plus rendering (the subset of ``graphviz.Digraph`` that
    torchviz users call)."""

    def __init__(self, diagram, format="svg"):
        self._diagram = diagram
        self.source = dot_source(diagram)
        self.format = format

    def __repr__(self):
        return f"<tapegrad.viz.Digraph with {len(self._diagram.boxes)} nodes>"

    def pipe(self, format=None):
        """The rendered picture as bytes (``dot`` when installed, else matplotlib)."""
        format = format or self.format
        if dot_program() is not None:
            return run_dot(self.source, format)
        return _matplotlib_drawing().diagram_image(self._diagram, format)

    def render(self, filename="Digraph.gv", directory=None, format=None, cleanup=False):
        """Write the DOT source to ``filename`` and the picture to ``filename.<format>``; returns
        the picture's path (as ``graphviz.Digraph.render`` does)."""
        format = format or self.format
        picture = self.pipe(format)
        source_path = filename if directory is None else os.path.join(directory, filename)
        if directory is not None:
            os.makedirs(directory, exist_ok=True)
        picture_path = f"{source_path}.{format}"
        with open(picture_path, "wb") as file:
            file.write(picture)
        if not cleanup:
            with open(source_path, "w") as file:
                file.write(self.source)
        return picture_path

    def _repr_svg_(self):
        return self.pipe("svg").decode() if dot_program() is not None else None

    def _repr_png_(self):
        if dot_program() is not None:
            return None  # the SVG is shown
        try:
            return self.pipe("png")
        except ModuleNotFoundError:
            return None  # neither Graphviz nor matplotlib: the notebook shows the repr text


def make_dot(var, params=None):
    """The graph of ``var`` as a ``Digraph``: the autograd tape of a tensor (or a sequence of
    tensors), whose leaves ``params`` names (e.g. ``dict(model.named_parameters())``); or the IR of
    a ``tapegrad.compile``d function (its newest forward kernel) or of an ``ir.Graph``."""
    return Digraph(_diagram_of(var, params))


def to_dot(var, params=None):
    """The graph of ``var`` as Graphviz DOT text."""
    return dot_source(_diagram_of(var, params))


def draw(var, ax=None, params=None):
    """Draw the graph of ``var`` with matplotlib (no Graphviz needed); returns the Axes."""
    return _matplotlib_drawing().draw_diagram(_diagram_of(var, params), ax)


def _diagram_of(var, params):
    if not _is_compiled_mode_object(var):
        return tape_diagram(var, params)
    if params is not None:
        raise TypeError("params names the leaves of an autograd graph; a compiled graph's inputs "
                        "are named after the function's arguments")
    from .ir_graph import compiled_diagram
    return compiled_diagram(var)


def _is_compiled_mode_object(var):
    # Only once the compiler is loaded can ``var`` be one of its objects: asking this way keeps
    # drawing a tape from importing the compiler (and Numba).
    compiler = sys.modules.get("tapegrad.compile")
    return compiler is not None and isinstance(var, (compiler.ir.Graph, compiler.CompiledFunction))


def _matplotlib_drawing():
    try:
        from . import drawing
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError("drawing a graph without Graphviz's 'dot' program needs "
                                  "matplotlib: pip install matplotlib") from exc
    return drawing
