# d2l.ai 3.6 softmax regression from scratch, on a tiny deterministic "Fashion-MNIST".
import torch

n, num_inputs, num_outputs = 24, 16, 3
X_all = torch.cos(torch.arange(n * num_inputs, dtype=torch.float32).reshape(n, num_inputs) * 0.7)
y_all = torch.arange(n) % num_outputs
X_all[torch.arange(n), y_all * 5] += 2.0  # make the classes separable

W = torch.zeros(num_inputs, num_outputs)
with torch.no_grad():
    W.copy_(torch.linspace(-0.05, 0.05, num_inputs * num_outputs).reshape(num_inputs, num_outputs))
W.requires_grad_(True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # broadcasting


X = torch.linspace(-1, 1, 10).reshape(2, 5)
X_prob = softmax(X)
print(X_prob, X_prob.sum(1).allclose(torch.ones(2)))  # the sum's last bit is summation order


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, X, y):
    metric = Accumulator(2)
    with torch.no_grad():
        for i in range(0, len(X), 8):
            metric.add(accuracy(net(X[i:i + 8]), y[i:i + 8]), y[i:i + 8].numel())
    return metric[0] / metric[1]


def updater(batch_size, lr=0.5):
    with torch.no_grad():
        for param in [W, b]:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


print(evaluate_accuracy(net, X_all, y_all))
for epoch in range(5):
    metric = Accumulator(3)
    for i in range(0, n, 8):
        X, y = X_all[i:i + 8], y_all[i:i + 8]
        y_hat = net(X)
        l = cross_entropy(y_hat, y)
        l.sum().backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    print(f'epoch {epoch + 1}: loss {metric[0] / metric[2]:.4f}, train acc {metric[1] / metric[2]:.3f},'
          f' test acc {evaluate_accuracy(net, X_all, y_all):.3f}')
print(b, W.grad.abs().sum())
preds = net(X_all[:6]).argmax(axis=1)
print(preds, y_all[:6], preds.dtype)
print(l.grad_fn, l.grad_fn.next_functions[0][0])
print(y_hat[range(2), torch.tensor([0, 1])])
