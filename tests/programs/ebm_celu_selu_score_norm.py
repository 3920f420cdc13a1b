# Energy MLP with CELU/SELU/ELU(alpha) activations: score = -dE/dx via autograd.grad(create_graph=True),
# a score-norm penalty backpropagated into the weights (double backward through each activation).
import torch
import torch.nn as nn


def make_energy(act):
    net = nn.Sequential(nn.Linear(3, 8), act, nn.Linear(8, 8), act, nn.Linear(8, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.6 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + i).view_as(p))
    return net


x = torch.stack([torch.linspace(-2, 2, 6), torch.cos(torch.arange(6.0)), torch.linspace(1.5, -1.0, 6)], 1)

for act in [nn.CELU(alpha=0.5), nn.SELU(), nn.ELU(alpha=1.7), nn.CELU()]:
    print(act)
    net = make_energy(act)
    xi = x.clone().requires_grad_()
    energy = net(xi).squeeze(-1)
    (grad_x,) = torch.autograd.grad(energy.sum(), xi, create_graph=True)
    score = -grad_x
    print("  energy", [round(v, 4) for v in energy.tolist()])
    print("  score[0]", [round(v, 4) for v in score[0].tolist()], score.grad_fn is not None)
    penalty = score.pow(2).sum(1).mean()
    loss = energy.pow(2).mean() + 0.1 * penalty
    loss.backward()
    print(f"  loss {loss.item():.5f} penalty {penalty.item():.5f}")
    for name, p in net.named_parameters():
        if name.endswith("weight"):
            print(f"  {name} grad norm {p.grad.norm().item():.5f}")
    print("  x grad is None:", xi.grad is None)

# double backward through functional forms with non-default parameters
z = torch.linspace(-3, 3, 7, dtype=torch.float64, requires_grad=True)
for name, fn in [("celu", lambda t: torch.nn.functional.celu(t, alpha=2.0)),
                 ("selu", torch.nn.functional.selu),
                 ("elu", lambda t: torch.nn.functional.elu(t, alpha=0.3))]:
    y = fn(z)
    (g,) = torch.autograd.grad(y.sum(), z, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), z)
    print(name, g.detach().numpy().round(5).tolist())
    print(name, h.numpy().round(5).tolist())
    print(name, y.grad_fn.name(), g.grad_fn.name())
