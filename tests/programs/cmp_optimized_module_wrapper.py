# What torch.compile(model) returns, as users poke at it: type, repr, _orig_mod, attribute and
# submodule access, parameters shared with the original, state_dict "_orig_mod." keys and the
# usual workaround of saving the original module, load_state_dict both ways.
import io
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 2)
        self.register_buffer("scale", torch.tensor(2.0))
        self.alpha = 0.5

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale + self.alpha


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-1.0, 1.0, p.numel()).view_as(p) * (i + 1) / 4)


model = Net()
init(model)
opt_model = torch.compile(model)
print(type(opt_model).__name__, isinstance(opt_model, nn.Module), isinstance(opt_model, Net))
print(opt_model._orig_mod is model, opt_model.fc1 is model.fc1, opt_model.alpha)
print(opt_model)
print([n for n, _ in opt_model.named_parameters()])
print([n for n, _ in opt_model.named_children()])
print([n for n, _ in opt_model.named_modules()])
print(list(opt_model.state_dict().keys()))
print(sum(p.numel() for p in opt_model.parameters()), len(list(opt_model.buffers())))
print(all(a is b for a, b in zip(opt_model.parameters(), model.parameters())))

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
print(opt_model(x))
print(opt_model.forward(x))

# Saving the compiled model's state_dict and loading into a fresh, uncompiled model fails ...
buf = io.BytesIO()
torch.save(opt_model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
fresh = Net()
try:
    fresh.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
# ... the common fix strips the prefix
sd = {k.removeprefix("_orig_mod."): v for k, v in sd.items()}
print(fresh.load_state_dict(sd))
print(torch.equal(fresh(x), model(x)))

# Loading a plain state_dict into the compiled wrapper needs the prefix too
other = Net()
try:
    opt_model.load_state_dict(other.state_dict())
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(opt_model._orig_mod.load_state_dict(fresh.state_dict()))

# Changing the module after compiling: new weights and attributes are seen by the compiled call
with torch.no_grad():
    model.fc2.bias.fill_(10.0)
print(opt_model(x))
model.alpha = -1.0
model.scale.fill_(1.0)
print(opt_model(x))
opt_model.fc2 = nn.Identity()
print(type(model.fc2).__name__, opt_model(x).shape)
