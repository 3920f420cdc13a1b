# KFAC Laplace approximation: forward hooks record layer inputs, full backward hooks record output
# gradients, Kronecker factors A = E[a a^T], G = E[g g^T], eigendecompositions with linalg.eigh,
# and the Kronecker-factored posterior variance of a last-layer prediction.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
x = torch.stack([torch.linspace(-2, 2, 24), torch.cos(torch.linspace(0, 6, 24))], 1)
y = (torch.arange(24) % 3)

model = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.7 * torch.sin(torch.arange(p.numel()) * 1.1 + i).reshape(p.shape))

opt = torch.optim.SGD(model.parameters(), lr=0.3)
for step in range(20):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("trained loss", f"{loss.item():.5f}")

acts, grads = {}, {}


def fwd_hook(name):
    def hook(module, inputs, output):
        a = inputs[0].detach()
        acts[name] = torch.cat([a, torch.ones(a.shape[0], 1)], dim=1)  # homogeneous coordinate for bias
    return hook


def bwd_hook(name):
    def hook(module, grad_input, grad_output):
        grads[name] = grad_output[0].detach() * grad_output[0].shape[0]
    return hook


handles = []
for name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        handles.append(m.register_forward_hook(fwd_hook(name)))
        handles.append(m.register_full_backward_hook(bwd_hook(name)))

logits = model(x)
# Fisher with labels sampled from the model is random; use the empirical Fisher
F.cross_entropy(logits, y).backward()
for h in handles:
    h.remove()
print("hooked", sorted(acts), sorted(grads))

factors = {}
for name in acts:
    A = acts[name].T @ acts[name] / x.shape[0]
    G = grads[name].T @ grads[name] / x.shape[0]
    factors[name] = (A, G)
    print(name, "A", tuple(A.shape), "G", tuple(G.shape), "sym", torch.allclose(A, A.T), torch.allclose(G, G.T))

prior_prec, N = 1.0, x.shape[0]
A, G = factors["2"]
la, Qa = torch.linalg.eigh(A)
lg, Qg = torch.linalg.eigh(G)
print("eig A", la.clamp_min(0).round(decimals=4))
print("eig G", lg.clamp_min(0).round(decimals=4))
# posterior precision ~ N * (G kron A) + prior: invert in the joint eigenbasis
inv_eigs = 1.0 / (N * torch.outer(lg, la) + prior_prec)
dense = torch.linalg.inv(N * torch.kron(G, A) + prior_prec * torch.eye(G.shape[0] * A.shape[0]))
kron_basis = torch.kron(Qg, Qa)
print("kron inverse ok", torch.allclose(dense, kron_basis @ torch.diag(inv_eigs.flatten()) @ kron_basis.T))

# predictive covariance of the logits at one test input: J = I kron a^T
with torch.no_grad():
    h = torch.tanh(model[0](torch.tensor([[0.5, -0.3]])))
a = torch.cat([h, torch.ones(1, 1)], 1).squeeze(0)
J = torch.kron(torch.eye(3), a.unsqueeze(0))
cov_logits = J @ dense @ J.T
print("logit var", cov_logits.diagonal().round(decimals=5))
print("psd", bool((torch.linalg.eigvalsh(cov_logits) > -1e-12).all()))
print("weight grad", model[2].weight.grad.shape, "bias grad", model[2].bias.grad.shape)
