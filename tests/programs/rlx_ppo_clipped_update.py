# CleanRL ppo.py update phase on a fixed rollout: advantages normalised per minibatch,
# ratio = (newlogprob - oldlogprob).exp(), approx_kl both ways, clipfracs, the clipped
# surrogate with torch.max of negatives, the clipped value loss, the entropy bonus,
# clip_grad_norm_ and Adam(eps=1e-5), explained variance with numpy.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions.categorical import Categorical


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.constant_(layer.weight, std * 0.1)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(4, 8)), nn.Tanh(), layer_init(nn.Linear(8, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(4, 8)), nn.Tanh(), layer_init(nn.Linear(8, 2), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


agent = Agent()
with torch.no_grad():
    for i, p in enumerate(agent.parameters()):
        p.add_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.2)
optimizer = optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
print(optimizer.param_groups[0]["eps"], sum(p.numel() for p in agent.parameters()))

batch_size, minibatch_size, update_epochs = 8, 4, 2
clip_coef, ent_coef, vf_coef, max_grad_norm = 0.2, 0.01, 0.5, 0.5
b_obs = torch.cos(torch.arange(32, dtype=torch.float32) * 0.7).reshape(8, 4)
b_actions = torch.tensor([0., 1., 1., 0., 1., 0., 0., 1.])  # CleanRL stores actions as float
b_logprobs = torch.tensor([-0.70, -0.68, -0.71, -0.69, -0.72, -0.66, -0.70, -0.69])
b_advantages = torch.tensor([0.5, -0.2, 1.1, 0.3, -0.7, 0.0, 0.9, -0.4])
b_values = torch.tensor([0.1, 0.2, 0.0, -0.1, 0.3, 0.2, 0.1, 0.0])
b_returns = b_advantages + b_values

b_inds = np.arange(batch_size)
clipfracs = []
for epoch in range(update_epochs):
    b_inds = np.roll(b_inds, 3)  # stand-in for np.random.shuffle
    for start in range(0, batch_size, minibatch_size):
        end = start + minibatch_size
        mb_inds = b_inds[start:end]
        _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions.long()[mb_inds])
        logratio = newlogprob - b_logprobs[mb_inds]
        ratio = logratio.exp()
        with torch.no_grad():
            old_approx_kl = (-logratio).mean()
            approx_kl = ((ratio - 1) - logratio).mean()
            clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
        mb_advantages = b_advantages[mb_inds]
        mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
        pg_loss1 = -mb_advantages * ratio
        pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
        pg_loss = torch.max(pg_loss1, pg_loss2).mean()
        newvalue = newvalue.view(-1)
        v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
        v_clipped = b_values[mb_inds] + torch.clamp(newvalue - b_values[mb_inds], -clip_coef, clip_coef)
        v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
        v_loss_max = torch.max(v_loss_unclipped, v_loss_clipped)
        v_loss = 0.5 * v_loss_max.mean()
        entropy_loss = entropy.mean()
        loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
        optimizer.zero_grad()
        loss.backward()
        total_norm = nn.utils.clip_grad_norm_(agent.parameters(), max_grad_norm)
        optimizer.step()
        print(epoch, mb_inds, f"loss={loss.item():.5f} pg={pg_loss.item():.5f} v={v_loss.item():.5f} "
              f"ent={entropy_loss.item():.5f} kl={approx_kl.item():.2e} okl={old_approx_kl.item():.2e}")
        print(ratio, total_norm)
print(clipfracs, np.mean(clipfracs))
y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
var_y = np.var(y_true)
explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
print(type(explained_var).__name__, f"{explained_var:.4f}")

# the PPO surrogate written with torch.min on the un-negated objective (Spinning Up style)
adv = torch.tensor([1.0, -1.0, 0.5, -0.5])
ratio = torch.tensor([1.5, 1.5, 0.7, 0.7], requires_grad=True)
clip_adv = torch.clamp(ratio, 1 - 0.2, 1 + 0.2) * adv
loss_pi = -(torch.min(ratio * adv, clip_adv)).mean()
loss_pi.backward()
clipped = ratio.gt(1 + 0.2) | ratio.lt(1 - 0.2)
clipfrac = torch.as_tensor(clipped, dtype=torch.float32).mean().item()
print(loss_pi, ratio.grad, clipped, clipfrac)
r = torch.tensor([0.8, 1.0, 1.2], requires_grad=True)
torch.clamp(r, 0.8, 1.2).sum().backward()
print(r.grad, torch.clamp(r, min=torch.tensor(0.9), max=torch.tensor([1.1, 1.1, 1.1])))
