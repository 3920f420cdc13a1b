# torch.nn.utils.parameters_to_vector / vector_to_parameters in multi-task code: flat gradient
# vectors per task, gradient vaccine (GradVac) cosine targets with an EMA, interpolation between
# task-specific weight vectors, and the errors these utilities raise.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

model = nn.Sequential(nn.Linear(4, 5), nn.GELU(), nn.Linear(5, 2))
with torch.no_grad():
    vec = torch.sin(torch.arange(parameters_to_vector(model.parameters()).numel(), dtype=torch.float32) * 0.55) * 0.4
    vector_to_parameters(vec, model.parameters())
print(model[0].weight[0], model[2].bias)
print(parameters_to_vector(model.parameters()).shape, parameters_to_vector(model.parameters()).grad_fn)

x = torch.stack([torch.linspace(-1, 1, 8), torch.cos(torch.arange(8.0)), torch.sin(torch.arange(8.0)),
                 torch.linspace(0.5, -0.5, 8)], 1)
targets = [x[:, 0] + x[:, 1], x[:, 2] * x[:, 3]]


def task_grad_vectors():
    out = model(x)
    vecs = []
    for t in range(2):
        model.zero_grad()
        F.mse_loss(out[:, t], targets[t]).backward(retain_graph=True)
        vecs.append(parameters_to_vector(p.grad for p in model.parameters()))
    return vecs


target_cos, beta = 0.0, 0.1
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for step in range(10):
    g1, g2 = task_grad_vectors()
    cos = torch.dot(g1, g2) / (g1.norm() * g2.norm())
    if cos < target_cos:
        # GradVac: move g1 toward the target cosine with g2
        coef = g1.norm() * (target_cos * (1 - cos ** 2).sqrt() - cos * (1 - target_cos ** 2) ** 0.5) / (
            g2.norm() * (1 - target_cos ** 2) ** 0.5)
        g1 = g1 + coef * g2
    target_cos = (1 - beta) * target_cos + beta * cos.item()
    merged = g1 + g2
    opt.zero_grad()
    offset = 0
    for p in model.parameters():
        p.grad = merged[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    opt.step()
    print(f"step {step} cos {cos.item():+.4f} target {target_cos:+.4f} |merged| {merged.norm().item():.4f}")

theta_a = parameters_to_vector(model.parameters()).detach().clone()
theta_b = theta_a.flip(0)
for alpha in (0.0, 0.5, 1.0):
    with torch.no_grad():
        vector_to_parameters((1 - alpha) * theta_a + alpha * theta_b, model.parameters())
        print(alpha, [round(F.mse_loss(model(x)[:, t], targets[t]).item(), 4) for t in range(2)])

v = parameters_to_vector(model.parameters())
print(v.requires_grad, type(v.grad_fn).__name__)
v.sum().backward()
print(model[2].bias.grad)
try:
    vector_to_parameters(torch.zeros(3, 4), model.parameters())
except TypeError as e:
    print("TypeError", e)
except Exception as e:
    print(type(e).__name__, e)
try:
    parameters_to_vector([torch.zeros(2), torch.zeros(2, dtype=torch.float64)])
except Exception as e:
    print(type(e).__name__, e)
