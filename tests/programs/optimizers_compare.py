# Optimizer trajectories on a fixed quadratic: SGD (momentum, nesterov), Adam, AdamW, RMSprop, Adagrad.
import torch

A = torch.tensor([[3.0, 0.5], [0.5, 1.0]])
b = torch.tensor([1.0, -2.0])


def loss_fn(w):
    return 0.5 * w @ A @ w - b @ w


def run(opt_class, steps=10, **kwargs):
    w = torch.nn.Parameter(torch.tensor([1.0, 1.0]))
    opt = opt_class([w], **kwargs)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(w)
        loss.backward()
        opt.step()
    return [round(v, 4) for v in w.tolist()], round(loss.item(), 4)


print("sgd", run(torch.optim.SGD, lr=0.1))
print("momentum", run(torch.optim.SGD, lr=0.1, momentum=0.9))
print("nesterov", run(torch.optim.SGD, lr=0.1, momentum=0.9, nesterov=True))
print("dampening", run(torch.optim.SGD, lr=0.1, momentum=0.5, dampening=0.5, weight_decay=0.1))
print("adam", run(torch.optim.Adam, lr=0.1))
print("adam betas", run(torch.optim.Adam, lr=0.05, betas=(0.8, 0.9), weight_decay=0.01))
print("amsgrad", run(torch.optim.Adam, lr=0.1, amsgrad=True))
print("adamw", run(torch.optim.AdamW, lr=0.1))
print("rmsprop", run(torch.optim.RMSprop, lr=0.01, momentum=0.5, centered=True))
print("maximize", run(torch.optim.SGD, lr=0.01, maximize=True, steps=3))

w1 = torch.nn.Parameter(torch.ones(2))
w2 = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([{"params": [w1]}, {"params": [w2], "lr": 0.5}], lr=0.1, momentum=0.9)
(w1.sum() + w2.sum()).backward()
opt.step()
print(w1.data, w2.data, [g["lr"] for g in opt.param_groups], len(opt.param_groups))
opt.add_param_group({"params": torch.nn.Parameter(torch.zeros(1)), "lr": 0.01})
print(len(opt.param_groups), opt.param_groups[2]["momentum"])
