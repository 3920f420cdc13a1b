# Gradient-reversal / gradient-scaling autograd.Functions used with torch.func in multi-task code:
# old-style Functions fail under torch.func transforms, split-style ones with generate_vmap_rule
# work under grad and vmap (per-task gradients of a shared layer), and functionalize.
import torch
import torch.nn.functional as F
from torch.func import functionalize, grad, vmap


class ScaleGradOld(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None


class ScaleGrad(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, scale):
        return x.clone()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None


class NoRule(ScaleGrad):
    generate_vmap_rule = False


W = torch.tensor([[0.5, -0.2, 0.1], [0.3, 0.8, -0.4]])
x = torch.stack([torch.linspace(-1, 1, 5), torch.cos(torch.arange(5.0)), torch.sin(torch.arange(5.0))], 1)
targets = torch.stack([x[:, 0] + x[:, 1], x[:, 2] - x[:, 0]])  # (tasks, batch)
task_scale = torch.tensor([1.0, -0.5])


def task_loss(w, target, scale, fn=ScaleGrad):
    h = fn.apply(x @ w.T, scale)
    return F.mse_loss(h.sum(1), target)


print("old-style, eager:", round(task_loss(W, targets[0], 1.0, ScaleGradOld).item(), 4))
for name, call in [
    ("grad old-style", lambda: grad(task_loss)(W, targets[0], 1.0, ScaleGradOld)),
    ("vmap old-style", lambda: vmap(task_loss, in_dims=(None, 0, None, None))(W, targets, 1.0, ScaleGradOld)),
    ("vmap without rule", lambda: vmap(task_loss, in_dims=(None, 0, None, None))(W, targets, 1.0, NoRule)),
    ("functionalize", lambda: functionalize(task_loss)(W, targets[0], 1.0)),
]:
    try:
        call()
    except RuntimeError as e:
        print(name, "->", type(e).__name__, str(e).split(". ")[0])

per_task = torch.stack([grad(task_loss)(W, targets[t], task_scale[t].item()) for t in range(2)])
print("per-task grads:\n", per_task.round(decimals=4))
batched = vmap(grad(task_loss), in_dims=(None, 0, None))(W, targets, 1.0)
plain = vmap(grad(lambda w, t: F.mse_loss((x @ w.T).sum(1), t)), in_dims=(None, 0))(W, targets)
print("vmap(grad) through the Function matches plain:", torch.allclose(batched, plain))
flat = batched.flatten(1)
print("cosine between tasks:", round(F.cosine_similarity(flat[0], flat[1], dim=0).item(), 4))
print("norms:", [round(n, 4) for n in flat.norm(dim=1).tolist()])


def sgd_step(w, g, lr):
    w.sub_(lr * g)  # in-place update, removed by functionalize
    return w.norm()


w = W.clone()
norm = functionalize(sgd_step)(w, batched.sum(0), 0.1)
print("functionalized step:", round(norm.item(), 4), "input updated:", not torch.equal(w, W))
print(w.round(decimals=4))
