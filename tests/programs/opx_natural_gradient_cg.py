# TRPO-style natural-gradient step: flat gradients with parameters_to_vector, Hessian/Fisher-vector
# products via double backward, conjugate gradient solve, backtracking line search, vector_to_parameters.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

policy = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 4))
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.77 + i).view_as(p).float())

obs = torch.stack([torch.linspace(-1, 1, 12), torch.cos(torch.arange(12.0)), torch.sin(torch.arange(12.0) * 0.5)], 1)
actions = torch.arange(12) % 4
advantages = torch.cos(torch.arange(12.0) * 1.3)

with torch.no_grad():
    old_logp = torch.log_softmax(policy(obs), -1)


def surrogate():
    logp = torch.log_softmax(policy(obs), -1)
    ratio = torch.exp(logp.gather(1, actions[:, None]).squeeze(1) - old_logp.gather(1, actions[:, None]).squeeze(1))
    return (ratio * advantages).mean()


def mean_kl():
    logp = torch.log_softmax(policy(obs), -1)
    return (old_logp.exp() * (old_logp - logp)).sum(-1).mean()


def fisher_vector_product(v, damping=0.1):
    kl = mean_kl()
    grads = torch.autograd.grad(kl, list(policy.parameters()), create_graph=True)
    flat_grad_kl = torch.cat([g.reshape(-1) for g in grads])
    kl_v = (flat_grad_kl * v).sum()
    grads2 = torch.autograd.grad(kl_v, list(policy.parameters()))
    return torch.cat([g.contiguous().view(-1) for g in grads2]) + damping * v


def conjugate_gradient(Avp, b, nsteps=10, tol=1e-10):
    x = torch.zeros_like(b)
    r, p = b.clone(), b.clone()
    rdotr = torch.dot(r, r)
    for i in range(nsteps):
        Ap = Avp(p)
        alpha = rdotr / torch.dot(p, Ap)
        x += alpha * p
        r -= alpha * Ap
        new_rdotr = torch.dot(r, r)
        if new_rdotr < tol:
            break
        p = r + (new_rdotr / rdotr) * p
        rdotr = new_rdotr
    return x, i + 1


flat = parameters_to_vector(policy.parameters())
print(flat.shape, flat.dtype, flat.requires_grad, flat.grad_fn.name() if flat.grad_fn else None)
for it in range(3):
    loss = surrogate()
    grads = torch.autograd.grad(loss, list(policy.parameters()))
    g = torch.cat([gr.view(-1) for gr in grads])
    step_dir, n_cg = conjugate_gradient(fisher_vector_product, g)
    shs = 0.5 * (step_dir * fisher_vector_product(step_dir)).sum()
    max_kl = 0.01
    full_step = step_dir * torch.sqrt(max_kl / shs)
    old_params = parameters_to_vector(policy.parameters()).detach()
    expected = (g * full_step).sum()
    accepted = None
    for frac in [0.5 ** k for k in range(8)]:
        vector_to_parameters(old_params + frac * full_step, policy.parameters())
        with torch.no_grad():
            improve = surrogate() - loss
            kl = mean_kl()
        if improve > 0 and kl <= max_kl * 1.5:
            accepted = frac
            break
    else:
        vector_to_parameters(old_params, policy.parameters())
    print(it, f"surr {loss.item():.4f}", "cg", n_cg, "accepted", accepted,
          f"kl {kl.item():.5f}", f"expected {expected.item():.4f}", improve.item() > 0)
    with torch.no_grad():
        old_logp = torch.log_softmax(policy(obs), -1)

try:
    vector_to_parameters(torch.zeros(3), policy.parameters())
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, str(e)[:60])
try:
    vector_to_parameters([1.0], policy.parameters())
except TypeError as e:
    print(type(e).__name__, e)
