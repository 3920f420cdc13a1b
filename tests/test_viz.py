"""tapegrad.viz: the DOT text of a recorded graph, the pure-Python layout and the matplotlib path."""
import re

import numpy as np
import pytest

import tapegrad
from tapegrad.viz import make_dot, to_dot
from tapegrad.viz.layout import layered_layout

NODE = re.compile(r'^\t(n\d+) \[label="((?:[^"\\]|\\.)*)" fillcolor="(#[0-9a-f]{6})"\]$')
EDGE = re.compile(r"^\t(n\d+) -> (n\d+)$")
GREEN, BLUE, WHITE = "#caff70", "#add8e6", "#ffffff"


def parse_dot(source):
    """(labels by id as line tuples, fill colours by id, edges as (source, target) id pairs)."""
    lines = source.splitlines()
    assert lines[0] == "digraph {" and lines[-1] == "}"
    labels, fills, edges = {}, {}, []
    for line in lines[1:-1]:
        if node := NODE.match(line):
            key, label, fill = node.groups()
            labels[key] = tuple(label.replace('\\"', '"').split("\\n"))
            fills[key] = fill
        elif edge := EDGE.match(line):
            edges.append(edge.groups())
        else:
            assert line.startswith(("\tgraph [", "\tnode [")), line
    return labels, fills, edges


def by_title(labels, title):
    return [key for key, lines in labels.items() if lines[0] == title]


def leaves():
    x = tapegrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = tapegrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    return x, w


def test_dot_shows_the_chain_from_leaves_to_output():
    x, w = leaves()
    y = (x * w).sum()
    labels, fills, edges = parse_dot(to_dot(y, params={"x": x, "w": w}))
    (out,) = [k for k, f in fills.items() if f == GREEN]
    (sum_node,) = by_title(labels, "SumBackward0")
    (mul,) = by_title(labels, "MulBackward0")
    accumulators = by_title(labels, "AccumulateGrad")
    (leaf_x,) = by_title(labels, "x")
    (leaf_w,) = by_title(labels, "w")
    assert labels[out] == ("()",)
    assert labels[leaf_x] == ("x", "(2, 3)", "grad None") and fills[leaf_x] == BLUE
    assert labels[leaf_w] == ("w", "(3)", "grad None") and fills[leaf_w] == BLUE
    assert len(accumulators) == 2
    accumulator_of = dict(edges)  # every box but the output has exactly one arrow out here
    assert {accumulator_of[leaf_x], accumulator_of[leaf_w]} == set(accumulators)
    assert sorted(edges) == sorted([(sum_node, out), (mul, sum_node),
                                    *[(acc, mul) for acc in accumulators],
                                    (leaf_x, accumulator_of[leaf_x]),
                                    (leaf_w, accumulator_of[leaf_w])])
    assert fills[mul] == fills[sum_node] == WHITE


def test_op_boxes_show_input_and_saved_shapes_then_freed():
    x, w = leaves()
    y = (x * w).exp().sum()
    labels, _, _ = parse_dot(to_dot(y))
    assert labels[by_title(labels, "MulBackward0")[0]] == (
        "MulBackward0", "in (2, 3) (3)", "saved a (2, 3)", "saved b (3)")
    assert labels[by_title(labels, "ExpBackward0")[0]] == (
        "ExpBackward0", "in (2, 3)", "saved out (2, 3)")
    y.backward()
    labels, _, _ = parse_dot(to_dot(y))
    assert labels[by_title(labels, "MulBackward0")[0]][2:] == ("saved: freed",)
    leaf_labels = [lines for lines in labels.values() if lines[-1].startswith("grad")]
    assert sorted(leaf_labels) == [("(2, 3)", "grad (2, 3)"), ("(3)", "grad (3)")]


def test_retain_graph_keeps_saved_shapes():
    x, w = leaves()
    y = (x * w).sum()
    y.backward(retain_graph=True)
    labels, _, _ = parse_dot(to_dot(y))
    assert "saved a (2, 3)" in labels[by_title(labels, "MulBackward0")[0]]


def test_saved_tensor_modified_in_place_is_named():
    x, _ = leaves()
    a = x * 2
    y = (a * a).sum()
    a.add_(1)
    labels, _, _ = parse_dot(to_dot(y))
    mul_labels = {labels[k] for k in by_title(labels, "MulBackward0")}
    assert ("MulBackward0", "in (2, 3) (2, 3)", "saved: modified in place") in mul_labels


