# Lightning manual optimization (automatic_optimization = False) written by hand: two optimizers
# for a generator/critic pair, toggle_optimizer/untoggle_optimizer flipping requires_grad of the
# other optimizer's params, manual_backward, gradient accumulation every 2 batches, per-optimizer
# schedulers stepped at epoch end, and an LBFGS head refined with optimizer.step(closure).
import torch
import torch.nn as nn
import torch.nn.functional as F


def init_(module, phase):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_((torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + phase + i) * 0.4).view_as(p))


class GAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.generator = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
        self.critic = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
        init_(self.generator, 0.0)
        init_(self.critic, 1.0)
        self._param_requires_grad_state = {}

    def configure_optimizers(self):
        g = torch.optim.Adam(self.generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
        d = torch.optim.RMSprop(self.critic.parameters(), lr=1e-3)
        return [g, d], [torch.optim.lr_scheduler.ExponentialLR(g, 0.9),
                        torch.optim.lr_scheduler.StepLR(d, step_size=2, gamma=0.5)]

    def toggle_optimizer(self, optimizer, all_optimizers):
        keep = {id(p) for group in optimizer.param_groups for p in group["params"]}
        for opt in all_optimizers:
            for group in opt.param_groups:
                for p in group["params"]:
                    if id(p) not in keep:
                        self._param_requires_grad_state[p] = p.requires_grad
                        p.requires_grad = False

    def untoggle_optimizer(self):
        for p, state in self._param_requires_grad_state.items():
            p.requires_grad = state
        self._param_requires_grad_state = {}

    def manual_backward(self, loss, scale=1.0):
        (loss * scale).backward()


model = GAN()
(opt_g, opt_d), (sched_g, sched_d) = model.configure_optimizers()
z = torch.stack([torch.cos(torch.arange(16.0) * 0.4), torch.sin(torch.arange(16.0) * 0.9)], 1)
real = torch.stack([torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16) ** 2], 1)
accumulate = 2
for epoch in range(3):
    for batch_idx in range(4):
        zb, rb = z[batch_idx * 4:(batch_idx + 1) * 4], real[batch_idx * 4:(batch_idx + 1) * 4]
        model.toggle_optimizer(opt_d, [opt_g, opt_d])
        frozen = sum(not p.requires_grad for p in model.generator.parameters())
        d_loss = model.critic(model.generator(zb)).mean() - model.critic(rb).mean()
        model.manual_backward(d_loss, scale=1 / accumulate)
        gen_grads = all(p.grad is None for p in model.generator.parameters())
        if (batch_idx + 1) % accumulate == 0:
            opt_d.step()
            opt_d.zero_grad()
            with torch.no_grad():
                for p in model.critic.parameters():
                    p.clamp_(-0.5, 0.5)
        model.untoggle_optimizer()

        model.toggle_optimizer(opt_g, [opt_g, opt_d])
        g_loss = -model.critic(model.generator(zb)).mean()
        opt_g.zero_grad()
        model.manual_backward(g_loss)
        critic_untouched = all(p.grad is None or (batch_idx + 1) % accumulate == 1 for p in model.critic.parameters())
        opt_g.step()
        model.untoggle_optimizer()
    sched_g.step()
    sched_d.step()
    print(f"epoch {epoch}: d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f} "
          f"lr_g {sched_g.get_last_lr()[0]:.5f} lr_d {sched_d.get_last_lr()[0]:.5f} "
          f"frozen-during-d {frozen} gen-grads-none {gen_grads} critic-grads-kept {critic_untouched}")
print("all trainable again:", all(p.requires_grad for p in model.parameters()))
print("critic max |w|:", f"{max(p.abs().max().item() for p in model.critic.parameters()):.4f}")
print("rmsprop state keys:", sorted(opt_d.state[model.critic[0].weight]))

head = nn.Linear(2, 1)
init_(head, 2.0)
lbfgs = torch.optim.LBFGS(head.parameters(), lr=0.5, max_iter=5, history_size=4, line_search_fn="strong_wolfe")
target = (real[:, :1] * 0.7 - 0.2)
calls = []


def closure():
    lbfgs.zero_grad()
    loss = F.mse_loss(head(real), target)
    loss.backward()
    calls.append(round(loss.item(), 5))
    return loss


for it in range(3):
    out = lbfgs.step(closure)
    print(f"lbfgs step {it}: returned {out.item():.5f} evals so far {len(calls)}")
print("first evals:", calls[:4])
print("final loss:", f"{F.mse_loss(head(real), target).item():.6f}")
print("lbfgs state keys:", sorted(lbfgs.state[lbfgs.param_groups[0]['params'][0]]))
