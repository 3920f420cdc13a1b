# Common mistakes when computing PDE residual derivatives with torch.autograd.grad: missing
# grad_outputs for non-scalar u, shape mismatch in grad_outputs, inputs that do not require grad,
# unused inputs, second backward through a freed graph, and the fixes (allow_unused, retain_graph,
# materialize_grads).
import torch


def u_fn(x, t):
    return torch.sin(torch.pi * x) * torch.exp(-t)


x = torch.linspace(0.0, 1.0, 5, requires_grad=True)
t = torch.linspace(0.0, 0.4, 5, requires_grad=True)
u = u_fn(x, t)


def attempt(name, fn):
    try:
        out = fn()
        print(name, "ok", out)
    except Exception as e:
        print(name, type(e).__name__, "|", str(e).split("\n")[0])


attempt("no grad_outputs", lambda: torch.autograd.grad(u, x, retain_graph=True))
attempt("bad shape", lambda: torch.autograd.grad(u, x, grad_outputs=torch.ones(4), retain_graph=True))
attempt("bad dtype", lambda: torch.autograd.grad(u, x, grad_outputs=torch.ones(5, dtype=torch.float64),
                                                 retain_graph=True))
attempt("x detached", lambda: torch.autograd.grad(u.sum(), x.detach(), retain_graph=True))
y = torch.linspace(0.0, 1.0, 5, requires_grad=True)
attempt("unused input", lambda: torch.autograd.grad(u.sum(), [x, y], retain_graph=True))
attempt("allow_unused", lambda: torch.autograd.grad(u.sum(), [x, y], retain_graph=True, allow_unused=True)[1])
attempt("materialize", lambda: torch.autograd.grad(u.sum(), [x, y], retain_graph=True, allow_unused=True,
                                                   materialize_grads=True)[1])
attempt("const output", lambda: torch.autograd.grad(torch.ones(3).sum(), x))

u_x = torch.autograd.grad(u, x, torch.ones_like(u))[0]
print("u_x:", u_x)
print("u_x requires grad without create_graph:", u_x.requires_grad)
attempt("second derivative of detached u_x", lambda: torch.autograd.grad(u_x.sum(), x))
attempt("reuse freed graph", lambda: torch.autograd.grad(u.sum(), t))

u = u_fn(x, t)
u_x, u_t = torch.autograd.grad(u, (x, t), torch.ones_like(u), create_graph=True)
u_xx = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)[0]
print("u_xx / (-pi^2 u):", (u_xx / (-torch.pi ** 2 * u)).detach()[1:-1])
print("u_t + u = 0:", torch.allclose(u_t + u, torch.zeros(5)))
attempt("u_t wrt t again", lambda: torch.autograd.grad(u_t.sum(), t, retain_graph=True)[0])
attempt("u_t wrt x (unused)", lambda: torch.autograd.grad(u_t.sum(), x, allow_unused=True)[0])

# backward() variants: implicit grad for non-scalar, accumulate twice
v = u_fn(x, t)
attempt("backward non-scalar", lambda: v.backward())
x.grad = None
v.sum().backward(retain_graph=True)
v.sum().backward()
print("accumulated x.grad / single:", (x.grad / torch.autograd.grad(u_fn(x, t).sum(), x)[0]))
attempt("grad of int tensor", lambda: torch.arange(3).requires_grad_())
attempt("inputs=", lambda: (u_fn(x, t).sum().backward(inputs=[t]), t.grad)[1])
print("x.grad unchanged:", x.grad is not None)
