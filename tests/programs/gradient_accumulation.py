# Gradient accumulation over micro-batches equals one big batch; gradient clipping by norm and value.
import torch
import torch.nn as nn


def make_model():
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view(p.shape) * 0.4)
    return model


inputs = torch.sin(torch.arange(48 * 6, dtype=torch.float32) * 0.05).view(48, 6)
targets = torch.arange(48) % 2
loss_fn = nn.CrossEntropyLoss()

big = make_model()
loss_fn(big(inputs), targets).backward()

small = make_model()
accumulation_steps = 4
optimizer = torch.optim.SGD(small.parameters(), lr=0.1)
optimizer.zero_grad()
for i, (x, y) in enumerate(zip(inputs.chunk(accumulation_steps), targets.chunk(accumulation_steps))):
    loss = loss_fn(small(x), y) / accumulation_steps
    loss.backward()
print([torch.allclose(a.grad, b.grad, atol=1e-6) for a, b in zip(big.parameters(), small.parameters())])

total_norm = torch.nn.utils.clip_grad_norm_(small.parameters(), max_norm=0.1)
print(total_norm)
norm_after = torch.sqrt(sum(p.grad.pow(2).sum() for p in small.parameters()))
print(f"{norm_after.item():.4f}")
torch.nn.utils.clip_grad_value_(small.parameters(), clip_value=0.01)
print(max(p.grad.abs().max().item() for p in small.parameters()) <= 0.01)
optimizer.step()
optimizer.zero_grad()
print(all(p.grad is None for p in small.parameters()))
optimizer.zero_grad(set_to_none=False)
print(small[0].bias.grad)
