# "Learning PyTorch with Examples": a custom nn.Module holding its own Parameters.
import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.2))
        self.b = torch.nn.Parameter(torch.tensor(0.5))
        self.c = torch.nn.Parameter(torch.tensor(-0.1))
        self.d = torch.nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return (f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + '
                f'{self.d.item():.4f} x^3')


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Polynomial3()
print(model)
print([name for name, _ in model.named_parameters()])
print(model.a)
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 250 == 249:
        print(t, f"{loss.item():.5g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(model.a.grad is not None, model.a.requires_grad, type(model.a).__name__)
