# Half-precision training step with gradient clipping (a model cast with .half(), large fp16
# gradients clipped by clip_grad_norm_ before the step), and the total norm users log.
import torch
import torch.nn as nn

model = nn.Linear(4, 2).half()
with torch.no_grad():
    model.weight.copy_(torch.linspace(-1, 1, 8).view(2, 4))
    model.bias.zero_()

x = torch.linspace(0, 30, 16).view(4, 4).half()
target = torch.full((4, 2), -50.0).half()
loss = ((model(x).float() - target.float()) ** 2).mean()
loss.backward()
print(model.weight.grad.dtype, f"{loss.item():.1f}")
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total.dtype, f"{total.item():.1f}")
print(torch.isfinite(model.weight.grad).all().item(), model.weight.grad.abs().max().item() > 0)
print(model.weight.grad.float().norm().item() <= 1.01)
print(torch.linalg.vector_norm(torch.tensor([300.0, 400.0]).half()))
print(torch.nn.functional.normalize(torch.tensor([[300.0, 400.0]]).half(), dim=1))
