# PINN for the viscous Burgers equation u_t + u u_x = nu u_xx (Raissi et al. companion-code style):
# collocation points on a (t, x) grid fed as separate columns, derivatives through
# torch.autograd.grad(..., create_graph=True), initial/boundary losses, Adam warm-up then L-BFGS.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5, sci_mode=False)
nu = 0.01 / math.pi


class PhysicsInformedNN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(a, b) for a, b in zip(layers[:-1], layers[1:])])
        with torch.no_grad():
            for k, lin in enumerate(self.linears):
                n_out, n_in = lin.weight.shape
                idx = torch.arange(n_out * n_in, dtype=torch.float64).reshape(n_out, n_in)
                lin.weight.copy_(torch.sin(1.3 * idx + k) * math.sqrt(2.0 / (n_in + n_out)))
                lin.bias.copy_(0.1 * torch.cos(torch.arange(n_out) + 0.5 * k))

    def forward(self, t, x):
        h = torch.cat([t, x], dim=1)
        for lin in self.linears[:-1]:
            h = torch.tanh(lin(h))
        return self.linears[-1](h)


def net_f(model, t, x):
    u = model(t, x)
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), retain_graph=True, create_graph=True)[0]
    return u_t + u * u_x - nu * u_xx


T, X = torch.meshgrid(torch.linspace(0, 1, 6), torch.linspace(-1, 1, 7), indexing="ij")
t_f = T.reshape(-1, 1).requires_grad_(True)
x_f = X.reshape(-1, 1).requires_grad_(True)
x_ic = torch.linspace(-1, 1, 9).unsqueeze(-1)
t_ic = torch.zeros_like(x_ic)
u_ic = -torch.sin(math.pi * x_ic)
t_bc = torch.linspace(0, 1, 5).repeat(2).unsqueeze(-1)
x_bc = torch.cat([-torch.ones(5), torch.ones(5)]).unsqueeze(-1)
print("collocation", t_f.shape, x_f.shape, "ic", x_ic.shape, "bc", x_bc.shape)

model = PhysicsInformedNN([2, 10, 10, 1])
print(sum(p.numel() for p in model.parameters()), [k for k in model.state_dict()][:4])


def loss_fn():
    f = net_f(model, t_f, x_f)
    loss_f = torch.mean(f ** 2)
    loss_ic = torch.mean((model(t_ic, x_ic) - u_ic) ** 2)
    loss_bc = torch.mean(model(t_bc, x_bc) ** 2)
    return loss_f + loss_ic + loss_bc, (loss_f, loss_ic, loss_bc)


f0 = net_f(model, t_f, x_f)
print("residual", f0.shape, f0.grad_fn.name())
print(f0[:5, 0].detach())

adam = torch.optim.Adam(model.parameters(), lr=5e-3)
for it in range(30):
    adam.zero_grad()
    loss, parts = loss_fn()
    loss.backward()
    adam.step()
    if it % 10 == 0:
        print("Adam It: %d, Loss: %.4e, f: %.4e, ic: %.4e, bc: %.4e" % (it, loss.item(), *[p.item() for p in parts]))

lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=20, max_eval=25, history_size=10,
                          tolerance_grad=1e-9, tolerance_change=1e-12, line_search_fn="strong_wolfe")
n_calls = [0]


def closure():
    lbfgs.zero_grad()
    loss, _ = loss_fn()
    loss.backward()
    n_calls[0] += 1
    return loss


before = loss_fn()[0].item()
lbfgs.step(closure)
after = loss_fn()[0].item()
print("LBFGS closure calls:", n_calls[0], "decreased:", after < before)
print("loss after LBFGS: %.3e" % after)
st = lbfgs.state[lbfgs._params[0]]
print(sorted(st.keys()))

with torch.no_grad():
    u_pred = model(torch.full((5, 1), 0.5), torch.linspace(-1, 1, 5).unsqueeze(1))
print(u_pred.squeeze().numpy().round(3))
