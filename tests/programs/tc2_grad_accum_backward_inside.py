# Gradient accumulation where the micro-step itself is compiled: `@torch.compile def micro_step(xb, yb)`
# does forward, scales the loss by 1/accum_steps and calls loss.backward() inside the compiled
# function; gradients summed over micro-batches must equal the full-batch gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p) * 0.4)

X = torch.stack([torch.cos(torch.linspace(0, 2, 4) * (k + 1)) for k in range(12)])
Y = torch.tensor([k % 3 for k in range(12)])
ACCUM = 3


@torch.compile
def micro_step(xb, yb):
    loss = F.cross_entropy(model(xb), yb) / ACCUM
    loss.backward()
    return loss.detach()


# 1) accumulated grads == full-batch grads
model.zero_grad()
for xb, yb in zip(X.chunk(ACCUM), Y.chunk(ACCUM)):
    micro_step(xb, yb)
acc_grads = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
F.cross_entropy(model(X), Y).backward()
print("accum == full batch", all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(acc_grads, model.parameters())))
print("grad[0] row", torch.round(acc_grads[0][0], decimals=5))

# 2) a training loop with accumulation, clipping, and an uneven last micro-batch
opt = torch.optim.AdamW(model.parameters(), lr=0.03, weight_decay=0.01)
model.zero_grad(set_to_none=True)
micro_bs = 5
history = []
for epoch in range(5):
    running = 0.0
    for i, start in enumerate(range(0, len(X), micro_bs)):
        running += micro_step(X[start:start + micro_bs], Y[start:start + micro_bs]).item()
        if (i + 1) % ACCUM == 0 or start + micro_bs >= len(X):
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
    history.append(running)
    print(f"epoch {epoch} loss {running:.4f} grad-norm {norm.item():.4f}")
print("grads cleared", all(p.grad is None for p in model.parameters()))
print("decreasing", history[-1] < history[0])
with torch.no_grad():
    print("acc", (model(X).argmax(1) == Y).float().mean().item())
