# Gradient clipping utilities in a training loop: clip_grad_norm_ with different norm types,
# its returned total norm, error_if_nonfinite, get_total_norm + clip_grads_with_norm_,
# clip_grad_value_, clipping a single tensor, and an early-stopping loop that tracks norms.
import copy
import math

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1.0, 1.5, p.numel()).view_as(p) * (i + 1))
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
t = torch.tensor([[4.0], [-3.0], [1.0]])


def grads():
    model.zero_grad()
    nn.functional.mse_loss(model(x), t).backward()


for norm_type in (2.0, 1, "inf", 0.5):
    grads()
    total = clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=norm_type)
    after = clip_grad_norm_(model.parameters(), max_norm=100.0, norm_type=norm_type)
    print(norm_type, total, round(after.item(), 4), total.dtype, total.shape)

grads()
total = clip_grad_norm_(model[2].weight, 0.5)
print(total, model[2].weight.grad, model[2].weight.grad.norm())

grads()
print(clip_grad_value_(model.parameters(), clip_value=0.25))
print(model[0].weight.grad, model[2].bias.grad)

grads()
gs = [p.grad for p in model.parameters()]
tn = torch.nn.utils.get_total_norm(gs, norm_type=2.0)
print(tn)
torch.nn.utils.clip_grads_with_norm_(model.parameters(), max_norm=2.0, total_norm=tn)
print(round(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item(), 4))

grads()
model[0].bias.grad[0] = float("nan")
print(clip_grad_norm_(model.parameters(), 1.0))
try:
    clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, e)
model.zero_grad(set_to_none=True)
print(clip_grad_norm_(model.parameters(), 1.0), clip_grad_norm_([], 1.0))

# Early stopping with gradient-norm logging
opt = torch.optim.SGD(model.parameters(), lr=0.05)
val_x = torch.tensor([[2.0, 0.0], [-1.0, 1.0]])
val_t = torch.tensor([[1.0], [0.5]])
best, best_state, patience, bad = math.inf, None, 2, 0
for epoch in range(30):
    model.train()
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), t)
    loss.backward()
    norm = clip_grad_norm_(model.parameters(), max_norm=5.0)
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(val_x), val_t).item()
    print(f"epoch {epoch:2d} loss {loss.item():.4f} grad_norm {norm.item():.4f} val {val:.4f}")
    if val < best - 1e-4:
        best, bad = val, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
        if bad >= patience:
            print("early stop at", epoch, "best", round(best, 4))
            break
model.load_state_dict(best_state)
with torch.no_grad():
    print(round(nn.functional.mse_loss(model(val_x), val_t).item(), 4))
