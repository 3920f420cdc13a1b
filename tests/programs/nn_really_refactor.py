# "What is torch.nn really?": the same logistic model refactored step by step, from hand-made
# weights and log_softmax to nn.functional, nn.Module, nn.Linear, optim, TensorDataset, DataLoader.
# MNIST is replaced by 8x8 deterministic "images"; torch.randn by fixed sin/cos weights.
import math

import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

n_in, n_out = 64, 10
x_train = torch.cos(torch.arange(320 * n_in, dtype=torch.float32) * 0.0173).reshape(320, n_in)
y_train = (torch.arange(320) * 7) % 10
x_valid = torch.sin(torch.arange(96 * n_in, dtype=torch.float32) * 0.0211).reshape(96, n_in)
y_valid = (torch.arange(96) * 3) % 10
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max(), x_train.dtype, y_train.dtype)


def init_weights():
    return torch.sin(torch.arange(n_in * n_out, dtype=torch.float32)).reshape(n_in, n_out) / math.sqrt(n_in)


# Neural net from scratch (no torch.nn)
weights = init_weights()
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
print(weights.is_leaf, bias.is_leaf, weights.requires_grad)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))

lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))

# Using torch.nn.functional
loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


print(loss_func(model(xb), yb), accuracy(model(xb), yb))


# Refactor using nn.Module
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(init_weights())
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = Mnist_Logistic()
print(loss_func(model(xb), yb))


def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


fit()
print(loss_func(model(xb), yb))
print([p.grad for p in model.parameters()])


# Refactor using nn.Linear
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(n_in, 10)

    def forward(self, xb):
        return self.lin(xb)


def deterministic(m):
    with torch.no_grad():
        m.lin.weight.copy_(init_weights().t())
        m.lin.bias.zero_()
    return m


model = deterministic(Mnist_Logistic())
print(model, loss_func(model(xb), yb))
fit()
print(loss_func(model(xb), yb))


# Refactor using torch.optim
def get_model():
    model = deterministic(Mnist_Logistic())
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
print(loss_func(model(xb), yb))
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(loss_func(model(xb), yb))

# Refactor using Dataset and DataLoader (no shuffling: the order must not depend on the RNG)
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
print(len(train_ds), len(train_dl), len(valid_dl), train_ds[0][0].shape, train_ds[0][1])

model, opt = get_model()
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))


# Create fit() and get_data()
def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = sum(l * k for l, k in zip(losses, nums)) / sum(nums)
        print(epoch, f"{val_loss:.5f}", nums)


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs), DataLoader(valid_ds, batch_size=bs * 2))


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
fit(epochs, model, loss_func, opt, train_dl, valid_dl)


# nn.Sequential with a custom Lambda layer
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


model = nn.Sequential(Lambda(lambda x: x.view(-1, n_in)), nn.Linear(n_in, 10))
with torch.no_grad():
    model[1].weight.copy_(init_weights().t())
    model[1].bias.zero_()
opt = optim.SGD(model.parameters(), lr=lr, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
print(model)
print(accuracy(model(x_valid.view(-1, 8, 8)), y_valid))
