# A common bug report: the distribution is built once outside the training loop. Which families keep
# working after optimizer.step() (parameters stored as given / as views) and which fail on the second
# backward because __init__ derived tensors (normalized logits, probs->logits, Cholesky) from them.
import torch
import torch.distributions as D


def train(name, build, params, data, steps=4):
    dist = build()
    opt = torch.optim.SGD(params, lr=0.1)
    losses = []
    for _ in range(steps):
        try:
            loss = -dist.log_prob(data).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(f"{loss.item():.4f}")
        except RuntimeError as e:
            losses.append("RuntimeError: " + str(e).split(".")[0])
            break
    print(f"{name:14s}", losses)


x = torch.tensor([0.5, 1.0, -1.0])
loc, scale = torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)
train("Normal", lambda: D.Normal(loc, scale), [loc, scale], x)
loc2 = torch.zeros(3, requires_grad=True)
train("Normal(.,1.0)", lambda: D.Normal(loc2, 1.0), [loc2], x)
log_std = torch.zeros(3, requires_grad=True)
train("Normal(exp)", lambda: D.Normal(0.0, log_std.exp()), [log_std], x)
logits = torch.zeros(3, requires_grad=True)
train("Categorical", lambda: D.Categorical(logits=logits), [logits], torch.tensor([0, 2, 2]))
probs = torch.full((3,), 0.5, requires_grad=True)
train("Bernoulli(p)", lambda: D.Bernoulli(probs=probs), [probs], torch.tensor([0.0, 1.0, 1.0]))
blog = torch.zeros(3, requires_grad=True)
train("Bernoulli(l)", lambda: D.Bernoulli(logits=blog), [blog], torch.tensor([0.0, 1.0, 1.0]))
conc = torch.ones(3, requires_grad=True)
train("Gamma", lambda: D.Gamma(conc, 1.0), [conc], torch.tensor([0.5, 1.0, 2.0]))
c2 = torch.ones(3, requires_grad=True)
train("Dirichlet", lambda: D.Dirichlet(c2), [c2], torch.tensor([0.5, 0.2, 0.3]))
rate = torch.ones(3, requires_grad=True)
train("Poisson", lambda: D.Poisson(rate), [rate], torch.tensor([0.0, 1.0, 3.0]))
m, L = torch.zeros(2, requires_grad=True), torch.eye(2).requires_grad_()
train("MVN(tril)", lambda: D.MultivariateNormal(m, scale_tril=L), [m, L], torch.tensor([0.5, 1.0]))
m2, S = torch.zeros(2, requires_grad=True), torch.eye(2).requires_grad_()
train("MVN(cov)", lambda: D.MultivariateNormal(m2, covariance_matrix=S), [m2, S], torch.tensor([0.5, 1.0]))
lo, sc = torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)
train("Independent", lambda: D.Independent(D.Normal(lo, sc), 1), [lo, sc], x)
lo2, sc2 = torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)
train("LogNormal", lambda: D.LogNormal(lo2, sc2), [lo2, sc2], torch.tensor([0.5, 1.0, 2.0]))
p2 = torch.full((3,), 0.5, requires_grad=True)
train("Binomial", lambda: D.Binomial(4, probs=p2), [p2], torch.tensor([0.0, 1.0, 3.0]))
w = torch.zeros(2, 3, requires_grad=True)
train("Mixture", lambda: D.MixtureSameFamily(D.Categorical(logits=w[0]), D.Normal(w[1], 1.0)), [w], torch.tensor([0.5, 1.0]))

# the fix users are told: rebuild the distribution inside the loop
logits = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([logits], lr=0.5)
for step in range(4):
    loss = -D.Categorical(logits=logits).log_prob(torch.tensor([0, 2, 2])).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", logits.detach())
