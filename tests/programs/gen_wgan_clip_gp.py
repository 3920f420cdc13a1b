# WGAN and WGAN-GP training steps as in the tutorials: critic with LeakyReLU, RMSprop + weight
# clipping via p.data.clamp_, the gradient penalty with torch.autograd.grad(create_graph=True),
# the Adam(betas=(0., 0.9)) WGAN-GP step, n_critic loop, and checks on second derivatives.
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_critic():
    return nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))


def init(net, shift):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i + shift).view_as(p) * 0.6)


G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3), nn.Tanh())
critic = make_critic()
init(G, 0.5)
init(critic, 0.0)
real = torch.cos(torch.arange(18, dtype=torch.float32) * 0.45).view(6, 3)
z = torch.sin(torch.arange(12, dtype=torch.float32) * 1.1).view(6, 2)

# --- original WGAN: RMSprop and weight clipping ---
optC = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
optG = torch.optim.RMSprop(G.parameters(), lr=5e-3)
clip_value = 0.05
for it in range(2):
    for _ in range(3):
        optC.zero_grad()
        fake = G(z).detach()
        loss_C = -torch.mean(critic(real)) + torch.mean(critic(fake))
        loss_C.backward()
        optC.step()
        for p in critic.parameters():
            p.data.clamp_(-clip_value, clip_value)
    optG.zero_grad()
    loss_G = -torch.mean(critic(G(z)))
    loss_G.backward()
    optG.step()
    print(f"[WGAN {it}] loss_C {loss_C.item():.6f} loss_G {loss_G.item():.6f}")
print(critic[0].weight.abs().max(), critic[4].bias, G[0].weight.grad.norm() > 0)
print(optC.state_dict()['param_groups'][0]['alpha'], len(optC.state), sorted(optC.state[critic[0].weight].keys()))


# --- WGAN-GP ---
def compute_gradient_penalty(D, real_samples, fake_samples, alpha):
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, requires_grad=False)
    gradients = torch.autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                                    create_graph=True, retain_graph=True, only_inputs=True)[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean(), gradients


critic = make_critic()
init(critic, 1.0)
optC = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
alpha = torch.linspace(0.1, 0.9, 6).view(6, 1)
for it in range(3):
    optC.zero_grad()
    fake = G(z)
    gp, grads = compute_gradient_penalty(critic, real, fake.detach(), alpha)
    d_loss = -torch.mean(critic(real)) + torch.mean(critic(fake.detach())) + 10 * gp
    d_loss.backward()
    optC.step()
    print(f"[GP {it}] d_loss {d_loss.item():.5f} gp {gp.item():.5f} grad norms {grads.norm(dim=1)}")
print(grads.grad_fn.name(), grads.requires_grad, critic[0].weight.grad[0])

# the penalty alone: which critic parameters receive a gradient?
critic.zero_grad(set_to_none=True)
gp, _ = compute_gradient_penalty(critic, real, G(z).detach(), alpha)
gp.backward()
for name, p in critic.named_parameters():
    print(name, None if p.grad is None else p.grad.abs().sum())

# The gradient of a piecewise-linear (LeakyReLU) critic w.r.t. its input is piecewise constant,
# so the second derivative w.r.t. the input is zero. Checked with frozen critic weights.
critic.requires_grad_(False)
x = real.clone().requires_grad_()
g, = torch.autograd.grad(critic(x).sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn)
hvp, = torch.autograd.grad(g.sum(), x)
print(hvp)
x = real[:2].clone().requires_grad_()
lrelu = nn.LeakyReLU(0.2)
g, = torch.autograd.grad(lrelu(x).pow(2).sum(), x, create_graph=True)
print(g, g.grad_fn.name())
print(torch.autograd.grad(g.sum(), x)[0])
