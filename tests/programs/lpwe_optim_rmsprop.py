# "Learning PyTorch with Examples": the polynomial fit with optim.RMSprop.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000, dtype=torch.float64)  # float32 wobbles near the optimum
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).double()
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.3, 0.2, -0.1]]))
    model[0].bias.zero_()
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
print(model[0].weight.dtype, xx.dtype)
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 250 == 249:
        print(t, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.3f} + {linear_layer.weight[:, 0].item():.3f} x + '
      f'{linear_layer.weight[:, 1].item():.3f} x^2 + {linear_layer.weight[:, 2].item():.3f} x^3')
print(sorted(optimizer.state_dict()['param_groups'][0].keys()))
print(optimizer.param_groups[0]['lr'], optimizer.param_groups[0]['alpha'])
