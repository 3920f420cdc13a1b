# Energy-based models and score matching, as in the tutorials: score = -dE/dx via
# torch.autograd.grad(create_graph=True), Langevin dynamics sampling, denoising score matching,
# sliced score matching (Hutchinson estimator with fixed projections), the exact trace of the
# Jacobian of the score by a loop, and contrastive-divergence training.
import torch
import torch.nn as nn
import torch.nn.functional as F


class EnergyNet(nn.Module):
    def __init__(self, act):
        super().__init__()
        self.fc1, self.fc2, self.act = nn.Linear(2, 8), nn.Linear(8, 1), act

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))).squeeze(-1)


def init(net):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view_as(p) * 0.7)


def score_fn(energy, x, create_graph=True):
    x = x.requires_grad_(True) if not x.requires_grad else x
    e = energy(x)
    return -torch.autograd.grad(e.sum(), x, create_graph=create_graph)[0]


x = torch.stack([torch.cos(torch.linspace(0, 3, 6)), torch.sin(torch.linspace(0, 3, 6))], dim=1)
v = torch.stack([torch.cos(torch.arange(6.) * 2.3), torch.sin(torch.arange(6.) * 2.3)], dim=1)

for act in (nn.Softplus(), nn.Tanh(), nn.ELU(), nn.SiLU(), nn.LeakyReLU(0.1), nn.ReLU()):
    energy = EnergyNet(act)
    init(energy)
    energy.requires_grad_(False)        # evaluate the score of a fixed model
    xi = x.clone().requires_grad_(True)
    s = score_fn(energy, xi)
    print(type(act).__name__, s.requires_grad, s.grad_fn.name() if s.grad_fn else None)
    # exact trace of the Jacobian of the score, one coordinate at a time
    trace = torch.zeros(x.size(0))
    for d in range(2):
        trace = trace + torch.autograd.grad(s[:, d].sum(), xi, retain_graph=True)[0][:, d]
    print(" trace", trace)
    vs = torch.autograd.grad((s * v).sum(), xi, retain_graph=True)[0]
    print(" vHv", (vs * v).sum(1))

# Sliced score matching loss, trained with the model weights requiring grad
energy = EnergyNet(nn.Softplus())
init(energy)
opt = torch.optim.SGD(energy.parameters(), lr=0.05)
for step in range(3):
    xi = x.clone().requires_grad_(True)
    s = score_fn(energy, xi)
    grad_v = torch.autograd.grad((s * v).sum(), xi, create_graph=True)[0]
    loss1 = (grad_v * v).sum(1)
    loss2 = 0.5 * (s * v).sum(1) ** 2
    loss = (loss1 + loss2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"ssm step {step} loss {loss.item():.6f} fc1.bias.grad {energy.fc1.bias.grad}")

# Denoising score matching: target score of the Gaussian perturbation is -(x_noisy - x) / sigma^2
sigma = 0.1
noise = torch.sin(torch.arange(12.) * 3.1).view(6, 2)
x_noisy = (x + sigma * noise).requires_grad_(True)
s = score_fn(energy, x_noisy)
target = -(x_noisy - x) / sigma ** 2
dsm = 0.5 * ((s - target) ** 2).sum(dim=-1).mean()
dsm.backward()
print(f"dsm {dsm.item():.4f}", energy.fc2.weight.grad)

# Langevin dynamics sampling with fixed "noise"
energy.requires_grad_(False)
xs = torch.zeros(4, 2)
step_size = 0.01
for t in range(10):
    xs.requires_grad_(True)
    g = torch.autograd.grad(energy(xs).sum(), xs)[0]
    xs = (xs - 0.5 * step_size * g + step_size ** 0.5 * 0.1 * torch.cos(torch.arange(8.) + t).view(4, 2)).detach()
print(xs, xs.requires_grad)

# Contrastive divergence: E(real) - E(samples), with an L2 energy regularizer
energy.requires_grad_(True)
opt.zero_grad()
e_pos, e_neg = energy(x), energy(xs)
cd = e_pos.mean() - e_neg.mean() + 0.1 * ((e_pos ** 2).mean() + (e_neg ** 2).mean())
cd.backward()
print(f"cd {cd.item():.6f}", energy.fc1.weight.grad[:2])

# Score of a Gaussian energy written with mse_loss, and torch.autograd.functional on a frozen
# LeakyReLU energy (its Hessian is zero almost everywhere).
mu = torch.tensor([0.5, -0.5])
xg = x[:3].clone().requires_grad_(True)
score = -torch.autograd.grad(0.5 * F.mse_loss(xg, mu.expand_as(xg), reduction='sum'), xg, create_graph=True)[0]
print(score)
leaky = EnergyNet(nn.LeakyReLU(0.1))
init(leaky)
leaky.requires_grad_(False)
H = torch.autograd.functional.hessian(lambda inp: leaky(inp).sum(), x[:1], strict=True)
print(H.shape, H.abs().sum())
J = torch.autograd.functional.jacobian(lambda inp: F.leaky_relu(inp, 0.1), x[0], create_graph=True)
print(J)
