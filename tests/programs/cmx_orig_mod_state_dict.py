# Checkpointing a torch.compile'd model: state_dict keys carry the `_orig_mod.` prefix, users
# strip it to load into a plain model; parameters are shared with the original module.
import io
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(6, 2)
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


model = MLP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape) * 0.5)

compiled = torch.compile(model)
print(type(compiled).__name__)
print(compiled._orig_mod is model)
print(list(compiled.state_dict().keys()))
print([n for n, _ in compiled.named_parameters()])
print([n for n, _ in compiled.named_buffers()])
print(all(a is b for a, b in zip(compiled.parameters(), model.parameters())))
print(compiled.fc1.weight is model.fc1.weight, compiled.scale is model.scale)
print(sum(p.numel() for p in compiled.parameters() if p.requires_grad))
print(compiled)

x = torch.linspace(-2, 2, 12).view(3, 4)
out = compiled(x)
print(out.shape, out.requires_grad, out.grad_fn is not None)
print(torch.round(out, decimals=4))

# saving the compiled model's state dict and loading it into a fresh plain model
buf = io.BytesIO()
torch.save(compiled.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
fresh = MLP()
try:
    fresh.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
clean = {k.removeprefix("_orig_mod."): v for k, v in sd.items()}
res = fresh.load_state_dict(clean)
print(res)
print(torch.allclose(fresh(x), out))

# loading a plain state dict into the compiled wrapper goes through _orig_mod
other = MLP()
compiled._orig_mod.load_state_dict(other.state_dict())
print(torch.equal(model.fc1.weight, other.fc1.weight))
res = compiled.load_state_dict({"_orig_mod." + k: v for k, v in clean.items()})
print(res)
print(torch.allclose(compiled(x), out))
