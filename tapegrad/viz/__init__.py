"""Pictures of graphs: the autograd tape behind a tensor, named and styled as torchviz draws it,
and the IR of a ``tapegrad.compile``d function (its forward kernel's graph, fused loops coloured).

```python
from tapegrad.viz import make_dot, draw
dot = make_dot(loss, params=dict(model.named_parameters()))
dot.source            # Graphviz DOT text, always available
dot.render("loss")    # loss.svg: with Graphviz's dot if installed, else matplotlib
dot                   # in a notebook: shows the picture
draw(loss)            # a matplotlib drawing, laid out in Python (no Graphviz needed)
make_dot(compiled_fn) # after a call: the compiled forward graph, inputs named as the arguments
```
"""
from .picture import Digraph, draw, make_dot, to_dot

__all__ = ["Digraph", "make_dot", "to_dot", "draw"]
