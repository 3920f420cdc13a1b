# PPO in the style of nikhilbarhate99/PPO-PyTorch: a RolloutBuffer of Python lists, an
# ActorCritic with MultivariateNormal(action_mean, torch.diag_embed(action_var)) for continuous
# actions and Categorical for discrete, torch.squeeze(torch.stack(list, dim=0)).detach(),
# Monte-Carlo returns with is_terminals, nn.MSELoss, and policy_old synced by load_state_dict.
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal, Categorical


class RolloutBuffer:
    def __init__(self):
        self.actions, self.states, self.logprobs = [], [], []
        self.rewards, self.state_values, self.is_terminals = [], [], []

    def clear(self):
        del self.actions[:], self.states[:], self.logprobs[:]
        del self.rewards[:], self.state_values[:], self.is_terminals[:]


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, action_std_init):
        super().__init__()
        self.action_dim = action_dim
        self.action_var = torch.full((action_dim,), action_std_init * action_std_init)
        self.actor = nn.Sequential(nn.Linear(state_dim, 6), nn.Tanh(), nn.Linear(6, action_dim), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(state_dim, 6), nn.Tanh(), nn.Linear(6, 1))

    def set_action_std(self, new_action_std):
        self.action_var = torch.full((self.action_dim,), new_action_std * new_action_std)

    def evaluate(self, state, action):
        action_mean = self.actor(state)
        action_var = self.action_var.expand_as(action_mean)
        cov_mat = torch.diag_embed(action_var)
        dist = MultivariateNormal(action_mean, cov_mat)
        if self.action_dim == 1:
            action = action.reshape(-1, self.action_dim)
        return dist.log_prob(action), self.critic(state), dist.entropy()


policy = ActorCritic(3, 2, 0.6)
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + 2 * i).view(p.shape) * 0.5)
policy_old = ActorCritic(3, 2, 0.6)
policy_old.load_state_dict(policy.state_dict())
print(policy.action_var, torch.diag(policy.action_var).unsqueeze(dim=0))

buffer = RolloutBuffer()
for t in range(5):
    state = torch.FloatTensor([0.1 * t, -0.2 * t, 1.0 - 0.1 * t])
    with torch.no_grad():
        action_mean = policy_old.actor(state)
        dist = MultivariateNormal(action_mean, torch.diag(policy_old.action_var).unsqueeze(dim=0))
        action = action_mean + torch.tensor([0.1, -0.1]) * (t - 2)  # stand-in for dist.sample()
        buffer.states.append(state)
        buffer.actions.append(action)
        buffer.logprobs.append(dist.log_prob(action))
        buffer.state_values.append(policy_old.critic(state))
    buffer.rewards.append(float(t % 2))
    buffer.is_terminals.append(t == 2)
print(dist.batch_shape, dist.event_shape, buffer.logprobs[0].shape, buffer.state_values[0].shape)

rewards, discounted_reward = [], 0
for reward, is_terminal in zip(reversed(buffer.rewards), reversed(buffer.is_terminals)):
    if is_terminal:
        discounted_reward = 0
    discounted_reward = reward + (0.99 * discounted_reward)
    rewards.insert(0, discounted_reward)
rewards = torch.tensor(rewards, dtype=torch.float32)
rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-7)
old_states = torch.squeeze(torch.stack(buffer.states, dim=0)).detach()
old_actions = torch.squeeze(torch.stack(buffer.actions, dim=0)).detach()
old_logprobs = torch.squeeze(torch.stack(buffer.logprobs, dim=0)).detach()
old_state_values = torch.squeeze(torch.stack(buffer.state_values, dim=0)).detach()
print(rewards, old_states.shape, old_actions.shape, old_logprobs, old_state_values, sep="\n")
advantages = rewards.detach() - old_state_values.detach()

optimizer = torch.optim.Adam([{'params': policy.actor.parameters(), 'lr': 3e-4},
                              {'params': policy.critic.parameters(), 'lr': 1e-3}])
MseLoss = nn.MSELoss()
for _ in range(3):
    logprobs, state_values, dist_entropy = policy.evaluate(old_states, old_actions)
    state_values = torch.squeeze(state_values)
    ratios = torch.exp(logprobs - old_logprobs.detach())
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 1 - 0.2, 1 + 0.2) * advantages
    loss = -torch.min(surr1, surr2) + 0.5 * MseLoss(state_values, rewards) - 0.01 * dist_entropy
    optimizer.zero_grad()
    loss.mean().backward()
    optimizer.step()
    print(loss.shape, loss.grad_fn.name(), f"{loss.mean().item():.5f}", ratios)
print(dist_entropy, [g['lr'] for g in optimizer.param_groups])
policy_old.load_state_dict(policy.state_dict())
buffer.clear()
print(len(buffer.states), len(buffer.rewards))
policy.set_action_std(0.3)
print(policy.action_var, policy.evaluate(old_states[:2], old_actions[:2])[0])

mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mvn.log_prob(torch.tensor([1.0, -1.0])), mvn.entropy(), mvn.scale_tril, mvn.variance, sep="\n")
print(MultivariateNormal(torch.zeros(3), scale_tril=torch.eye(3) * 2).entropy(), mvn.precision_matrix)
try:
    MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as e:
    print("ValueError", str(e)[:160])
try:
    MultivariateNormal(torch.zeros(2))
except ValueError as e:
    print("ValueError", e)
disc = Categorical(logits=torch.tensor([[0.3, -0.3], [1.0, 0.0]]))
print(disc.log_prob(torch.tensor([1.0, 0.0])), disc.entropy())
