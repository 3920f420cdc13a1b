# CleanRL ppo.py update epoch: Categorical(logits) log_prob/entropy, logratio/ratio, approx_kl
# ((ratio - 1) - logratio).mean(), clipfracs, clipped value loss with torch.max, advantage
# normalization per minibatch, minibatch indices from a fixed permutation, clip_grad_norm_ norms.
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


def layer_init(layer, k, bias_const=0.0):
    with torch.no_grad():
        layer.weight.copy_(torch.cos(torch.arange(layer.weight.numel(), dtype=torch.float32) * 0.61 + k)
                           .view_as(layer.weight) * 0.5)
        torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(4, 16), 0), nn.Tanh(), layer_init(nn.Linear(16, 1), 1, 0.1))
        self.actor = nn.Sequential(layer_init(nn.Linear(4, 16), 2), nn.Tanh(), layer_init(nn.Linear(16, 3), 3))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.probs.argmax(-1)
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


agent = Agent()
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
batch_size, minibatch_size = 16, 4
b_obs = torch.stack([torch.sin(torch.arange(4) * 0.9 + 0.3 * i) for i in range(batch_size)])
with torch.no_grad():
    b_actions, b_logprobs, _, b_values = agent.get_action_and_value(b_obs)
    b_actions = (b_actions + torch.arange(batch_size)) % 3
    b_logprobs = Categorical(logits=agent.actor(b_obs)).log_prob(b_actions)
b_values = b_values.flatten()
b_advantages = torch.sin(torch.arange(batch_size, dtype=torch.float32) * 1.7)
b_returns = b_advantages + b_values
print(b_actions, b_logprobs.shape, b_values.shape)

perms = [[3, 7, 0, 12, 9, 1, 15, 4, 10, 2, 8, 14, 5, 11, 6, 13], [10, 4, 1, 8, 15, 0, 6, 13, 3, 12, 7, 2, 9, 14, 11, 5]]
clip_coef, ent_coef, vf_coef = 0.2, 0.01, 0.5
for epoch, perm in enumerate(perms):
    b_inds = np.array(perm)
    clipfracs = []
    for start in range(0, batch_size, minibatch_size):
        mb_inds = b_inds[start:start + minibatch_size]
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
        v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
        entropy_loss = entropy.mean()
        loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
        optimizer.zero_grad()
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        optimizer.step()
        print(epoch, start, f"{pg_loss.item():.4f} {v_loss.item():.4f} {entropy_loss.item():.4f} "
              f"{approx_kl.item():.5f} {old_approx_kl.item():.5f} {grad_norm.item():.4f}")
    print("clipfrac", np.mean(clipfracs).round(3), type(grad_norm).__name__, grad_norm.shape, grad_norm.dtype)

y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
var_y = np.var(y_true)
explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
print(round(float(explained_var), 4), loss.grad_fn.name(), ratio.grad_fn.name(), entropy.grad_fn.name())
