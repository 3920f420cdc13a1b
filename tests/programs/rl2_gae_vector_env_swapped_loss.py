# GAE over (T, num_envs) rollouts with reversed loops and nextnonterminal masks, returns =
# advantages + values, flatten to the batch, and the common argument order F.mse_loss(returns,
# values) / F.smooth_l1_loss(returns, values) where the *target* carries the gradient.
import torch
import torch.nn.functional as F

T, N = 6, 3
gamma, gae_lambda = 0.99, 0.95
rewards = torch.sin(torch.arange(T * N, dtype=torch.float32) * 0.45).view(T, N)
dones = torch.zeros(T, N)
dones[2, 0] = dones[4, 1] = dones[5, 2] = 1.0
values = torch.cos(torch.arange(T * N, dtype=torch.float32) * 0.2).view(T, N)
next_value = torch.tensor([0.3, -0.1, 0.2])
next_done = torch.tensor([0.0, 1.0, 0.0])

advantages = torch.zeros_like(rewards)
lastgaelam = 0
for t in reversed(range(T)):
    if t == T - 1:
        nextnonterminal = 1.0 - next_done
        nextvalues = next_value
    else:
        nextnonterminal = 1.0 - dones[t + 1]
        nextvalues = values[t + 1]
    delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
    advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
returns = advantages + values
print(advantages.round(decimals=4))
print(returns.round(decimals=4), type(lastgaelam).__name__)

b_returns = returns.reshape(-1)
b_adv = advantages.reshape(-1)
b_adv_norm = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
print(b_returns.shape, b_adv_norm.mean().abs() < 1e-6, round(b_adv_norm.std().item(), 4))

# value head predictions equal to the returns in some slots (a converged critic)
pred = b_returns.clone()
pred[::3] += torch.linspace(-0.6, 0.6, 6)
pred = pred.detach().requires_grad_()
for name, fn in [("mse", F.mse_loss), ("smooth_l1", F.smooth_l1_loss), ("huber", F.huber_loss),
                 ("l1", F.l1_loss)]:
    pred.grad = None
    loss = 0.5 * fn(b_returns, pred)
    loss.backward()
    print(name, f"{loss.item():.5f}", loss.grad_fn.name(), pred.grad[:6])

pred.grad = None
F.mse_loss(b_returns.view(T, N), pred.view(T, N), reduction="sum").backward()
print(pred.grad.view(T, N)[:2])
pred.grad = None
F.smooth_l1_loss(b_returns, pred, reduction="none", beta=0.3).sum().backward()
print(pred.grad[:6])
pred.grad = None
(-F.huber_loss(pred, b_returns, reduction="sum", delta=0.5)).backward()
print(pred.grad[:6])
