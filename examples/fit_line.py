"""Fit y = w*x + b with nothing but tensors, autograd and a hand-written update.

The autograd tutorial's line fit, line for line, with tapegrad standing in for torch: no nn.Module,
no optimizer, just forward -> backward -> step -> zero_grad. It recovers y = 2x - 1 from 100 noisy
points. Run: python examples/fit_line.py
"""
import tapegrad as torch

torch.manual_seed(0)

# 1) Data: 100 points on the line y = 2x - 1, plus a little noise.
x = torch.linspace(-1, 1, 100)
y = 2 * x - 1 + 0.1 * torch.randn(100)

# 2) Parameters: leaf tensors that autograd should track.
w = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

lr = 0.1  # learning rate: how big each step is
for step in range(201):
    # Forward pass: PyTorch records every op into a graph.
    y_hat = w * x + b
    loss = ((y_hat - y) ** 2).mean()          # mean squared error

    # Backward pass: walk the graph, fill w.grad and b.grad.
    loss.backward()

    # Update: step against the gradient. no_grad() = "don't record this".
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad

    # Gradients ACCUMULATE (+=) on every backward(). Reset them, or the next
    # step adds this step's gradient on top. The Trainer in post 5 calls this
    # optimizer.zero_grad() at the start of every step for the same reason.
    w.grad.zero_()
    b.grad.zero_()

    if step % 40 == 0:
        print(f"step {step:3d} | loss {loss.item():.4f} | w {w.item():.3f} | b {b.item():.3f}")

print(f"learned: y = {w.item():.2f} x {b.item():+.2f}   (true: y = 2.00 x -1.00)")
