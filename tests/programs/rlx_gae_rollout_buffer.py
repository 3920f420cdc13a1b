# CleanRL-style rollout storage and GAE: torch.zeros((num_steps, num_envs) + shape) buffers,
# dones stored as float, next_done from numpy bools, the backwards loop with
# nextnonterminal = 1.0 - dones[t + 1], lastgaelam accumulation, returns = advantages + values,
# and the flattening reshape((-1,) + obs_shape). Also a plain-list GAE and the n-step return.
import numpy as np
import torch

num_steps, num_envs, obs_shape = 5, 2, (3,)
gamma, gae_lambda = 0.99, 0.95
obs = torch.zeros((num_steps, num_envs) + obs_shape)
actions = torch.zeros((num_steps, num_envs))
logprobs = torch.zeros((num_steps, num_envs))
rewards = torch.zeros((num_steps, num_envs))
dones = torch.zeros((num_steps, num_envs))
values = torch.zeros((num_steps, num_envs))
print(obs.shape, obs.dtype, dones.dtype)

next_obs = torch.Tensor(np.array([[0.1, 0.2, 0.3], [-0.1, 0.0, 0.5]]))
next_done = torch.zeros(num_envs)
env_dones = [np.array([False, False]), np.array([False, True]), np.array([False, False]),
             np.array([True, False]), np.array([False, False])]
env_rewards = [np.array([1.0, 0.5]), np.array([1.0, -1.0]), np.array([0.0, 0.5]),
               np.array([2.0, 0.5]), np.array([1.0, 1.0])]
for step in range(num_steps):
    obs[step] = next_obs
    dones[step] = next_done
    values[step] = next_obs.sum(1) * 0.5  # stand-in for agent.get_value(next_obs).flatten()
    actions[step] = torch.tensor([step % 2, (step + 1) % 2])
    rewards[step] = torch.tensor(env_rewards[step]).to("cpu").view(-1)
    next_obs, next_done = torch.Tensor(next_obs.numpy() * 0.9 + 0.05), torch.Tensor(env_dones[step])
print(torch.tensor(env_rewards[0]).dtype, torch.Tensor(env_dones[1]), torch.Tensor(env_dones[1]).dtype)
print(rewards, dones, values, sep="\n")

with torch.no_grad():
    next_value = (next_obs.sum(1) * 0.5).reshape(1, -1)
    advantages = torch.zeros_like(rewards)
    lastgaelam = 0
    for t in reversed(range(num_steps)):
        if t == num_steps - 1:
            nextnonterminal = 1.0 - next_done
            nextvalues = next_value
        else:
            nextnonterminal = 1.0 - dones[t + 1]
            nextvalues = values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
    returns = advantages + values
print(next_value.shape, nextvalues.shape, type(lastgaelam).__name__, lastgaelam.shape)
print(advantages, returns, sep="\n")
b_obs = obs.reshape((-1,) + obs_shape)
b_logprobs = logprobs.reshape(-1)
b_actions = actions.reshape((-1,) + ())
b_advantages = advantages.reshape(-1)
print(b_obs.shape, b_logprobs.shape, b_actions, b_advantages.is_contiguous(), b_obs[7])

# the same GAE over plain Python lists, returning a tensor built from floats
def compute_gae(next_value, rewards, masks, values, gamma=0.99, tau=0.95):
    values = values + [next_value]
    gae = 0
    returns = []
    for step in reversed(range(len(rewards))):
        delta = rewards[step] + gamma * values[step + 1] * masks[step] - values[step]
        gae = delta + gamma * tau * masks[step] * gae
        returns.insert(0, gae + values[step])
    return returns


vals = [torch.tensor([0.5]), torch.tensor([0.4]), torch.tensor([0.2])]
rews = [torch.tensor([1.0]), torch.tensor([0.0]), torch.tensor([1.0])]
masks = [torch.FloatTensor([1 - d]) for d in [False, True, False]]
ret = compute_gae(torch.tensor([0.3]), rews, masks, vals)
print(masks[1], masks[1].dtype, torch.cat(ret), torch.cat(ret).detach() - torch.cat(vals))
print(torch.cat(ret).shape, torch.stack(ret).shape)

# n-step discounted return with done masks (A2C style), matrix form
R = torch.tensor([0.7, -0.2])
done_f = torch.tensor([[0, 0], [1, 0], [0, 1]], dtype=torch.bool)
rew = torch.tensor([[1.0, 1.0], [0.5, 0.0], [1.0, 2.0]])
out = torch.empty_like(rew)
for i in reversed(range(rew.size(0))):
    R = rew[i] + gamma * R * (1 - done_f[i].float())
    out[i] = R
print(out, (~done_f).float(), (1 - done_f.int()).dtype, done_f.logical_not().sum(0))
discounts = gamma ** torch.arange(3)
print(discounts, discounts.dtype, (gamma ** torch.arange(3.0)).dtype, torch.cumprod(torch.full((3,), gamma), 0))
