# d2l.ai 4.2 MLP from scratch, 4.5 weight decay and 4.6 dropout from scratch (no d2l package).
import torch
from torch import nn

num_inputs, num_outputs, num_hiddens = 12, 3, 8
n = 18
X_all = torch.sin(torch.arange(n * num_inputs, dtype=torch.float32).reshape(n, num_inputs) * 1.1)
y_all = torch.arange(n) % num_outputs

W1 = nn.Parameter(torch.arange(num_inputs * num_hiddens, dtype=torch.float32).reshape(num_inputs, num_hiddens).cos() * 0.1)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.arange(num_hiddens * num_outputs, dtype=torch.float32).reshape(num_hiddens, num_outputs).sin() * 0.1)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]
print(W1.shape, b1, W1.requires_grad, type(W1).__name__)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


print(relu(torch.tensor([-1.0, 0.0, 2.5])))


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)  # Here '@' stands for matrix multiplication
    return (H @ W2 + b2)


loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.1)
for epoch in range(3):
    l = loss(net(X_all), y_all)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    print(epoch, l.shape, f'{l.mean().item():.5f}', l.grad_fn)
print(b1.grad, b2.shape, bool(b2.abs().max() < 1e-3))


# weight decay from scratch
def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


w = torch.ones((num_inputs, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
yr = X_all.sum(1, keepdim=True) * 0.01 + 0.05
lambd = 3
for epoch in range(5):
    l = ((X_all @ w + b - yr) ** 2 / 2) + lambd * l2_penalty(w)
    l.sum().backward()
    with torch.no_grad():
        for p in [w, b]:
            p -= 0.003 * p.grad / n
            p.grad.zero_()
print('L2 norm of w:', torch.norm(w).item(), l2_penalty(w))

# concise weight decay: only the weight decays
net2 = nn.Sequential(nn.Linear(num_inputs, 1))
for param in net2.parameters():
    param.data.fill_(0.5)
trainer = torch.optim.SGD([
    {"params": net2[0].weight, 'weight_decay': 3},
    {"params": net2[0].bias}], lr=0.003)
for epoch in range(5):
    trainer.zero_grad()
    l = nn.MSELoss()(net2(X_all), yr)
    l.backward()
    trainer.step()
print('w L2', net2[0].weight.norm().item(), net2[0].bias.data)
print([g['weight_decay'] for g in trainer.param_groups], trainer.param_groups[1].keys())


# dropout from scratch
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.))
print(dropout_layer(X, 1.))
torch.manual_seed(0)
d = dropout_layer(X, 0.5)
print(d.shape, bool(((d == 0) | (d == 2 * X)).all()), d.dtype)
m = nn.Dropout(0.5)
m.eval()
print(m(X).equal(X), m, m.training)
m.train()
out = m(X)
print(bool(((out == 0) | (out == 2 * X)).all()))
print(nn.functional.dropout(X, p=0.5, training=False) is X)
try:
    dropout_layer(X, 1.5)
except AssertionError as e:
    print('AssertionError', repr(e))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print(type(e).__name__, e)
