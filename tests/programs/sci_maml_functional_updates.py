# MAML-style meta-learning as in the "MAML from scratch" tutorials: parameters kept in a list,
# a functional forward with F.linear, an inner SGD step with create_graph=True
# (fast = [p - lr * g for p, g in zip(params, grads)]), then the outer loss on the query set
# backpropagated through the inner update (second-order MAML) and its first-order variant.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=5)


def init_params():
    shapes = [(8, 1), (8,), (1, 8), (1,)]
    params = []
    for i, s in enumerate(shapes):
        n = torch.Size(s).numel()
        p = (0.5 * torch.cos(torch.arange(n, dtype=torch.float32) * 0.9 + i)).reshape(s)
        params.append(p.requires_grad_())
    return params


def forward(x, params):
    w1, b1, w2, b2 = params
    h = F.relu(F.linear(x, w1, b1))
    return F.linear(h, w2, b2)


def task(amplitude, phase):
    xs = torch.linspace(-2, 2, 10).unsqueeze(1)
    return xs, amplitude * torch.sin(xs + phase)


params = init_params()
print([tuple(p.shape) for p in params], [p.is_leaf for p in params])
meta_opt = torch.optim.Adam(params, lr=0.01)
inner_lr = 0.1
tasks = [(1.0, 0.0), (2.0, 0.5), (0.5, -1.0)]

for it in range(3):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for amp, ph in tasks:
        x, y = task(amp, ph)
        x_s, y_s, x_q, y_q = x[::2], y[::2], x[1::2], y[1::2]
        fast = params
        for _ in range(2):
            loss = F.mse_loss(forward(x_s, fast), y_s)
            grads = torch.autograd.grad(loss, fast, create_graph=True)
            fast = [p - inner_lr * g for p, g in zip(fast, grads)]
        q_loss = F.mse_loss(forward(x_q, fast), y_q)
        meta_loss = meta_loss + q_loss
    meta_loss = meta_loss / len(tasks)
    meta_loss.backward()
    print(it, f"{meta_loss.item():.5f}", type(meta_loss).__name__, meta_loss.grad_fn.name())
    print("  ", params[3].grad, params[1].grad[:3])
    meta_opt.step()

print(fast[0].is_leaf, fast[0].grad_fn.name(), grads[0].grad_fn is not None)

# first-order MAML: no create_graph, the inner gradients are constants
params_fo = [p.detach().clone().requires_grad_() for p in init_params()]
x, y = task(1.0, 0.0)
loss = F.mse_loss(forward(x[::2], params_fo), y[::2])
grads = torch.autograd.grad(loss, params_fo)
print([g.requires_grad for g in grads])
fast = [p - inner_lr * g for p, g in zip(params_fo, grads)]
F.mse_loss(forward(x[1::2], fast), y[1::2]).backward()
print(params_fo[3].grad, params_fo[2].grad[0, :3])

# second-order gradient w.r.t. a learnable inner learning rate (Meta-SGD style)
log_lr = torch.tensor(-2.0, requires_grad=True)
params = init_params()
loss = F.mse_loss(forward(x[::2], params), y[::2])
grads = torch.autograd.grad(loss, params, create_graph=True)
fast = [p - log_lr.exp() * g for p, g in zip(params, grads)]
q = F.mse_loss(forward(x[1::2], fast), y[1::2])
g_lr, = torch.autograd.grad(q, log_lr, retain_graph=True)
print(f"{q.item():.5f}", g_lr)

# forgetting create_graph in the inner loop: the outer grad then misses the second-order term
try:
    grads = torch.autograd.grad(loss, params)
    grads = torch.autograd.grad(loss, params)
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])

# the same inner step on an nn.Module with torch.nn.utils.stateless.functional_call
net = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
with torch.no_grad():
    for p, q in zip(net.parameters(), init_params()):
        p.copy_(q)
names = [n for n, _ in net.named_parameters()]
loss = F.mse_loss(net(x[::2]), y[::2])
grads = torch.autograd.grad(loss, list(net.parameters()), create_graph=True)
fast = {n: p - inner_lr * g for (n, p), g in zip(net.named_parameters(), grads)}
out = torch.nn.utils.stateless.functional_call(net, fast, (x[1::2],))
q = F.mse_loss(out, y[1::2])
q.backward()
print(names, f"{q.item():.5f}", out.grad_fn.name(), net[2].bias.grad)

# a classic bug in hand-written functional updates: the bias of the wrong layer
try:
    h = F.relu(F.linear(x, params[0], params[1]))
    print(F.linear(h, params[2], params[1]).shape)
except RuntimeError as e:
    print("RuntimeError:", e)
