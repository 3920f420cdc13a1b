# Inverse problem: identify an unknown diffusivity (nn.Parameter, log-parametrised) and a source
# amplitude of a 2-D Poisson problem from interior observations, with a PINN whose Laplacian is
# built by looping torch.autograd.grad over the input dimensions; Adam then LBFGS (strong_wolfe).
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
TRUE_K, TRUE_A = 0.7, 2.0


def exact(xy):
    return torch.sin(math.pi * xy[:, :1]) * torch.sin(math.pi * xy[:, 1:])


class InversePINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 12), nn.Tanh(), nn.Linear(12, 12), nn.Tanh(), nn.Linear(12, 1))
        self.log_k = nn.Parameter(torch.tensor(0.0))
        self.amp = nn.Parameter(torch.tensor(1.0))
        with torch.no_grad():
            for i, p in enumerate(self.body.parameters()):
                j = torch.arange(p.numel(), dtype=torch.float64)
                p.copy_((0.7 * torch.sin(1.7 * j + 0.3 * i)).reshape(p.shape))

    def forward(self, xy):
        return self.body(xy)


def laplacian(u, xy):
    grad = torch.autograd.grad(u, xy, torch.ones_like(u), create_graph=True)[0]
    lap = torch.zeros_like(u)
    for d in range(xy.shape[1]):
        lap = lap + torch.autograd.grad(grad[:, d:d + 1], xy, torch.ones_like(u), create_graph=True)[0][:, d:d + 1]
    return lap


g = torch.linspace(0.05, 0.95, 7)
X, Y = torch.meshgrid(g, g, indexing="ij")
col = torch.stack([X.reshape(-1), Y.reshape(-1)], 1)
obs = col[::3]
u_obs = exact(obs)
source = lambda xy, a: a * 2 * math.pi ** 2 * TRUE_K / TRUE_A * exact(xy)
t = torch.linspace(0, 1, 6)
bnd = torch.cat([torch.stack([t, torch.zeros(6)], 1), torch.stack([t, torch.ones(6)], 1),
                 torch.stack([torch.zeros(6), t], 1), torch.stack([torch.ones(6), t], 1)])

model = InversePINN()
print("parameters:", [n for n, _ in model.named_parameters()])


def total_loss():
    xy = col.clone().requires_grad_(True)
    u = model(xy)
    k = model.log_k.exp()
    res = -k * laplacian(u, xy) - source(xy, model.amp)
    return res.pow(2).mean() + 10 * (model(obs) - u_obs).pow(2).mean() + 10 * model(bnd).pow(2).mean()


opt = torch.optim.Adam(model.parameters(), lr=0.02)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=15, gamma=0.5)
first = None
for step in range(30):
    opt.zero_grad()
    loss = total_loss()
    loss.backward()
    opt.step()
    sched.step()
    first = first or loss.item()
    if step % 10 == 0:
        print(f"adam {step:2d} loss {loss.item():.4f} k {model.log_k.exp().item():.4f} lr {sched.get_last_lr()[0]:.4f}")

lbfgs = torch.optim.LBFGS(model.parameters(), max_iter=40, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    l = total_loss()
    l.backward()
    return l


lbfgs.step(closure)
final = total_loss().item()
print("loss reduced 10x:", final < first / 10)
print("k, amplitude positive:", model.log_k.exp().item() > 0, model.amp.item() > 0)
print("grad of log_k is scalar:", model.log_k.grad.shape, model.log_k.grad.dtype)
print("param count:", sum(p.numel() for p in model.parameters()))
