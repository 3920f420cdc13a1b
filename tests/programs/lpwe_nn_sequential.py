# "Learning PyTorch with Examples": nn.Sequential + MSELoss(reduction='sum'), manual parameter update.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(p, xx.shape, xx.dtype)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
print(model)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, -0.1, 0.02]]))
    model[0].bias.fill_(0.1)

loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-6
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 250 == 249:
        print(t, f"{loss.item():.5g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.4f} + {linear_layer.weight[:, 0].item():.4f} x + '
      f'{linear_layer.weight[:, 1].item():.4f} x^2 + {linear_layer.weight[:, 2].item():.4f} x^3')
print(y_pred.shape, y_pred.grad_fn)
print(loss.grad_fn.next_functions[0][0])
