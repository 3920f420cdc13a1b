# Sparse energy functions built from shrinkage activations (Hardshrink/Softshrink/Threshold/Tanhshrink/
# Softsign/RReLU in eval) — module reprs, energies, input gradients under create_graph, and the
# second-order penalty gradient (zero for piecewise-linear pieces).
import torch
import torch.nn as nn

acts = [nn.Hardshrink(0.3), nn.Softshrink(lambd=0.25), nn.Threshold(0.1, -0.5), nn.Tanhshrink(),
        nn.Softsign(), nn.RReLU(0.1, 0.3), nn.LogSigmoid(), nn.Hardswish(), nn.Softmin(dim=1),
        nn.Hardtanh(-0.5, 0.5), nn.ReLU6(), nn.LeakyReLU(0.05), nn.CELU(0.7), nn.Mish()]

x = torch.stack([torch.linspace(-1.2, 1.2, 5), torch.sin(torch.arange(5.0)) * 0.9], 1)

for act in acts:
    act.eval()
    net = nn.Sequential(nn.Linear(2, 4), act, nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.7 + i).view_as(p))
    xi = x.clone().requires_grad_(True)
    e = net(xi).squeeze(1)
    (gx,) = torch.autograd.grad(e.sum(), xi, create_graph=True)
    pen = gx.pow(2).sum()
    name = gx.grad_fn.name() if gx.grad_fn is not None else None
    pen.backward()
    w0 = net[0].weight.grad
    print(repr(act), "|", [round(v, 4) for v in e.tolist()])
    print("   grad_x", [round(v, 4) for v in gx[:, 0].tolist()], name, f"w0 {w0.abs().sum().item():.4f}")
