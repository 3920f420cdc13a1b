# Two losses over one shared trunk: backward(retain_graph=True) twice vs summing the losses,
# torch.autograd.backward on a list, and what happens without retain_graph.
import torch
import torch.nn as nn


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(3, 4)
        self.head_a = nn.Linear(4, 1)
        self.head_b = nn.Linear(4, 2)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + 0.5 * i).reshape(p.shape))

    def forward(self, x):
        h = torch.tanh(self.trunk(x))
        return self.head_a(h), self.head_b(h)


x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
ya = torch.tensor([[1.0], [0.0]])
yb = torch.tensor([1, 0])

model = TwoHeads()
out_a, out_b = model(x)
loss_a = nn.functional.mse_loss(out_a, ya)
loss_b = nn.functional.cross_entropy(out_b, yb)
print(loss_a, loss_b)

loss_a.backward(retain_graph=True)
trunk_after_a = model.trunk.weight.grad.clone()
print(model.head_b.weight.grad, trunk_after_a)
loss_b.backward()
separate = {n: p.grad.clone() for n, p in model.named_parameters()}
print(model.trunk.weight.grad)

model.zero_grad()
out_a, out_b = model(x)
total = nn.functional.mse_loss(out_a, ya) + nn.functional.cross_entropy(out_b, yb)
total.backward()
print(all(torch.allclose(separate[n], p.grad) for n, p in model.named_parameters()))

model.zero_grad()
out_a, out_b = model(x)
torch.autograd.backward([nn.functional.mse_loss(out_a, ya), nn.functional.cross_entropy(out_b, yb)])
print(all(torch.allclose(separate[n], p.grad) for n, p in model.named_parameters()))

# Weighted losses through grad_tensors
model.zero_grad()
out_a, out_b = model(x)
torch.autograd.backward([nn.functional.mse_loss(out_a, ya), nn.functional.cross_entropy(out_b, yb)],
                        grad_tensors=[torch.tensor(0.5), torch.tensor(2.0)])
print(model.head_a.bias.grad, model.head_b.bias.grad)

# Without retain_graph the second backward through the shared trunk fails
model.zero_grad()
out_a, out_b = model(x)
nn.functional.mse_loss(out_a, ya).backward()
try:
    nn.functional.cross_entropy(out_b, yb).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# A graph kept alive with retain_graph can be replayed; gradients keep accumulating
w = torch.tensor([1.0, -2.0], requires_grad=True)
y = (w.sigmoid() * w).sum()
for i in range(3):
    y.backward(retain_graph=True)
    print(i, w.grad)
y.backward()
print(w.grad)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])

# autograd.grad frees the graph too, unless retain_graph=True
z = (w * w.exp()).sum()
g1, = torch.autograd.grad(z, w, retain_graph=True)
g2, = torch.autograd.grad(z, w)
print(g1, torch.equal(g1, g2))
try:
    torch.autograd.grad(z, w)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])

# Ops that save nothing can be backpropagated twice without retain_graph
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = (p + 3).sum()
q.backward()
q.backward()
print(p.grad)
