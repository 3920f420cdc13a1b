# Optimizers beyond the big three: Adagrad, Adadelta, Adamax, NAdam, RAdam, LBFGS (closure).
import torch

A = torch.tensor([[3.0, 0.5], [0.5, 1.0]])
b = torch.tensor([1.0, -2.0])


def run(opt_class, steps=10, **kwargs):
    w = torch.nn.Parameter(torch.tensor([1.0, 1.0]))
    opt = opt_class([w], **kwargs)

    def closure():
        opt.zero_grad()
        loss = 0.5 * w @ A @ w - b @ w
        loss.backward()
        return loss

    for _ in range(steps):
        opt.step(closure)
    return [round(v, 4) for v in w.tolist()]


print("adagrad", run(torch.optim.Adagrad, lr=0.5))
print("adadelta", run(torch.optim.Adadelta, lr=1.0))
print("adamax", run(torch.optim.Adamax, lr=0.1))
print("nadam", run(torch.optim.NAdam, lr=0.1))
print("radam", run(torch.optim.RAdam, lr=0.1))
print("lbfgs", run(torch.optim.LBFGS, steps=2, lr=1))
