# WGAN-GP style gradient penalty: grad of the critic w.r.t. its input, penalised, then backward.
import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)

real = torch.linspace(-1, 1, 32).view(8, 4)
fake = torch.cos(torch.arange(32, dtype=torch.float32)).view(8, 4)
alpha = torch.linspace(0, 1, 8).view(8, 1).expand_as(real)
interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)

disc_interpolates = critic(interpolates)
gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                grad_outputs=torch.ones(disc_interpolates.size()),
                                create_graph=True, retain_graph=True, only_inputs=True)[0]
print(gradients.shape)
gradients = gradients.view(gradients.size(0), -1)
gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean() * 10
print(gradient_penalty)

loss = critic(fake).mean() - critic(real).mean() + gradient_penalty
loss.backward()
print(f"{loss.item():.5f}")
print(critic[0].weight.grad[:2])
print(critic[2].bias.grad)

# R1 penalty on real data, summed gradients squared
real_in = real.clone().requires_grad_()
out = critic(real_in).sum()
(grad_real,) = torch.autograd.grad(out, real_in, create_graph=True)
r1 = grad_real.pow(2).sum()
critic.zero_grad()
r1.backward()
print(r1, critic[0].bias.grad[:4])
