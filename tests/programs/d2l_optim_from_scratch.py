# d2l.ai chapter 12: momentum, AdaGrad, RMSProp and Adam written out by hand on params,
# checked against torch.optim (no d2l package).
import math

import torch


def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2


def momentum_2d(x1, x2, v1, v2, eta=0.4, beta=0.5):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


def train_2d(trainer, steps=20):
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results


train_2d(momentum_2d)


def adagrad_2d(x1, x2, s1, s2, eta=0.4, eps=1e-6):
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1 ** 2
    s2 += g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


train_2d(adagrad_2d)
print(torch.tensor(train_2d(adagrad_2d, 3)))


def init_states(feature_dim, kind):
    w, b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    if kind == 'adam':
        return ((w.clone(), w.clone()), (b.clone(), b.clone()))
    return (w, b)


def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()


def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


X = torch.stack([torch.sin(torch.arange(30.0) * 0.3 + k) for k in range(3)], 1)
y = (X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3)


def train(trainer_fn, kind, hyperparams, builtin, builtin_kwargs, steps=15):
    w = torch.zeros((3, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    states = init_states(3, kind)
    for _ in range(steps):
        l = ((X @ w + b - y) ** 2 / 2).mean()
        l.backward()
        trainer_fn([w, b], states, hyperparams)
    w2 = torch.zeros((3, 1), requires_grad=True)
    b2 = torch.zeros(1, requires_grad=True)
    opt = builtin([w2, b2], **builtin_kwargs)
    for _ in range(steps):
        opt.zero_grad()
        l2 = ((X @ w2 + b2 - y) ** 2 / 2).mean()
        l2.backward()
        opt.step()
    print(kind, f'{l.item():.5f} {l2.item():.5f}', w.flatten(), b, torch.allclose(w, w2, atol=1e-4))
    return opt


train(sgd_momentum, 'momentum', {'lr': 0.05, 'momentum': 0.9}, torch.optim.SGD, dict(lr=0.05, momentum=0.9))
train(adagrad, 'adagrad', {'lr': 0.1}, torch.optim.Adagrad, dict(lr=0.1, eps=1e-6))
train(rmsprop, 'rmsprop', {'lr': 0.01, 'gamma': 0.9}, torch.optim.RMSprop, dict(lr=0.01, alpha=0.9, eps=1e-6))
opt = train(adam, 'adam', {'lr': 0.01, 't': 1}, torch.optim.Adam, dict(lr=0.01, eps=1e-6))
st = opt.state_dict()['state'][0]
print(sorted(st), st['step'], st['exp_avg'].flatten(), st['exp_avg_sq'].shape)
print(opt.param_groups[0]['betas'], opt.defaults['amsgrad'])
