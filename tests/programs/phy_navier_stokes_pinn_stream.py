# PINN for 2D incompressible Navier-Stokes in stream-function form (Raissi's "hidden fluid
# mechanics" / cylinder-wake code): the net outputs (psi, p), velocities u = psi_y, v = -psi_x,
# momentum residuals from nested torch.autograd.grad calls, unknown viscosity/density constants
# lambda_1, lambda_2 learned jointly (inverse problem), and the Jacobian of the outputs.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


class NSNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 2))
        self.lambda_1 = nn.Parameter(torch.tensor([0.0]))
        self.lambda_2 = nn.Parameter(torch.tensor([0.0]))
        with torch.no_grad():
            for i, p in enumerate(self.net.parameters()):
                p.copy_(0.5 * torch.cos(1.1 * torch.arange(p.numel()) + i).view(p.shape))

    def forward(self, xyt):
        return self.net(xyt)


def grad(out, inp):
    return torch.autograd.grad(out, inp, grad_outputs=torch.ones_like(out), create_graph=True)[0]


def ns_residuals(model, x, y, t):
    psi_p = model(torch.cat([x, y, t], 1))
    psi, p = psi_p[:, 0:1], psi_p[:, 1:2]
    u, v = grad(psi, y), -grad(psi, x)
    u_t, u_x, u_y = grad(u, t), grad(u, x), grad(u, y)
    v_t, v_x, v_y = grad(v, t), grad(v, x), grad(v, y)
    u_xx, u_yy, v_xx, v_yy = grad(u_x, x), grad(u_y, y), grad(v_x, x), grad(v_y, y)
    p_x, p_y = grad(p, x), grad(p, y)
    f_u = u_t + model.lambda_1 * (u * u_x + v * u_y) + p_x - model.lambda_2 * (u_xx + u_yy)
    f_v = v_t + model.lambda_1 * (u * v_x + v * v_y) + p_y - model.lambda_2 * (v_xx + v_yy)
    return u, v, p, f_u, f_v


# Taylor-Green vortex as synthetic data (nu = 0.05, rho = 1)
n = torch.linspace(0, 1, 4)
gx, gy, gt = torch.meshgrid(n, n, torch.tensor([0.0, 0.5]), indexing="ij")
x, y, t = [g.reshape(-1, 1).clone().requires_grad_(True) for g in (gx, gy, gt)]
decay = torch.exp(-2 * 0.05 * t.detach())
u_data = torch.cos(x.detach()) * torch.sin(y.detach()) * decay
v_data = -torch.sin(x.detach()) * torch.cos(y.detach()) * decay
print("points", x.shape, "continuity holds by construction")

model = NSNet()
u, v, p, f_u, f_v = ns_residuals(model, x, y, t)
div = grad(u, x) + grad(v, y)
print("max |div u| < 1e-12:", div.abs().max().item() < 1e-12)  # zero up to rounding
print("f_u", f_u[:3].detach().view(-1), f_u.grad_fn.name())

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for it in range(25):
    opt.zero_grad()
    u, v, p, f_u, f_v = ns_residuals(model, x, y, t)
    loss = ((u - u_data) ** 2).mean() + ((v - v_data) ** 2).mean() + (f_u ** 2).mean() + (f_v ** 2).mean()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(f"It {it:2d} loss {loss.item():.5f} l1 {model.lambda_1.item():.4f} l2 {model.lambda_2.item():.5f}")
print([k for k in model.state_dict()])
print(model.lambda_1.grad, model.lambda_2.grad.shape)

# Jacobian of the two outputs w.r.t. (x, y, t) at every point, batched over output channels
xyt = torch.cat([x, y, t], 1).detach().requires_grad_(True)
out = model(xyt)
rows = [torch.autograd.grad(out[:, k].sum(), xyt, retain_graph=True)[0] for k in range(2)]
J_loop = torch.stack(rows, dim=1)
print("loop Jacobian", J_loop.shape, J_loop[0])
eye = torch.eye(2).unsqueeze(1).expand(2, out.shape[0], 2)
J_batched, = torch.autograd.grad(out, xyt, eye, is_grads_batched=True)
print("is_grads_batched", J_batched.shape, torch.allclose(J_batched.transpose(0, 1), J_loop))
