# TRPO as the classic ikostrikov/pytorch-trpo and Spinning Up write it: flat gradients with
# torch.autograd.grad + torch.cat([g.view(-1)]), a Fisher-vector product through the KL of
# the policy with itself (double backward), conjugate gradient, parameters_to_vector /
# vector_to_parameters, a backtracking line search, and kl_divergence between Normals.
import torch
import torch.nn as nn
from torch.distributions import Normal, Categorical, kl_divergence
from torch.nn.utils import parameters_to_vector, vector_to_parameters

policy = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64).float() * 0.83 + i).view(p.shape) * 0.4)
log_std = nn.Parameter(torch.full((2,), -0.5))
params = list(policy.parameters()) + [log_std]
print(parameters_to_vector(params).shape, sum(p.numel() for p in params))

states = torch.tensor([[0.2, -0.1], [1.0, 0.4], [-0.6, 0.9], [0.3, 0.3]])
actions = torch.tensor([[0.1, 0.0], [0.5, -0.3], [-0.2, 0.4], [0.0, 0.1]])
advantages = torch.tensor([1.0, -0.5, 0.3, 0.2])


def get_dist():
    return Normal(policy(states), log_std.exp())


fixed_log_prob = get_dist().log_prob(actions).sum(1).detach()


def get_loss():
    log_prob = get_dist().log_prob(actions).sum(1)
    return -(advantages * torch.exp(log_prob - fixed_log_prob)).mean()


def get_kl():
    d = get_dist()
    mean1, std1 = d.mean.detach(), d.stddev.detach()
    return kl_divergence(Normal(mean1, std1), d).sum(1, keepdim=True)


loss = get_loss()
grads = torch.autograd.grad(loss, params)
loss_grad = torch.cat([grad.view(-1) for grad in grads]).data
print(loss, loss_grad.norm(), loss_grad[:4])


def Fvp(v, damping=0.1):
    kl = get_kl().mean()
    grads = torch.autograd.grad(kl, params, create_graph=True)
    flat_grad_kl = torch.cat([grad.view(-1) for grad in grads])
    kl_v = (flat_grad_kl * v).sum()
    grads = torch.autograd.grad(kl_v, params)
    flat_grad_grad_kl = torch.cat([grad.contiguous().view(-1) for grad in grads]).data
    return flat_grad_grad_kl + v * damping


def conjugate_gradients(Avp, b, nsteps, residual_tol=1e-10):
    x = torch.zeros(b.size())
    r = b.clone()
    p = b.clone()
    rdotr = torch.dot(r, r)
    for i in range(nsteps):
        _Avp = Avp(p)
        alpha = rdotr / torch.dot(p, _Avp)
        x += alpha * p
        r -= alpha * _Avp
        new_rdotr = torch.dot(r, r)
        betta = new_rdotr / rdotr
        p = r + betta * p
        rdotr = new_rdotr
        if rdotr < residual_tol:
            break
    return x, i


print(get_kl().shape, get_kl().squeeze(1), Fvp(loss_grad)[:4])
stepdir, iters = conjugate_gradients(Fvp, -loss_grad, 5)
shs = 0.5 * (stepdir * Fvp(stepdir)).sum(0, keepdim=True)
lm = torch.sqrt(shs / 0.01)
fullstep = stepdir / lm[0]
neggdotstepdir = (-loss_grad * stepdir).sum(0, keepdim=True)
print(iters, shs, lm, f"{neggdotstepdir.item():.5f}", ("lagrange multiplier:", lm[0], "grad_norm:", loss_grad.norm()))

old_params = parameters_to_vector(params).detach().clone()
fval = get_loss().data
for n_back, stepfrac in enumerate(0.5 ** torch.arange(5)):
    xnew = old_params + stepfrac * fullstep
    vector_to_parameters(xnew, params)
    newfval = get_loss().data
    actual_improve = fval - newfval
    expected_improve = neggdotstepdir * stepfrac
    ratio = actual_improve / expected_improve
    print("a/e/r", f"{actual_improve.item():.5f}", f"{expected_improve.item():.5f}", f"{ratio.item():.4f}")
    if ratio.item() > 0.1 and actual_improve.item() > 0:
        break
print(n_back, stepfrac, type(stepfrac).__name__, log_std, get_kl().mean())
print(parameters_to_vector(params)[-2:], log_std.requires_grad, log_std.grad)
try:
    vector_to_parameters(torch.zeros(5), params)
except Exception as e:
    print(type(e).__name__, e)
try:
    parameters_to_vector(log_std)
except TypeError as e:
    print("TypeError", e)
p_old = Categorical(logits=torch.tensor([[0.0, 1.0], [2.0, 0.0]]))
p_new = Categorical(logits=torch.tensor([[0.5, 0.5], [1.0, 1.0]]))
print(kl_divergence(p_old, p_new), kl_divergence(Normal(0.0, 1.0), Normal(torch.tensor([0.0, 1.0]), 2.0)))
try:
    kl_divergence(p_old, Normal(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError", e)
