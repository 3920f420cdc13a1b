# Softmax regression and logistic regression trained with full-batch SGD on a tiny tabular set,
# logging with f-strings; weights initialized by hand so the run is deterministic.
import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.tensor([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 1.0], [0.5, 3.0], [2.5, 0.0],
                  [1.5, 1.5], [3.5, 3.0], [0.2, 0.2]])
y = torch.tensor([0, 0, 2, 1, 2, 1, 2, 2, 0])
X = (X - X.mean(0)) / X.std(0)

class SoftmaxRegression(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.linear = nn.Linear(d, k)

    def forward(self, x):
        return self.linear(x)

model = SoftmaxRegression(2, 3)
with torch.no_grad():
    model.linear.weight.copy_(torch.tensor([[0.1, -0.2], [0.0, 0.3], [-0.1, 0.1]]))
    model.linear.bias.zero_()
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(1, 61):
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        acc = (out.argmax(1) == y).float().mean()
        print(f"epoch {epoch:3d} | loss {loss:.4f} | acc {acc.item():.2%} | {loss.item():.6f}")
probs = F.softmax(model(X), dim=1)
print(probs.sum(1))
print(probs.detach().numpy().round(3))
print(model.linear.weight.grad, loss.grad_fn.name(), out.grad_fn.name())
print(torch.round(model.linear.weight.detach(), decimals=3))

# logistic regression written from scratch with manual parameters
yb = (y == 2).float()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 1.0
for step in range(100):
    z = X @ w + b
    p = torch.sigmoid(z)
    loss = -(yb * torch.log(p) + (1 - yb) * torch.log(1 - p)).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if step in (0, 99):
        print(f"step {step}: loss={loss.item():.4f} w={[round(v, 4) for v in w.tolist()]} b={b.item():.4f}")
print(w, b, z.grad_fn.name(), p.grad_fn.name(), loss.grad_fn)
pred = (torch.sigmoid(X @ w + b) > 0.5).long()
print(pred, (pred == yb.long()).sum().item(), yb.dtype)
print(F.binary_cross_entropy(torch.sigmoid(X @ w + b), yb), F.binary_cross_entropy_with_logits(X @ w + b, yb))
log = {"loss": loss, "w": w}
print(f"{log['loss']:.3f}", f"{log['w'][0]:.3f}")
try:
    print(f"{w:.3f}")
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    print(f"{loss:d}")
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    float(w)
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    w.numpy()
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
print(float(b), int(torch.tensor(3.7)), b.detach().numpy(), w.detach().numpy().dtype)
