# Keeping the "best so far" weights during training: model.state_dict() returns references that
# keep changing (a classic bug), so users clone or deepcopy; restoring the best at the end. Also
# dtype casting and bad values in load_state_dict.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(1, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.8, 0.8, p.numel()).view_as(p) * (1 + i) / 2)
x = torch.linspace(-2, 2, 20).unsqueeze(1)
y = torch.sin(x)
xv = torch.linspace(-1.9, 1.9, 7).unsqueeze(1)
yv = torch.sin(xv)
opt = torch.optim.Adam(model.parameters(), lr=0.05)

best_loss, best_ref, best_clone, best_deep = float("inf"), None, None, None
for epoch in range(15):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
    with torch.no_grad():
        val = F.mse_loss(model(xv), yv).item()
    if val < best_loss:
        best_loss, best_epoch = val, epoch
        best_ref = model.state_dict()
        best_clone = {k: v.detach().clone() for k, v in model.state_dict().items()}
        best_deep = copy.deepcopy(model.state_dict())
print(f"best epoch {best_epoch} val {best_loss:.4f}")
print("ref aliases live weights:", best_ref["2.bias"].data_ptr() == model[2].bias.data_ptr())
print("clone equals deepcopy:", all(torch.equal(best_clone[k], best_deep[k]) for k in best_clone))
print(type(best_deep).__name__, hasattr(best_deep, "_metadata"), hasattr(best_clone, "_metadata"))
print(best_ref["0.weight"].requires_grad, best_ref["0.weight"].grad_fn, best_ref["0.weight"].is_leaf)

for _ in range(5):
    opt.zero_grad()
    F.mse_loss(model(x), y * 3).backward()
    opt.step()
print("ref still equals clone:", torch.equal(best_ref["2.weight"], best_clone["2.weight"]))
model.load_state_dict(best_clone)
with torch.no_grad():
    print(f"restored val {F.mse_loss(model(xv), yv).item():.4f}")

sd64 = {k: v.double() for k, v in best_deep.items()}
m32 = copy.deepcopy(model)
print(m32.load_state_dict(sd64), m32[0].weight.dtype)
half = nn.Sequential(nn.Linear(1, 6), nn.Tanh(), nn.Linear(6, 1)).half()
half.load_state_dict(best_deep)
print(half[2].bias.dtype, torch.allclose(half[2].bias.float(), best_deep["2.bias"], atol=1e-3))

bad = dict(best_clone)
bad["0.bias"] = [0.0] * 6
try:
    model.load_state_dict(bad)
except Exception as e:
    print(type(e).__name__, e)
bad["0.bias"] = torch.zeros(1, 6)
try:
    model.load_state_dict(bad)
except Exception as e:
    print(type(e).__name__, e)
bad["0.bias"] = torch.zeros(6, dtype=torch.int64)
print(model.load_state_dict(bad), model[0].bias.dtype)