def test_inputs_without_grad_have_no_box_and_no_edge():
    x, _ = leaves()
    constant = tapegrad.ones(2, 3)
    y = x * constant
    labels, _, edges = parse_dot(to_dot(y))
    (mul,) = by_title(labels, "MulBackward0")
    assert [source for source, target in edges if target == mul] == by_title(labels, "AccumulateGrad")
    assert len(labels) == 4  # output, Mul, AccumulateGrad, x


def test_a_leaf_used_twice_has_one_accumulator_and_two_edges():
    x, _ = leaves()
    y = x * x
    labels, _, edges = parse_dot(to_dot(y))
    (acc,) = by_title(labels, "AccumulateGrad")
    (mul,) = by_title(labels, "MulBackward0")
    assert edges.count((acc, mul)) == 2


def test_several_outputs_share_one_graph():
    x, w = leaves()
    h = x * w
    labels, fills, edges = parse_dot(to_dot((h.sum(), h.mean())))
    assert sum(f == GREEN for f in fills.values()) == 2
    assert len(by_title(labels, "MulBackward0")) == 1
    (mul,) = by_title(labels, "MulBackward0")
    assert sum(source == mul for source, _ in edges) == 2


def test_node_names_match_pytorch():
    torch = pytest.importorskip("torch")

    def expression(lib, x, w):
        return ((x @ w).tanh() ** 2 + x.sum(0).exp().mean()).sigmoid().sum()

    x_np = np.random.default_rng(0).standard_normal((2, 3))
    w_np = np.random.default_rng(1).standard_normal((3,))
    ours = expression(tapegrad, tapegrad.tensor(x_np, requires_grad=True),
                      tapegrad.tensor(w_np, requires_grad=True))
    theirs = expression(torch, torch.tensor(x_np, requires_grad=True),
                        torch.tensor(w_np, requires_grad=True))
    labels, _, _ = parse_dot(to_dot(ours))
    our_names = sorted(lines[0] for lines in labels.values() if lines[0].endswith(("Backward0",
                                                                                    "Backward1",
                                                                                    "Grad")))
    assert our_names == sorted(_torch_node_names(theirs.grad_fn))


def _torch_node_names(root):
    names, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(type(node).__name__)
        stack.extend(child for child, _ in node.next_functions)
    return names


