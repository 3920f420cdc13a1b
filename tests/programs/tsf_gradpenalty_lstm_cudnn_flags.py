# Gradient-penalty / input-smoothness regularised LSTM forecaster as in adversarial-robustness and
# WGAN-GP time-series repos: double backward through nn.LSTM inside
# `with torch.backends.cudnn.flags(enabled=False):` (cuDNN RNNs are not twice differentiable).
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 6, num_layers=2, batch_first=True)
        self.fc = nn.Linear(6, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


critic = Critic()
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.63 + i).reshape(p.shape) * 0.3)
t = torch.arange(12, dtype=torch.float32)
real = torch.stack([torch.sin(t / 2 + k) for k in range(4)]).unsqueeze(-1)
fake = torch.stack([torch.cos(t / 3 + k) * 0.8 for k in range(4)]).unsqueeze(-1)
alpha = torch.linspace(0.1, 0.9, 4).view(4, 1, 1)
opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))
for step in range(10):
    opt.zero_grad()
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    with torch.backends.cudnn.flags(enabled=False):
        score = critic(interp)
        grads = torch.autograd.grad(score.sum(), interp, create_graph=True)[0]
    gp = ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} loss {loss.item():.4f} gp {gp.item():.4f}")
print("cudnn enabled after block", torch.backends.cudnn.enabled)
