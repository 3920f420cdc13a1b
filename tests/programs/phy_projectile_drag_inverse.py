# Inverse problem: recover the quadratic drag coefficient and launch angle of a projectile from
# observed positions by backpropagating through an explicit time-stepping loop (torch.where for the
# ground contact, nn.Parameter scalars, Adam + ReduceLROnPlateau), in float64.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
g = torch.tensor([0.0, -9.81])


class Projectile(nn.Module):
    def __init__(self, c0=0.05, angle0=0.6):
        super().__init__()
        self.log_c = nn.Parameter(torch.tensor(math.log(c0)))
        self.angle = nn.Parameter(torch.tensor(angle0))
        self.register_buffer("speed", torch.tensor(20.0))

    def forward(self, n_steps=60, dt=0.05):
        c = self.log_c.exp()
        v = self.speed * torch.stack([torch.cos(self.angle), torch.sin(self.angle)])
        x = torch.zeros(2)
        out = []
        for _ in range(n_steps):
            a = g - c * v.norm() * v
            v = v + dt * a
            x = x + dt * v
            # once it hits the ground it stays there (non-differentiable branch via where)
            x = torch.where(x[1] < 0, torch.stack([x[0], torch.zeros(())]), x)
            out.append(x)
        return torch.stack(out)


true = Projectile(c0=0.02, angle0=0.9)
with torch.no_grad():
    obs = true()[::5]
print("observations", obs.shape)
print(obs[:4])

model = Projectile()
print([(n, p.shape, p.requires_grad) for n, p in model.named_parameters()])
print(list(model.state_dict().keys()))
pred = model()
print(pred.grad_fn.name(), pred.shape)
loss = nn.functional.mse_loss(pred[::5], obs)
loss.backward()
print("initial loss %.4f" % loss.item())
print("grad log_c %.4f grad angle %.4f" % (model.log_c.grad.item(), model.angle.grad.item()))

opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
history = []
for epoch in range(40):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model()[::5], obs)
    loss.backward()
    opt.step()
    sched.step(loss.item())
    history.append(loss.item())
    if epoch % 8 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f} c={model.log_c.exp().item():.4f} "
              f"angle={model.angle.item():.4f} lr={opt.param_groups[0]['lr']:.4f}")
print("loss went down:", history[-1] < 0.1 * history[0])
print("recovered angle within 0.05:", abs(model.angle.item() - 0.9) < 0.05)

# sensitivity of the range to the parameters at the truth, via autograd.grad
traj = true()
landing = traj[-1, 0]
dc, dang = torch.autograd.grad(landing, [true.log_c, true.angle])
print(f"range {landing.item():.3f} d/dlogc {dc.item():.3f} d/dangle {dang.item():.3f}")
