# Saving and loading: state_dict round trip, a training checkpoint dict, strict=False, bad shapes.
import os
import tempfile

import torch
import torch.nn as nn


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def deterministic(model, shift):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + shift + i).view(p.shape))
    return model


model = deterministic(TheModelClass(), 0.0)
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
model(torch.ones(2, 4)).sum().backward()
optimizer.step()

print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict keys:", list(optimizer.state_dict().keys()))
print(optimizer.state_dict()["param_groups"][0]["params"])

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.pt")
    torch.save(model.state_dict(), path)
    model2 = deterministic(TheModelClass(), 5.0)
    result = model2.load_state_dict(torch.load(path, weights_only=True))
    print(result)
    model2.eval()
    x = torch.linspace(-1, 1, 8).view(2, 4)
    print(torch.equal(model(x), model2(x)))

    ckpt = os.path.join(tmp, "checkpoint.tar")
    torch.save({
        'epoch': 3,
        'model_state_dict': model.state_dict(),
        'optimizer_state_dict': optimizer.state_dict(),
        'loss': 0.25,
    }, ckpt)
    checkpoint = torch.load(ckpt)
    model3 = TheModelClass()
    optimizer3 = torch.optim.SGD(model3.parameters(), lr=0.5, momentum=0.1)
    model3.load_state_dict(checkpoint['model_state_dict'])
    optimizer3.load_state_dict(checkpoint['optimizer_state_dict'])
    print(checkpoint['epoch'], checkpoint['loss'], optimizer3.param_groups[0]['lr'],
          optimizer3.param_groups[0]['momentum'])
    print(optimizer3.state_dict()['state'][0]['momentum_buffer'])

sd = model.state_dict()
print(type(sd).__name__, sd['fc1.bias'].requires_grad, sd['fc1.bias'].grad_fn)
sd.pop('fc2.bias')
print(TheModelClass().load_state_dict(sd, strict=False))
try:
    TheModelClass().load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
bad = dict(model.state_dict())
bad['fc1.weight'] = torch.zeros(5, 4)
try:
    nn.Linear(4, 3).load_state_dict({'weight': bad['fc1.weight'], 'bias': bad['fc1.bias']})
except RuntimeError as e:
    print("RuntimeError:", " ".join(str(e).split()))
