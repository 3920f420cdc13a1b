# L2 weight decay written into the loss equals SGD(weight_decay=...); AdamW decoupled decay by hand.
import torch
import torch.nn as nn


def make_model():
    model = nn.Linear(5, 3)
    with torch.no_grad():
        model.weight.copy_(torch.arange(15, dtype=torch.float32).view(3, 5) / 10 - 0.7)
        model.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    return model


x = torch.cos(torch.arange(20, dtype=torch.float32)).view(4, 5)
y = torch.sin(torch.arange(12, dtype=torch.float32)).view(4, 3)
wd, lr = 0.01, 0.1

m1 = make_model()
opt1 = torch.optim.SGD(m1.parameters(), lr=lr)
m2 = make_model()
opt2 = torch.optim.SGD(m2.parameters(), lr=lr, weight_decay=wd)
for step in range(5):
    opt1.zero_grad()
    l2 = sum(p.pow(2).sum() for p in m1.parameters())
    loss1 = nn.functional.mse_loss(m1(x), y) + wd / 2 * l2
    loss1.backward()
    opt1.step()
    opt2.zero_grad()
    nn.functional.mse_loss(m2(x), y).backward()
    opt2.step()
print(m1.weight)
print(torch.allclose(m1.weight, m2.weight, atol=1e-6), torch.allclose(m1.bias, m2.bias, atol=1e-6))

m3 = make_model()
opt3 = torch.optim.AdamW(m3.parameters(), lr=lr, weight_decay=wd)
for step in range(3):
    opt3.zero_grad()
    nn.functional.mse_loss(m3(x), y).backward()
    opt3.step()
print(m3.bias)
print(opt3.state[m3.bias]['exp_avg'])
print(opt3.state[m3.bias]['step'])
