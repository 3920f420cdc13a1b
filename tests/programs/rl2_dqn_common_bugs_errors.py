# The errors DQN beginners hit and print while debugging: gather with a 1-D or int32/float index,
# in-place ops on tensors needed for backward (target computed from q without detach), backward
# twice, optimizer on a frozen target, argmax on an empty batch, and the fixes that follow.
import torch
import torch.nn as nn
import torch.nn.functional as F

q_net = nn.Linear(2, 3)
with torch.no_grad():
    q_net.weight.copy_(torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]]))
    q_net.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
obs = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, -1.0]])
actions = torch.tensor([0, 2, 1, 1])
q = q_net(obs)


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out if not isinstance(out, torch.Tensor) else out.detach().round(decimals=4))
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:150])


attempt("gather 1d", lambda: q.gather(1, actions))
attempt("gather int32", lambda: q.gather(1, actions.int().unsqueeze(1)))
attempt("gather float", lambda: q.gather(1, actions.float().unsqueeze(1)))
attempt("gather oob", lambda: q.gather(1, torch.tensor([[0], [3], [1], [1]])))
attempt("gather dim2", lambda: q.gather(2, actions.unsqueeze(1)))
attempt("gather ok", lambda: q.gather(1, actions.unsqueeze(1)).squeeze(1))
attempt("index ok", lambda: q[torch.arange(4), actions])
attempt("index int32", lambda: q[torch.arange(4), actions.int()])
attempt("index float", lambda: q[torch.arange(4), actions.float()])
attempt("take_along_dim", lambda: torch.take_along_dim(q, actions[:, None], dim=1).view(-1))
attempt("max empty", lambda: torch.zeros(0, 3).max(1))
attempt("argmax empty", lambda: torch.zeros(0, 3).argmax())
attempt("max dim0 empty", lambda: torch.zeros(0, 3).max(0))
attempt("amax empty", lambda: torch.zeros(0, 3).amax(1))
attempt("smooth_l1 long", lambda: F.smooth_l1_loss(q.gather(1, actions[:, None]), torch.tensor([[1], [0], [1], [0]])))
attempt("mse long", lambda: F.mse_loss(q.gather(1, actions[:, None]), torch.tensor([[1], [0], [1], [0]])))


def inplace_bug2():
    qq = torch.sigmoid(q_net(obs))
    qq.mul_(2)
    qq.sum().backward()


attempt("inplace sigmoid", inplace_bug2)


def twice():
    loss = q_net(obs).pow(2).mean()
    loss.backward()
    loss.backward()


attempt("backward twice", twice)
frozen = nn.Linear(2, 3).requires_grad_(False)
attempt("frozen backward", lambda: frozen(obs).sum().backward())
attempt("no-grad tensor", lambda: torch.autograd.grad(q.sum(), frozen.weight))
attempt("detach target", lambda: F.smooth_l1_loss(q.gather(1, actions[:, None]).squeeze(1), q.max(1).values.detach()))
attempt("leaf inplace", lambda: q_net.weight.add_(1.0))
attempt("leaf view inplace", lambda: q_net.weight[0].zero_())
with torch.no_grad():
    attempt("leaf inplace no_grad", lambda: q_net.weight.mul_(1.0).sum())
attempt("nonscalar backward", lambda: q_net(obs).backward())
attempt("numpy of grad tensor", lambda: q.numpy())
attempt("item of vector", lambda: q.max(1).values.item())
attempt("bool of tensor", lambda: bool(q.max(1).values > 0))
attempt("stack shapes", lambda: torch.stack([torch.zeros(2), torch.zeros(3)]))
attempt("cat dims", lambda: torch.cat([torch.zeros(2, 1), torch.zeros(2)], dim=1))
