# nn.utils: parameters_to_vector / vector_to_parameters, clip_grad_norm_ / clip_grad_value_ over groups.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
n = sum(p.numel() for p in model.parameters())
vec = torch.arange(n, dtype=torch.float32) * 0.1
vector_to_parameters(vec, model.parameters())
print(model[0].weight, model[0].bias, model[1].weight, model[1].bias, sep="\n")
v = parameters_to_vector(model.parameters())
print(v.shape, torch.equal(v, vec), v.requires_grad)

x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
loss = model(x).pow(2).sum()
loss.backward()
print(f"{loss.item():.4f}")
grads = parameters_to_vector(p.grad for p in model.parameters())
print(grads)

# clip over two groups
params_a = list(model[0].parameters())
params_b = list(model[1].parameters())
norm = clip_grad_norm_(params_a + params_b, max_norm=1.0)
print(f"{norm.item():.4f}", norm.dtype)
total = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters()))
print(f"{total.item():.4f}")
print(model[1].weight.grad)

norm_b = clip_grad_norm_(params_b, max_norm=0.1, norm_type=1.0)
print(f"{norm_b.item():.4f}", model[1].bias.grad)
norm_inf = clip_grad_norm_(params_a, max_norm=0.05, norm_type=float("inf"))
print(f"{norm_inf.item():.4f}", model[0].weight.grad)
print(clip_grad_norm_(params_a, max_norm=10.0))
clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[0].bias.grad)

optimizer = torch.optim.SGD([{"params": params_a}, {"params": params_b, "lr": 0.5}], lr=0.1)
for group in optimizer.param_groups:
    print(f"{clip_grad_norm_(group['params'], 0.001).item():.5f}")
optimizer.step()
print(parameters_to_vector(model.parameters()))
