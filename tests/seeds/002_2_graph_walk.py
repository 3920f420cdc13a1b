import torch

w = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
x, y = torch.tensor(2.0), torch.tensor(3.0)   # one data point; no grad needed

y_hat = w * x + b            # prediction: 1.0
err = y_hat - y              # error: -2.0
loss = err ** 2              # squared error: 4.0

# Walk the recorded graph backwards from the loss, one node at a time.
node = loss.grad_fn
while node is not None:
    print(type(node).__name__)
    nxt = [n for n, _ in node.next_functions if n is not None and type(n).__name__ != "AccumulateGrad"]
    node = nxt[0] if nxt else None

loss.backward()
print("autograd:", w.grad.item(), b.grad.item())

# Chain rule by hand: dL/dw = 2*err*x, dL/db = 2*err*1
print("by hand: ", (2 * err * x).item(), (2 * err).item())
