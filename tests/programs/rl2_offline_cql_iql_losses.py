# Offline-RL losses: CQL's logsumexp(Q) - Q(s, a_data) regularizer, IQL's expectile value loss
# |tau - 1(u < 0)| * u^2 via torch.where, AWR/AWAC advantage weights exp(adv / beta).clamp(max=),
# behaviour cloning NLL with log_softmax + gather, trained for a few Adam steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

S, A, B = 4, 3, 6
q_net = nn.Linear(S, A)
v_net = nn.Linear(S, 1)
pi_net = nn.Linear(S, A)
for k, m in enumerate([q_net, v_net, pi_net]):
    with torch.no_grad():
        m.weight.copy_(torch.sin(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.8 + k).view_as(m.weight) * 0.4)
        m.bias.zero_()
params = list(q_net.parameters()) + list(v_net.parameters()) + list(pi_net.parameters())
opt = torch.optim.Adam(params, lr=0.05)

obs = torch.stack([torch.cos(torch.arange(S) * 0.6 + i * 0.9) for i in range(B)])
next_obs = obs.roll(2, dims=0)
act = torch.tensor([0, 2, 1, 1, 0, 2])
rew = torch.tensor([1.0, 0.0, 0.5, -0.5, 1.0, 0.0])
not_done = 1.0 - torch.tensor([0.0, 0.0, 1.0, 0.0, 0.0, 1.0])
tau, beta, alpha_cql, gamma = 0.7, 0.5, 1.0, 0.9


def expectile_loss(diff, expectile):
    weight = torch.where(diff > 0, expectile, 1 - expectile)
    return weight * diff.pow(2)


for step in range(5):
    q_all = q_net(obs)
    q_data = q_all.gather(1, act[:, None]).squeeze(1)
    with torch.no_grad():
        target_q = rew + gamma * not_done * v_net(next_obs).squeeze(-1)
    td = F.mse_loss(q_data, target_q)
    cql = (torch.logsumexp(q_all, dim=1) - q_data).mean()
    v = v_net(obs).squeeze(-1)
    adv = q_data.detach() - v
    v_loss = expectile_loss(adv, tau).mean()
    v_loss_alt = (torch.abs(tau - (adv < 0).float()) * adv ** 2).mean()
    weights = torch.exp(adv.detach() / beta).clamp(max=100.0)
    log_pi = F.log_softmax(pi_net(obs), dim=-1).gather(1, act.unsqueeze(-1)).squeeze(-1)
    awr = -(weights * log_pi).mean()
    bc = F.nll_loss(F.log_softmax(pi_net(obs), dim=-1), act)
    total = td + alpha_cql * cql + v_loss + awr
    opt.zero_grad()
    total.backward()
    opt.step()
    print(step, f"td={td.item():.4f} cql={cql.item():.4f} v={v_loss.item():.4f}/{v_loss_alt.item():.4f} "
          f"awr={awr.item():.4f} bc={bc.item():.4f}", weights.max().round(decimals=3).item())

with torch.no_grad():
    soft_v = torch.logsumexp(q_net(obs) / 0.5, dim=1) * 0.5
    boltzmann = F.softmax(q_net(obs) / 0.5, dim=1)
print(soft_v.round(decimals=4), boltzmann.argmax(1), boltzmann.sum(1).round(decimals=4))
print(torch.logsumexp(torch.tensor([[float("-inf"), float("-inf")], [0.0, float("-inf")]]), dim=1))
print(torch.special.logsumexp(torch.tensor([1000.0, 1000.0]), 0), torch.logsumexp(torch.zeros(0, 2), 0))
print(torch.where(torch.tensor([1.0, -1.0]) > 0, 0.7, 0.3), torch.where(torch.tensor([1.0, -1.0]) > 0, 0.7, 0.3).dtype)
