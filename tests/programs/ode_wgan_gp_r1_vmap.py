# WGAN-GP and R1 penalties as GAN repos write them: interpolates with fixed alphas,
# autograd.grad(outputs=d, inputs=x_hat, grad_outputs=torch.ones_like(d), create_graph=True,
# retain_graph=True, only_inputs=True), the same penalty via torch.func vmap(grad) and
# functional_call, and a few alternating critic / generator steps.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap


def init_(model, scale):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(scale * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.53 + i).reshape(p.shape))


critic = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
gen = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
init_(critic, 0.4)
init_(gen, 0.5)

t = torch.linspace(0, 6.28, 16)
real = torch.stack([torch.cos(t), torch.sin(t)], 1)
z = torch.stack([torch.sin(t), torch.cos(2 * t), torch.sin(3 * t)], 1)
alpha = (torch.arange(16, dtype=torch.float32) % 5 / 4).unsqueeze(1)


def gradient_penalty(critic, real, fake):
    x_hat = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d = critic(x_hat)
    g = torch.autograd.grad(outputs=d, inputs=x_hat, grad_outputs=torch.ones_like(d),
                            create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((g.view(g.size(0), -1).norm(2, dim=1) - 1) ** 2).mean(), g


def r1_penalty(critic, real):
    real = real.detach().requires_grad_(True)
    out = critic(real)
    (g,) = torch.autograd.grad(out.sum(), real, create_graph=True)
    return g.pow(2).sum(1).mean()


fake = gen(z).detach()
gp, g = gradient_penalty(critic, real, fake)
print("gp", f"{gp.item():.5f}", "grad_fn", gp.grad_fn.name(), "g shape", tuple(g.shape))

# the same per-sample input gradients with torch.func
params = {k: v.detach() for k, v in critic.named_parameters()}


def critic_scalar(params, x):
    return functional_call(critic, params, (x.unsqueeze(0),)).squeeze()


x_hat = alpha * real + (1 - alpha) * fake
g_func = vmap(grad(critic_scalar, argnums=1), in_dims=(None, 0))(params, x_hat)
print("vmap(grad) matches autograd.grad:", torch.allclose(g_func, g.detach(), atol=1e-6))
gp_func = ((g_func.norm(dim=1) - 1) ** 2).mean()
print("gp (func)", f"{gp_func.item():.5f}")

# gradient of the penalty w.r.t. the critic weights two ways
critic.zero_grad()
gp.backward()
w_grad = critic[0].weight.grad.clone()


def gp_of_params(params):
    gs = vmap(grad(critic_scalar, argnums=1), in_dims=(None, 0))(params, x_hat)
    return ((gs.norm(dim=1) - 1) ** 2).mean()


gp_param_grads = grad(gp_of_params)(params)
print("d gp / d W0 match:", torch.allclose(gp_param_grads["0.weight"], w_grad, atol=1e-6))
print("last-layer bias grad:", critic[4].bias.grad, gp_param_grads["4.bias"])

opt_d = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.0, 0.9))
for it in range(8):
    fake = gen(z)
    opt_d.zero_grad()
    gp, _ = gradient_penalty(critic, real, fake.detach())
    d_loss = critic(fake.detach()).mean() - critic(real).mean() + 10.0 * gp
    d_loss.backward()
    opt_d.step()
    r1 = r1_penalty(critic, real)
    if it % 2 == 1:
        opt_g.zero_grad()
        g_loss = -critic(gen(z)).mean()
        g_loss.backward()
        opt_g.step()
    print(f"it {it} d_loss {d_loss.item():.4f} gp {gp.item():.4f} r1 {r1.item():.4f}")
print("r1 requires grad:", r1.requires_grad, r1.grad_fn.name())
