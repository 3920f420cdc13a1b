# GradScaler("cpu") in a fp32 training loop: scale/unscale_/clip/step/update, inf-grad step skipping, state_dict resume.
import torch
import torch.nn as nn

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.2, -0.1, 0.3], [0.0, 0.4, -0.2]]))
    model.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.linspace(0, 1, 12).reshape(4, 3)
y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5]])

scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
print(scaler.is_enabled(), scaler.get_scale(), scaler.get_growth_factor(), scaler.get_backoff_factor(),
      scaler.get_growth_interval())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaled = scaler.scale(loss)
    print(step, f"{scaled.item() / scaler.get_scale():.4f}", scaled.dtype, scaled.grad_fn is not None)
    scaled.backward()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    print("  grad", f"{model.weight.grad.abs().sum().item():.4f}", f"{norm.item():.4f}")
    scaler.step(opt)
    scaler.update()
    print("  scale", scaler.get_scale())
try:
    scaler.unscale_(opt)
    scaler.unscale_(opt)
except RuntimeError as e:
    print("RuntimeError", e)
scaler.update()
sd = scaler.state_dict()
print(sorted(sd.keys()), sd["scale"], sd["_growth_tracker"])
s2 = torch.amp.GradScaler("cpu")
s2.load_state_dict(sd)
print(s2.get_scale())
opt.zero_grad()
model.weight.grad = torch.full_like(model.weight, float("inf"))
model.bias.grad = torch.zeros_like(model.bias)
before = model.weight.detach().clone()
s2.scale(torch.tensor(1.0))
s2.unscale_(opt)
ret = s2.step(opt)
s2.update()
print("skipped:", torch.equal(before, model.weight), ret, s2.get_scale())
off = torch.amp.GradScaler("cpu", enabled=False)
t = torch.tensor(2.0)
print(off.is_enabled(), off.scale(t) is t, off.get_scale(), off.state_dict())
legacy = torch.cuda.amp.GradScaler(enabled=False) if hasattr(torch.cuda.amp, "GradScaler") else None
print(type(legacy).__name__ if legacy is not None else None)
