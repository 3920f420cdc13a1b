"""Graphviz DOT text for a ``Diagram``, and rendering it with the ``dot`` program when installed.

The text is torchviz's style: filled monospace boxes, arrows in forward (data-flow) direction, so
the picture reads top to bottom from the leaves to the output.
"""
import shutil
import subprocess

__all__ = ["dot_source", "dot_program", "run_dot"]

_GRAPH_ATTRS = 'graph [size="12,12"]'
_NODE_ATTRS = ("node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 "
               "shape=box style=filled]")


def dot_source(diagram):
    """The diagram as a DOT ``digraph``; node ids are ``n0, n1, …`` in the diagram's order."""
    ids = {key: f"n{i}" for i, key in enumerate(diagram.boxes)}
    lines = ["digraph {", f"\t{_GRAPH_ATTRS}", f"\t{_NODE_ATTRS}"]
    for key, box in diagram.boxes.items():
        label = _quote("\n".join(box.lines))
        lines.append(f'\t{ids[key]} [label={label} fillcolor="{box.fill}"]')
    for source, target in diagram.edges:
        lines.append(f"\t{ids[source]} -> {ids[target]}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def dot_program():
    """Path of Graphviz's ``dot`` executable, or None when it is not on PATH."""
    return shutil.which("dot")


def run_dot(source, format):
    """Render DOT text with the ``dot`` program; returns the output file's bytes."""
    program = dot_program()
    if program is None:
        raise RuntimeError("the Graphviz 'dot' program is not on PATH; install Graphviz or draw "
                           "with tapegrad.viz.draw (matplotlib)")
    done = subprocess.run([program, f"-T{format}"], input=source.encode(), capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"dot -T{format} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
