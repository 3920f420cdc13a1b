# Gradient clipping the ways Q&A answers show it: per-parameter register_hook clamping,
# clip_grad_norm_ (2-norm, inf-norm, returned total norm), clip_grad_value_, non-finite norms.
import torch
import torch.nn as nn


def make_model():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape))
    return model


x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0], [2.0, 1.0, 1.0]])
target = torch.tensor([[10.0, -10.0], [0.0, 5.0], [-3.0, 8.0]])
loss_fn = nn.MSELoss()


def grads(model):
    model.zero_grad()
    loss = loss_fn(model(x), target)
    loss.backward()
    return loss


model = make_model()
loss = grads(model)
print(loss)
for name, p in model.named_parameters():
    print(name, p.grad)

# clip_grad_norm_ returns the total norm measured before clipping
raw = [p.grad.clone() for p in model.parameters()]
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total, type(total).__name__, total.requires_grad)
after = torch.norm(torch.stack([p.grad.norm(2) for p in model.parameters()]), 2)
print(f"{after.item():.4f}")
manual = torch.sqrt(sum((g ** 2).sum() for g in raw))
print(torch.allclose(manual, total), [torch.allclose(p.grad, g * (1.0 / (manual + 1e-6))) for p, g in zip(model.parameters(), raw)])

# A max_norm larger than the norm leaves the gradients alone
grads(model)
before = [p.grad.clone() for p in model.parameters()]
print(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1000.0))
print(all(torch.equal(a, p.grad) for a, p in zip(before, model.parameters())))

# The infinity norm is the largest absolute entry
grads(model)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=float("inf")))
print(max(p.grad.abs().max().item() for p in model.parameters()) <= 0.5 + 1e-6)
grads(model)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0, norm_type=1))

# A single tensor and a generator are both accepted
grads(model)
print(torch.nn.utils.clip_grad_norm_(model[0].weight, 0.1), model[0].weight.grad.norm())

# clip_grad_value_ clamps every entry
grads(model)
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.25)
print(model[2].weight.grad, model[2].bias.grad)

# Clipping with a hook on each parameter happens during backward
model = make_model()
for p in model.parameters():
    p.register_hook(lambda grad: torch.clamp(grad, -0.25, 0.25))
grads(model)
print(model[2].weight.grad, model[2].bias.grad)

# Non-finite gradients: reported, or an error when asked for
model = make_model()
grads(model)
with torch.no_grad():
    model[0].bias.grad[0] = float("nan")
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
try:
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# Parameters without gradients are skipped; no gradients at all gives a zero norm
frozen = nn.Linear(2, 2)
print(torch.nn.utils.clip_grad_norm_(frozen.parameters(), 1.0))

# A training step with clipping between backward and step
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(x), target)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
    opt.step()
    print(step, f"{loss.item():.4f} {norm.item():.4f}")
