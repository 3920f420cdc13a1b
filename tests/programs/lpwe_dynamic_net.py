# "Learning PyTorch with Examples": dynamic control flow; the graph differs from call to call.
import math
import random

import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.6))
        self.c = torch.nn.Parameter(torch.tensor(-0.05))
        self.d = torch.nn.Parameter(torch.tensor(-0.02))
        self.e = torch.nn.Parameter(torch.tensor(0.001))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return (f'y = {self.a.item():.3f} + {self.b.item():.3f} x + {self.c.item():.3f} x^2 + '
                f'{self.d.item():.3f} x^3 + {self.e.item():.1e} x^4 ? + {self.e.item():.1e} x^5 ?')


random.seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 250 == 249:
        print(t, f"{loss.item():.4g}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(optimizer.state_dict()['state'][0]['momentum_buffer'].shape)
