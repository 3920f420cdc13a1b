# Forward-mode hypergradients (Franceschi et al. 2017, "forward-mode HO"): the learning rate is a
# dual number, an unrolled SGD run on a ridge-regression problem is differentiated forward, and
# d(validation loss)/d(lr) is read from the tangent; compared with reverse-mode through the unroll.
import torch
import torch.autograd.forward_ad as fwAD

torch.set_default_dtype(torch.float64)

xs = torch.stack([torch.linspace(-1, 1, 20), torch.sin(torch.linspace(0, 6, 20)), torch.ones(20)], 1)
ys = xs @ torch.tensor([0.5, -1.0, 0.2]) + 0.1 * torch.cos(torch.arange(20.0))
x_tr, y_tr, x_val, y_val = xs[:14], ys[:14], xs[14:], ys[14:]


def train_loss(w):
    return ((x_tr @ w - y_tr) ** 2).mean() + 1e-2 * (w ** 2).sum()


def val_loss(w):
    return ((x_val @ w - y_val) ** 2).mean()


def unrolled(lr, steps=15):
    w = torch.zeros(3)
    for _ in range(steps):
        g = 2 * x_tr.T @ (x_tr @ w - y_tr) / len(y_tr) + 2e-2 * w  # analytic gradient
        w = w - lr * g
    return val_loss(w)


lr0 = torch.tensor(0.1)
with fwAD.dual_level():
    out = unrolled(fwAD.make_dual(lr0, torch.tensor(1.0)))
    loss, dloss_dlr = fwAD.unpack_dual(out)
print(f"val loss {loss.item():.6f}  d/dlr (forward) {dloss_dlr.item():.6f}")

lr_r = lr0.clone().requires_grad_(True)
unrolled(lr_r).backward()
print(f"d/dlr (reverse) {lr_r.grad.item():.6f}")


# same with autograd.grad computing the inner gradient inside the dual level
def unrolled_autograd(lr, steps=15):
    w = torch.zeros(3, requires_grad=True)
    for _ in range(steps):
        (g,) = torch.autograd.grad(train_loss(w), w, create_graph=True)
        w = w - lr * g
    return val_loss(w)


with fwAD.dual_level():
    out = unrolled_autograd(fwAD.make_dual(lr0, torch.tensor(1.0)))
    print(f"d/dlr (forward through autograd.grad) {fwAD.unpack_dual(out).tangent.item():.6f}")

# tune the learning rate with the forward hypergradient
lr = lr0.clone()
for it in range(8):
    with fwAD.dual_level():
        loss, hg = fwAD.unpack_dual(unrolled(fwAD.make_dual(lr, torch.tensor(1.0))))
    lr = (lr - 0.02 * hg).clamp(0.01, 0.8)
    print(f"hyper-step {it}: val {loss.item():.6f} hypergrad {hg.item():+.6f} lr {lr.item():.4f}")

# several hyperparameters at once: one forward pass per tangent direction
def unrolled_two(lr, decay, steps=10):
    w = torch.zeros(3)
    for k in range(steps):
        g = 2 * x_tr.T @ (x_tr @ w - y_tr) / len(y_tr)
        w = w - lr * decay ** k * g
    return val_loss(w)


hyper = torch.tensor([0.2, 0.95])
hg = []
for e in torch.eye(2):
    with fwAD.dual_level():
        h = fwAD.make_dual(hyper, e)
        hg.append(fwAD.unpack_dual(unrolled_two(h[0], h[1])).tangent)
print("hypergradient (lr, decay):", [f"{v.item():.6f}" for v in hg])
print("reverse check:", torch.allclose(torch.stack(hg), torch.autograd.functional.jacobian(lambda h: unrolled_two(h[0], h[1]), hyper)))
