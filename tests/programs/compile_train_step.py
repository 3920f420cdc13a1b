# A whole training step compiled: forward, backward and optimizer.step inside torch.compile.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

x = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
y = torch.tensor([[1.0], [1.0], [0.0], [0.0]])


@torch.compile
def train_step(xb, yb):
    optimizer.zero_grad()
    loss = loss_fn(model(xb), yb)
    loss.backward()
    optimizer.step()
    return loss


for step in range(6):
    loss = train_step(x, y)
    print(step, f"{loss.item():.5f}")
print(model[0].weight)
print(model[2].bias)

# eager evaluation afterwards, mixed with the compiled step
with torch.no_grad():
    print(model(x).squeeze(1))
loss = train_step(x[:2], y[:2])
print(f"{loss.item():.5f}", model[2].weight.grad.shape)