def test_custom_function_node_shows_its_saved_tensors():
    class Square(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x, _ = leaves()
    labels, _, _ = parse_dot(to_dot(Square.apply(x)))
    assert labels[by_title(labels, "SquareBackward")[0]] == ("SquareBackward", "saved 0 (2, 3)")


def test_outputs_of_one_node_share_its_box():
    compiler = pytest.importorskip("tapegrad.compile")
    pair = compiler.compile(lambda x: (x * 2, x.exp()))
    x = tapegrad.ones(3, requires_grad=True)
    pair(x)
    doubled, exponential = pair(x)  # the compiled call: one backward node for both outputs
    assert doubled.grad_fn is exponential.grad_fn
    labels, _, edges = parse_dot(to_dot((doubled, exponential)))
    (node,) = by_title(labels, "CompiledFunctionBackward")
    assert sum(source == node for source, _ in edges) == 2
    assert len(by_title(labels, "AccumulateGrad")) == 1
    assert sum(target == node for _, target in edges) == 1


def test_tensor_without_history_is_a_single_box():
    labels, fills, edges = parse_dot(to_dot(tapegrad.zeros(4)))
    assert list(labels.values()) == [("(4)",)] and edges == []


def test_deep_graph_is_walked_without_recursion():
    y = x = tapegrad.tensor(1.0, requires_grad=True)
    for _ in range(5000):
        y = y * 1.0001
    labels, _, edges = parse_dot(to_dot(y))
    assert len(by_title(labels, "MulBackward0")) == 5000
    assert len(edges) == 5000 + 2


def test_labels_are_escaped():
    x, _ = leaves()
    labels, _, _ = parse_dot(to_dot(x * 2, params={'say "hi"\\': x}))
    assert ('say "hi"\\\\', "(2, 3)", "grad None") in labels.values()


def test_bad_arguments_raise_type_error():
    x, _ = leaves()
    with pytest.raises(TypeError, match="expected a Tensor or a sequence of Tensors, got a list "
                                        "holding Tensor, list"):
        to_dot([x, [x]])
    with pytest.raises(TypeError, match="expected a Tensor or a sequence of Tensors, got int"):
        to_dot(3)
    with pytest.raises(TypeError, match=r"params\['x'\] is a ndarray, not a Tensor"):
        to_dot(x * 2, params={"x": np.ones(3)})


# -- the layout, independent of matplotlib -----------------------------------------------------

def random_dag(seed, n=25):
    rng = np.random.default_rng(seed)
    keys = [f"v{i}" for i in range(n)]
    edges = [(keys[i], keys[j]) for j in range(n) for i in range(j) if rng.random() < 0.12]
    sizes = {k: (float(rng.integers(20, 120)), float(rng.integers(15, 50))) for k in keys}
    return keys, sizes, edges


@pytest.mark.parametrize("seed", range(6))
def test_layout_points_arrows_down_and_boxes_do_not_overlap(seed):
    keys, sizes, edges = random_dag(seed)
    layout = layered_layout(keys, sizes, edges)
    box = {k: (x - sizes[k][0] / 2, y - sizes[k][1] / 2, x + sizes[k][0] / 2, y + sizes[k][1] / 2)
           for k, (x, y) in layout.positions.items()}
    for left, top, right, bottom in box.values():
        assert -1e-9 <= left and right <= layout.width + 1e-9
        assert -1e-9 <= top and bottom <= layout.height + 1e-9
    for a in keys:
        for b in keys:
            if a < b:
                ax0, ay0, ax1, ay1 = box[a]
                bx0, by0, bx1, by1 = box[b]
                assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)
    assert len(layout.routes) == len(edges)
    for (source, target), route in zip(edges, layout.routes):
        assert route[0] == (layout.positions[source][0], box[source][3])
        assert route[-1] == (layout.positions[target][0], box[target][1])
        assert all(p[1] < q[1] for p, q in zip(route, route[1:]))


def test_layout_rejects_a_cycle():
    with pytest.raises(ValueError, match="cycle"):
        layered_layout(["a", "b"], {"a": (10, 10), "b": (10, 10)}, [("a", "b"), ("b", "a")])


def test_layout_keeps_a_chain_straight_and_orders_inputs_left_to_right():
    keys = ["out", "op", "left", "right"]
    sizes = dict.fromkeys(keys, (40.0, 20.0))
    layout = layered_layout(keys, sizes, [("op", "out"), ("left", "op"), ("right", "op")])
    assert layout.positions["out"][0] == pytest.approx(layout.positions["op"][0])
    assert layout.positions["left"][0] < layout.positions["op"][0] < layout.positions["right"][0]


# -- pictures -----------------------------------------------------------------------------------

@pytest.fixture
def agg():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    yield plt
    plt.close("all")


def test_draw_paints_one_box_per_node_and_one_arrow_per_edge(agg):
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    x, w = leaves()
    y = (x * w).sum() + x.exp().mean()
    labels, _, edges = parse_dot(to_dot(y, params={"x": x}))
    ax = tapegrad.viz.draw(y, params={"x": x})
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(boxes) == len(labels) and len(arrows) == len(edges)
    assert sorted(t.get_text() for t in ax.texts) == sorted("\n".join(v) for v in labels.values())
    assert {t.get_fontsize() for t in ax.texts} == {9.0}


def test_draw_into_a_small_axes_shrinks_the_text(agg):
    x, w = leaves()
    _, ax = agg.subplots(figsize=(1.0, 1.0))
    assert tapegrad.viz.draw((x * w).sum(), ax=ax) is ax
    sizes = {t.get_fontsize() for t in ax.texts}
    assert len(sizes) == 1 and 0 < sizes.pop() < 9.0


def test_without_dot_the_notebook_picture_is_a_matplotlib_png(agg, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "")
    x, w = leaves()
    graph = make_dot((x * w).sum())
    assert graph._repr_svg_() is None
    assert graph._repr_png_().startswith(b"\x89PNG\r\n\x1a\n")
    path = graph.render(str(tmp_path / "g"), format="svg")
    assert path == str(tmp_path / "g.svg")
    assert "<svg" in (tmp_path / "g.svg").read_text()
    assert (tmp_path / "g").read_text() == graph.source


