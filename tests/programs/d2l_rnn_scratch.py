# d2l.ai 9.5 RNN from scratch: one-hot inputs, hidden state, gradient clipping, prediction.
import math

import torch
from torch import nn
from torch.nn import functional as F

text = "the time machine by h g wells the time traveller for so it will be convenient to speak of him"
vocab = sorted(set(text))
idx = {c: i for i, c in enumerate(vocab)}
corpus = [idx[c] for c in text]
vocab_size, num_hiddens = len(vocab), 16
print(vocab_size, corpus[:10])

print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape, F.one_hot(X.T, 28).dtype)


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape, k):
        n = math.prod(shape)
        return torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + k).reshape(shape) * 0.01 * 10

    W_xh = normal((num_inputs, num_hiddens), 0)
    W_hh = normal((num_hiddens, num_hiddens), 1)
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs), 2)
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)), )


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


params = get_params(vocab_size, num_hiddens)
state = init_rnn_state(X.shape[0], num_hiddens)
Y, new_state = rnn(F.one_hot(X.T, vocab_size).type(torch.float32), state, params)
print(Y.shape, len(new_state), new_state[0].shape, Y.grad_fn)


def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def predict(prefix, num_preds, params):
    state = init_rnn_state(1, num_hiddens)
    outputs = [idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]]).reshape((1, 1))
    for y in prefix[1:]:
        _, state = rnn(F.one_hot(get_input().T, vocab_size).float(), state, params)
        outputs.append(idx[y])
    for _ in range(num_preds):
        y, state = rnn(F.one_hot(get_input().T, vocab_size).float(), state, params)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return ''.join([vocab[i] for i in outputs])


print(repr(predict('time ', 10, params)))

batch_size, num_steps, lr = 2, 8, 1.0
data = torch.tensor(corpus)
for epoch in range(6):
    total, count = 0.0, 0
    state = None
    for start in range(0, 64, batch_size * num_steps):
        Xb = data[start:start + batch_size * num_steps].reshape(batch_size, num_steps)
        Yb = data[start + 1:start + 1 + batch_size * num_steps].reshape(batch_size, num_steps)
        if state is None:
            state = init_rnn_state(batch_size, num_hiddens)
        else:
            for s in state:
                s.detach_()
        y = Yb.T.reshape(-1)
        y_hat, state = rnn(F.one_hot(Xb.T, vocab_size).float(), state, params)
        l = nn.CrossEntropyLoss()(y_hat, y.long()).mean()
        for p in params:
            if p.grad is not None:
                p.grad.zero_()
        l.backward()
        norm = grad_clipping(params, 0.3)
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
        total += l.item() * y.numel()
        count += y.numel()
    print(f"epoch {epoch}: perplexity {math.exp(total / count):.3f}, last grad norm {norm.item():.4f}", norm.grad_fn)
print(repr(predict('time ', 10, params)))
print(state[0].requires_grad, state[0].grad_fn is None, params[2].grad[:4])
print(nn.utils.clip_grad_norm_(params, max_norm=0.5), sum(p.grad.norm() ** 2 for p in params).sqrt())
