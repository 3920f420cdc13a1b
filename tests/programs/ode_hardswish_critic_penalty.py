# A gradient penalty on a MobileNetV3-style critic (Hardswish activations, a squeeze-excite gate
# with Hardsigmoid), as people try when reusing mobile blocks in GANs: the penalty's backward needs
# hardsigmoid's second derivative, which PyTorch does not have; the usual fix swaps in Sigmoid.
import torch
import torch.nn as nn


class SEGate(nn.Module):
    def __init__(self, ch, gate):
        super().__init__()
        self.fc1 = nn.Linear(ch, ch // 2)
        self.fc2 = nn.Linear(ch // 2, ch)
        self.gate = gate

    def forward(self, x):
        return x * self.gate(self.fc2(torch.relu(self.fc1(x))))


def make_critic(gate):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.Hardswish(), SEGate(8, gate), nn.Linear(8, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.7 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.91 + i).reshape(p.shape))
    return net


x = torch.stack([torch.linspace(-2, 2, 6), torch.cos(torch.arange(6.0)), torch.sin(torch.arange(6.0)),
                 torch.linspace(1, -1, 6)], 1)

for gate in [nn.Hardsigmoid(), nn.Sigmoid()]:
    critic = make_critic(gate)
    inp = x.clone().requires_grad_(True)
    out = critic(inp)
    (g,) = torch.autograd.grad(out.sum(), inp, create_graph=True)
    print(type(gate).__name__, "grad_fn of input grad:", g.grad_fn.name())
    penalty = ((g.norm(dim=1) - 1) ** 2).mean()
    print("  penalty", f"{penalty.item():.5f}")
    try:
        penalty.backward()
        print("  fc1 grad norm", f"{critic[2].fc1.weight.grad.norm().item():.5f}",
              "first layer", f"{critic[0].weight.grad.norm().item():.5f}")
    except RuntimeError as e:
        print("  RuntimeError:", e)

# Without create_graph the penalty is just a number (no error, no gradient)
critic = make_critic(nn.Hardsigmoid())
inp = x.clone().requires_grad_(True)
(g,) = torch.autograd.grad(critic(inp).sum(), inp)
print("no create_graph:", g.requires_grad, g.grad_fn)

# Hardswish alone is twice differentiable (its second derivative is 1/3 inside (-3, 3))
z = torch.tensor([-4.0, -1.0, 0.5, 2.0, 4.0], requires_grad=True)
(d1,) = torch.autograd.grad(nn.functional.hardswish(z).sum(), z, create_graph=True)
(d2,) = torch.autograd.grad(d1.sum(), z)
print("hardswish d1", d1.detach(), "d2", d2)
(s1,) = torch.autograd.grad(nn.functional.hardsigmoid(z).sum(), z, create_graph=True)
print("hardsigmoid d1", s1.detach(), s1.grad_fn)