def test_with_dot_the_picture_is_graphviz_svg(tmp_path):
    from tapegrad.viz.dot import dot_program
    if dot_program() is None:
        pytest.skip("Graphviz's dot is not installed")
    x, w = leaves()
    graph = make_dot((x * w).sum(), params={"x": x})
    svg = graph._repr_svg_()
    assert "<svg" in svg and "MulBackward0" in svg and ">x<" in svg
    assert graph._repr_png_() is None
    path = graph.render("g", directory=str(tmp_path), format="png", cleanup=True)
    assert open(path, "rb").read().startswith(b"\x89PNG") and not (tmp_path / "g").exists()


# -- compiled mode ------------------------------------------------------------------------------

def hand_built_graph():
    """{ lambda a:f32[4,3] b:f32[3] ; c:f32[]=2.0 . let d = mul a b; e = mul d c; f = sum_all e
    in (f,) } — built directly, so no kernel is compiled."""
    ir = pytest.importorskip("tapegrad.compile.ir")
    a, b, two = ir.Value((4, 3), np.float32), ir.Value((3,), np.float32), ir.Value((), np.float32)
    d, e, f = ir.Value((4, 3), np.float32), ir.Value((4, 3), np.float32), ir.Value((), np.float32)
    nodes = [ir.Node("mul", (a, b), (d,), {}), ir.Node("mul", (d, two), (e,), {}),
             ir.Node("sum_all", (e,), (f,), {"dims": None, "keepdim": False})]
    return ir.Graph([a, b], nodes, [f], {two: np.array(2.0, np.float32)})


def test_ir_graph_boxes_use_the_ir_names_and_types():
    labels, fills, edges = parse_dot(to_dot(hand_built_graph()))
    key = {lines[0]: k for k, lines in labels.items()}
    assert labels[key["a"]] == ("a", "f32[4,3]") and fills[key["a"]] == BLUE
    assert labels[key["c = 2.0"]] == ("c = 2.0", "f32[]")
    assert labels[key["output 0"]] == ("output 0", "f:f32[]") and fills[key["output 0"]] == GREEN
    (first, second) = [k for k, lines in labels.items() if lines[0].startswith("mul")]
    (total,) = [k for k, lines in labels.items() if lines[0].startswith("sum_all")]
    assert labels[first][1:] == ("d:f32[4,3]",) and labels[second][1:] == ("e:f32[4,3]",)
    assert labels[total][1:] == ("f:f32[]", "dims=None keepdim=False")
    assert sorted(edges) == sorted([(key["a"], first), (key["b"], first), (first, second),
                                    (key["c = 2.0"], second), (second, total),
                                    (total, key["output 0"])])


def test_ir_nodes_of_one_fused_loop_share_a_colour():
    labels, fills, _ = parse_dot(to_dot(hand_built_graph()))
    op_keys = [k for k, lines in labels.items() if "[loop 0]" in lines[0]]
    assert len(op_keys) == 3  # the elementwise muls and the reduction fuse into one loop nest
    assert len({fills[k] for k in op_keys}) == 1 and fills[op_keys[0]] not in (WHITE, BLUE, GREEN)


def test_compiled_function_picture_and_its_backward_node():
    compiler = pytest.importorskip("tapegrad.compile")

    def scaled_sum(x, weight):
        return (x * weight).tanh().sum()

    compiled = compiler.compile(scaled_sum)
    with pytest.raises(RuntimeError, match="has not been called yet"):
        to_dot(compiled)
    x = tapegrad.ones(8)
    weight = tapegrad.full((8,), 0.5, requires_grad=True)
    compiled(x, weight)  # the first call traces (and runs eagerly)
    y = compiled(x, weight)
    labels, _, _ = parse_dot(to_dot(compiled))
    assert {lines[0] for lines in labels.values()} >= {"x (a)", "weight (b)", "output 0"}
    tape, _, _ = parse_dot(to_dot(y))
    (node,) = by_title(tape, "CompiledFunctionBackward")
    assert tape[node][1:] and all(line.startswith("saved ") for line in tape[node][1:])
    y.backward()
    tape, _, _ = parse_dot(to_dot(y))
    assert tape[by_title(tape, "CompiledFunctionBackward")[0]][1:] == ("saved: freed",)
    with pytest.raises(TypeError, match="params names the leaves of an autograd graph"):
        make_dot(compiled, params={"weight": weight})
