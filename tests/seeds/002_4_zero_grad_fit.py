import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 100)
y = 2 * x - 1 + 0.1 * torch.randn(100)

def train(zero_grad: bool, steps=60, lr=0.1):
    w = torch.randn(1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for step in range(steps + 1):
        loss = ((w * x + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        if zero_grad:
            w.grad.zero_(); b.grad.zero_()
        if step % 15 == 0:
            print(f"  step {step:2d} | loss {loss.item():9.4f}")

torch.manual_seed(1); print("with zero_grad:"); train(True)
torch.manual_seed(1); print("WITHOUT zero_grad:"); train(False)
