# torch.compile(model) trained eagerly with an optimizer: losses and parameters match eager.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view(p.shape) * 0.5)
    return model


x = torch.linspace(-1, 1, 24).view(8, 3)
y = (x[:, :1] * 2.0 - x[:, 1:2] + 0.5 * x[:, 2:]).clone()

model = init(Net())
compiled = torch.compile(model)
opt = torch.optim.SGD(compiled.parameters(), lr=0.1, momentum=0.9)
losses = []
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(compiled(x), y)
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 5))
print(losses)
print(model.fc2.weight)
print(model.fc2.bias)

eager = init(Net())
opt2 = torch.optim.SGD(eager.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    opt2.zero_grad()
    loss = nn.functional.mse_loss(eager(x), y)
    loss.backward()
    opt2.step()
print(round(loss.item(), 5), torch.allclose(eager.fc1.weight, model.fc1.weight, atol=1e-5))
print(type(compiled._orig_mod).__name__, compiled._orig_mod is model)

compiled.eval()
with torch.no_grad():
    print(compiled(torch.ones(2, 3)))
print(len(list(compiled.parameters())), list(compiled.state_dict().keys()))
