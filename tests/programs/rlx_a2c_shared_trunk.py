# A2C with a shared ReLU trunk and two heads, written the "from scratch" way many blog posts do:
# log-probs via F.log_softmax + gather, entropy as -(probs * log_probs).sum(-1), advantages with
# values.detach(), and the classic value-loss shape bug (values [N, 1] vs returns [N]) whose
# broadcasting warning people ask about. Gradients of the shared trunk are printed.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=3, n_actions=3, hidden=5):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.shared(x)
        return self.actor(h), self.critic(h)


model = ActorCritic()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 2.1 + 3 * i).view(p.shape) * 0.7)
print(model)
obs = torch.tensor([[0.5, -0.2, 0.1], [1.0, 0.3, -0.7], [-0.4, 0.8, 0.2], [0.0, -1.0, 0.6]])
actions = torch.tensor([2, 0, 1, 1])
returns = torch.tensor([1.5, 0.2, -0.3, 0.9])
logits, values = model(obs)
print(model.shared(obs))
log_probs_all = F.log_softmax(logits, dim=-1)
probs = F.softmax(logits, dim=-1)
log_probs = log_probs_all.gather(1, actions.unsqueeze(-1)).squeeze(-1)
entropy = -(probs * log_probs_all).sum(-1)
advantages = returns - values.squeeze(-1).detach()
print(values.shape, log_probs, entropy, advantages, sep="\n")
one_hot = F.one_hot(actions, num_classes=3)
print(one_hot, one_hot.dtype, (one_hot * log_probs_all).sum(1))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    buggy_value_loss = F.mse_loss(values, returns)
    print(len(caught), caught[0].category.__name__ if caught else None)
    print(str(caught[0].message) if caught else None)
value_loss = F.mse_loss(values.squeeze(-1), returns)
print(buggy_value_loss, value_loss)
actor_loss = -(log_probs * advantages).mean()
loss = actor_loss + 0.5 * value_loss - 0.01 * entropy.mean()
model.zero_grad()
loss.backward()
print(f"{actor_loss.item():.5f} {value_loss.item():.5f} {entropy.mean().item():.5f}")
for name, p in model.named_parameters():
    print(name, p.grad)

# the critic alone: gradient through the ReLU trunk with the actor head unused
model.zero_grad()
_, v = model(obs)
(-v.sum()).backward()
print(model.shared[0].bias.grad, model.shared[0].weight.grad, model.actor.weight.grad, sep="\n")
print([n for n, p in model.named_parameters() if p.grad is not None and p.grad.abs().sum() == 0])

# separate optimisers for actor and critic over the shared trunk
actor_params = list(model.shared.parameters()) + list(model.actor.parameters())
opt_a = torch.optim.RMSprop(actor_params, lr=7e-4, alpha=0.99, eps=1e-5)
opt_c = torch.optim.RMSprop(model.critic.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
logits, values = model(obs)
dist = torch.distributions.Categorical(logits=logits)
a_loss = -(dist.log_prob(actions) * (returns - values.squeeze(1)).detach()).mean()
c_loss = (returns - values.squeeze(1)).pow(2).mean()
opt_a.zero_grad()
opt_c.zero_grad()
(a_loss + c_loss).backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
opt_a.step()
opt_c.step()
print(a_loss, c_loss, model.critic.bias, opt_a.state[model.actor.bias]["square_avg"], sep="\n")
# which trunk units are dead for which observation: the pre-activation gradient
pre = model.shared[0](obs)
pre.retain_grad()
model.critic(F.relu(pre)).sum().backward()
print(pre, model.critic.weight, pre.grad, sep="\n")
