# Linear regression from scratch: y = 3x + 2 with w and b as leaf tensors.
import torch

X = torch.arange(0, 1, 0.05).unsqueeze(1)
y = 3 * X + 2 + 0.1 * torch.sin(40 * X)
print(X.shape, y.shape, X.dtype)

w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def model(x):
    return x @ w + b


def mse(pred, target):
    return ((pred - target) ** 2).mean()


lr = 0.5
losses = []
for epoch in range(200):
    loss = mse(model(X), y)
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    losses.append(loss.item())
print(f"w = {w.item():.3f}, b = {b.item():.3f}")
print(f"first loss {losses[0]:.4f} last loss {losses[-1]:.5f}", losses[-1] < losses[0])
print(w, b)

# The same with nn.Linear and optim.SGD
model2 = torch.nn.Linear(1, 1)
torch.nn.init.zeros_(model2.weight)
torch.nn.init.constant_(model2.bias, 0.0)
opt = torch.optim.SGD(model2.parameters(), lr=0.5)
for epoch in range(200):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model2(X), y)
    loss.backward()
    opt.step()
print(f"{model2.weight.item():.3f} {model2.bias.item():.3f} {loss.item():.5f}")
print(list(model2.parameters())[0])
