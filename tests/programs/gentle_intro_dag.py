# "A Gentle Introduction to torch.autograd": what requires grad, and excluding from the DAG.
import torch

x = torch.ones(5, 5)
y = torch.zeros(5, 5)
z = torch.full((5, 5), 2.0, requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
print(b.grad_fn.name(), b.is_leaf, a.is_leaf, z.is_leaf)

c = (b * b).mean()
print(c, c.grad_fn.next_functions[0][0].name())
node = c.grad_fn
names = []
while node is not None:
    names.append(type(node).__name__)
    nexts = [n for n, _ in node.next_functions if n is not None]
    node = nexts[0] if nexts else None
print(" -> ".join(names))
c.backward()
print(z.grad[0])
print(z.grad.sum().item())
