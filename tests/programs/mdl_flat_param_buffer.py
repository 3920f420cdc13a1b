# "Flat parameter" trick (as in fused optimizers / FSDP-lite scripts): make every parameter a view
# into one contiguous buffer with vector_to_parameters, then update the whole model with a single
# in-place op on the buffer, and flatten grads with parameters_to_vector for a global-norm check.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
params = list(model.parameters())
n = sum(p.numel() for p in params)
flat = torch.sin(torch.arange(n, dtype=torch.float32) * 0.77) * 0.5
vector_to_parameters(flat, params)
print(n, [tuple(p.shape) for p in params], [type(p).__name__ for p in params])
print("aliases buffer:", all(p.data_ptr() >= flat.data_ptr() for p in params),
      params[1].data_ptr() - flat.data_ptr() == 15 * flat.element_size())
print(model[2].bias)

x = torch.stack([torch.linspace(-1, 1, 10), torch.linspace(0, 2, 10) ** 0.5, torch.cos(torch.linspace(0, 3, 10))], 1)
y = torch.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5], 1)

lr = 0.2
for step in range(8):
    model.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    g = parameters_to_vector([p.grad for p in params])
    with torch.no_grad():
        flat.sub_(lr * g)  # one op updates every parameter
    if step % 2 == 0:
        print(step, f"{loss.item():.5f}", f"|g|={g.norm().item():.4f}")
print(f"final {F.mse_loss(model(x), y).item():.5f}")
print(torch.equal(parameters_to_vector(params), flat))

# a float64 buffer switches the model to double precision
flat64 = flat.double()
vector_to_parameters(flat64, params)
print(model[0].weight.dtype, model(x.double()).dtype)
flat64.zero_()
print(model(x.double())[:2])

try:
    vector_to_parameters(flat.tolist(), params)
except TypeError as e:
    print("TypeError", e)
