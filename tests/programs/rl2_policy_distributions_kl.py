# Policy heads beyond Categorical as RL codebases use them: Beta policy for bounded actions
# (softplus + 1 concentrations), Bernoulli for MultiBinary spaces, Independent(Normal) with
# kl_divergence for PPO's adaptive KL penalty, and the KL coefficient update rule.
import torch
import torch.nn.functional as F
from torch.distributions import Beta, Bernoulli, Categorical, Independent, Normal, kl_divergence

B, A = 4, 2
feat = torch.stack([torch.sin(torch.arange(6) * 0.3 + i) for i in range(B)])
W = torch.cos(torch.arange(6 * 2 * A, dtype=torch.float32) * 0.7).view(6, 2 * A) * 0.5
W.requires_grad_()

raw = feat @ W
alpha_c, beta_c = (F.softplus(raw) + 1.0).chunk(2, dim=-1)
beta_pi = Beta(alpha_c, beta_c)
actions = torch.tensor([[0.1, 0.9], [0.5, 0.5], [0.3, 0.7], [0.95, 0.05]])
lp = beta_pi.log_prob(actions).sum(-1)
ent = beta_pi.entropy().sum(-1)
print(beta_pi.batch_shape, beta_pi.event_shape, lp.round(decimals=4), ent.round(decimals=4))
print(beta_pi.mean.round(decimals=4), beta_pi.variance.round(decimals=4), beta_pi.mode.round(decimals=4))
(-(lp * torch.tensor([1.0, -0.5, 0.2, 0.3])).mean() - 0.01 * ent.mean()).backward()
print(W.grad.abs().sum().round(decimals=4))
low, high = torch.tensor([-2.0, 0.0]), torch.tensor([2.0, 1.0])
print((low + (high - low) * beta_pi.mean).round(decimals=4))

# MultiBinary
logits = torch.tensor([[0.2, -1.0, 3.0], [0.0, 0.5, -0.5]], requires_grad=True)
bern = Bernoulli(logits=logits)
acts = torch.tensor([[1., 0., 1.], [0., 0., 1.]])
print(bern.log_prob(acts).sum(-1).round(decimals=4), bern.entropy().sum(-1).round(decimals=4), bern.probs.round(decimals=4))
print(Independent(bern, 1).log_prob(acts).round(decimals=4), Independent(bern, 1).event_shape)
bern.log_prob(acts).sum().backward()
print(logits.grad.round(decimals=4))

# adaptive KL penalty (PPO-penalty)
mu_old = torch.tensor([[0.0, 0.5], [1.0, -1.0], [0.2, 0.2], [0.0, 0.0]])
log_std_old = torch.tensor([-0.5, 0.0])
mu_new = (mu_old + 0.1 * torch.arange(8, dtype=torch.float32).view(4, 2) / 8).requires_grad_()
log_std = torch.tensor([-0.4, -0.1], requires_grad=True)
old = Independent(Normal(mu_old, log_std_old.exp()), 1)
new = Independent(Normal(mu_new, log_std.exp().expand_as(mu_new)), 1)
kl = kl_divergence(old, new)
print(kl.shape, kl.round(decimals=5), new.batch_shape, new.event_shape)
kl_coef, kl_target = 0.2, 0.01
for step in range(3):
    mean_kl = kl.mean().item() * (step + 1)
    if mean_kl > 1.5 * kl_target:
        kl_coef *= 2
    elif mean_kl < kl_target / 1.5:
        kl_coef /= 2
    print(step, f"{mean_kl:.5f}", kl_coef)
(kl_coef * kl.mean()).backward()
print(mu_new.grad.round(decimals=5), log_std.grad.round(decimals=5))

p = Categorical(logits=torch.tensor([[1.0, 0.0, -1.0], [0.3, 0.3, 0.4]]))
q = Categorical(probs=torch.tensor([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]))
print(kl_divergence(p, q).round(decimals=5), kl_divergence(q, p).round(decimals=5))
print(kl_divergence(Normal(0.0, 1.0), Normal(torch.tensor([0.5, 1.0]), 2.0)).round(decimals=5))
print(kl_divergence(Beta(torch.tensor(2.0), torch.tensor(3.0)), Beta(torch.tensor(1.5), torch.tensor(1.5))))
print(kl_divergence(Bernoulli(probs=torch.tensor([0.3, 0.9])), Bernoulli(logits=torch.tensor([0.0, 2.0]))))
try:
    kl_divergence(Beta(torch.tensor(2.0), torch.tensor(3.0)), Categorical(logits=torch.zeros(3)))
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    beta_pi.log_prob(torch.tensor([[1.5, 0.5]] * 4))
except ValueError as e:
    print(type(e).__name__, str(e)[:90])
