# Graph breaks users write in compiled training steps: `if loss.item() > threshold:` to skip a bad
# batch, a Python list of metrics appended inside the compiled function, a global step counter,
# and a data-dependent `if grad_norm > max_norm` manual clipping; values must match eager.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.3, 0.8]]))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
global_step = 0
skipped = []


@torch.compile
def train_step(x, y, max_loss: float, max_norm: float):
    global global_step
    pred = model(x)
    loss = F.mse_loss(pred, y)
    if loss.item() > max_loss:
        skipped.append(global_step)
        global_step += 1
        return loss.detach(), False
    opt.zero_grad()
    loss.backward()
    total = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
    if total > max_norm:
        for p in model.parameters():
            p.grad.mul_(max_norm / (total + 1e-6))
    opt.step()
    history.append(round(loss.item(), 5))
    global_step += 1
    return loss.detach(), True


t = torch.linspace(0, 1, 6)
X = torch.stack([t, t ** 2, torch.sin(3 * t)], 1)
Y = (X @ torch.tensor([1.0, 2.0, -1.0]) + 0.5).unsqueeze(1)
for epoch in range(4):
    for i in range(0, 6, 2):
        xb, yb = X[i:i + 2], Y[i:i + 2]
        if epoch == 1 and i == 2:
            yb = yb * 40  # a corrupted batch
        loss, applied = train_step(xb, yb, 5.0, 0.5)
    print(f"epoch {epoch} last loss {loss.item():.5f} applied {applied} step {global_step}")

print("skipped", skipped)
print("history", history[:4], len(history))
print("w", torch.round(model.weight, decimals=4), f"{model.bias.item():.4f}")
print("finite", all(math.isfinite(h) for h in history))
