# Saving the whole nn.Module object (torch.save(model)) instead of its state_dict: loading needs
# weights_only=False, and the weights_only=True error names the module class to allowlist.
import io

import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.scale = 2.0

    def forward(self, x):
        return self.fc(x) * self.scale


model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), Head())
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * 0.05 - 0.1 * i)
model.eval()

buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    msg = str(e)
    print(type(e).__name__)
    print([line for line in msg.splitlines() if "WeightsUnpickler" in line][0].strip())

buf.seek(0)
m2 = torch.load(buf, weights_only=False)
print(m2)
print(type(m2[2]).__name__, m2[2].scale, m2.training, m2[2].training)
x = torch.linspace(-1, 1, 8).view(2, 4)
print(torch.equal(m2(x), model(x)), m2(x))
print(m2[0].weight.requires_grad, type(m2[0].weight).__name__)

buf = io.BytesIO()
torch.save([model[0].weight, model[0].weight.detach(), model[0].weight * 2], buf)
buf.seek(0)
p, d, nonleaf = torch.load(buf, weights_only=True)
print(type(p).__name__, p.requires_grad, d.requires_grad, nonleaf.requires_grad, nonleaf.grad_fn, nonleaf.is_leaf)
print(p.data_ptr() == d.data_ptr())

buf = io.BytesIO()
torch.save({"fc": model[2].fc}, buf)
buf.seek(0)
try:
    torch.load(buf, weights_only=True)
except Exception as e:
    print([line for line in str(e).splitlines() if "WeightsUnpickler" in line][0].strip())
buf.seek(0)
with torch.serialization.safe_globals([nn.Linear]):
    try:
        print(torch.load(buf, weights_only=True))
    except Exception as e:
        print(type(e).__name__, [line for line in str(e).splitlines() if "WeightsUnpickler" in line][0].strip())
