# Inspecting and instrumenting the autograd graph: walking grad_fn.next_functions to print it,
# Node.register_hook / register_prehook, and torch.autograd.graph.register_multi_grad_hook.
import torch


def print_graph(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None:
        return
    name = type(fn).__name__
    extra = ""
    if hasattr(fn, "variable"):
        extra = f" -> leaf {tuple(fn.variable.shape)}"
    print("  " * depth + name + extra)
    if fn in seen:
        return
    seen.add(fn)
    for next_fn, idx in fn.next_functions:
        print_graph(next_fn, depth + 1, seen)


w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([[1.0, -1.0], [2.0, 0.0]])
h = torch.relu(x @ w + b)
loss = (h * h).mean()
print_graph(loss.grad_fn)
print(loss.grad_fn.next_functions[0][1], len(loss.grad_fn.next_functions))

log = []


def node_hook(grad_inputs, grad_outputs):
    log.append(("hook", [None if g is None else tuple(g.shape) for g in grad_inputs],
                [tuple(g.shape) for g in grad_outputs]))


def node_prehook(grad_outputs):
    log.append(("prehook", [tuple(g.shape) for g in grad_outputs]))
    return (grad_outputs[0] * 2,)


relu_node = h.grad_fn
h1 = relu_node.register_hook(node_hook)
h2 = relu_node.register_prehook(node_prehook)
loss.backward(retain_graph=True)
for entry in log:
    print(entry)
print("w.grad", w.grad)

h1.remove()
h2.remove()
log.clear()
w.grad = None
loss.backward()
print("after remove:", log, w.grad)

# multi grad hook: fires once all gradients for the given tensors are computed
a = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0], requires_grad=True)
seen = []


def multi(grads):
    seen.append([None if g is None else g.tolist() for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, c), multi)
(a.sum() * c).sum().backward()
print("all:", seen)
seen.clear()
(a * 2).sum().backward()
print("only a:", seen)
handle.remove()

seen.clear()
handle_any = torch.autograd.graph.register_multi_grad_hook((a, c), lambda g: seen.append(g.tolist()), mode="any")
(a * c).sum().backward()
print("any:", seen)
handle_any.remove()

# node metadata and name
y = (a * 3).sum()
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
y.grad_fn.metadata["tag"] = "sum-node"
print(y.grad_fn.metadata)
