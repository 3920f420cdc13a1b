# d2l.ai 3.2/3.5 linear regression from scratch and concisely, with deterministic data.
import torch
from torch import nn
from torch.utils import data


def synthetic_data(w, b, num_examples):
    """y = Xw + b + 'noise' (a deterministic wiggle instead of torch.normal)."""
    X = torch.stack([torch.sin(torch.arange(num_examples) * 0.37 + k) for k in range(len(w))], 1)
    y = torch.matmul(X, w) + b
    y += 0.01 * torch.cos(torch.arange(num_examples) * 1.3)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 100)
print('features:', features[0], '\nlabel:', labels[0])
print(features.shape, labels.shape, labels.dtype)


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    indices = indices[::-1]  # instead of random.shuffle
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


batch_size = 10
for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break

w = torch.zeros(size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr, num_epochs, net, loss = 0.1, 3, linreg, squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
print(f'error in estimating b: {true_b - b}')


# concise implementation
def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=False)


data_iter2 = load_array((features, labels), batch_size)
print(next(iter(data_iter2)))
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.fill_(0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(num_epochs):
    for X, y in data_iter2:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')
w = net[0].weight.data
print('error in estimating w:', true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print('error in estimating b:', true_b - b)
print(net, net[0].weight.grad, net[0].bias.grad)
print(loss, nn.MSELoss(reduction='sum')(net(features[:3]), labels[:3]))
