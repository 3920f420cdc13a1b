# Sobolev training (Czarnecki et al. 2017): fit a network to a target function AND its
# derivatives, the input-gradient obtained with torch.autograd.grad(create_graph=True) so the
# derivative-matching loss trains the weights; compared with plain value-only regression.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


def target(x):  # Styblinski-Tang-like 2D function and its analytic gradient
    f = 0.5 * (x.pow(4) - 16 * x.pow(2) + 5 * x).sum(-1) / 20
    df = 0.5 * (4 * x.pow(3) - 32 * x + 5) / 20
    return f, df


def make_mlp():
    net = nn.Sequential(nn.Linear(2, 24), nn.SiLU(), nn.Linear(24, 24), nn.SiLU(), nn.Linear(24, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            fan = p.shape[-1] if p.dim() > 1 else 24
            p.copy_(torch.sin(torch.arange(p.numel()) * 1.7 + 0.3 * i).reshape(p.shape) / fan ** 0.5)
    return net


g = torch.linspace(-3, 3, 6)
X = torch.cartesian_prod(g, g)
y, dy = target(X)
print("train", X.shape, y.shape, dy.shape)


def predict(net, x, create_graph):
    x = x.requires_grad_(True)
    out = net(x).squeeze(-1)
    grad_x, = torch.autograd.grad(out.sum(), x, create_graph=create_graph)
    return out, grad_x


def train(sobolev, steps=40):
    net = make_mlp()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(steps):
        opt.zero_grad()
        out, grad_x = predict(net, X.clone(), create_graph=True)
        loss_val = nn.functional.mse_loss(out, y)
        loss_der = nn.functional.mse_loss(grad_x, dy)
        loss = loss_val + (loss_der if sobolev else 0.0)
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"  [{'sobolev' if sobolev else 'plain  '}] step {step:2d} value {loss_val.item():.4f} deriv {loss_der.item():.4f}")
    return net


net_plain = train(False)
net_sob = train(True)

Xt = torch.cartesian_prod(torch.linspace(-2.5, 2.5, 5), torch.linspace(-2.5, 2.5, 5))
yt, dyt = target(Xt)
for name, net in [("plain", net_plain), ("sobolev", net_sob)]:
    out, gx = predict(net, Xt.clone(), create_graph=False)
    print(name, "test value mse %.4f deriv mse %.4f" % (nn.functional.mse_loss(out, yt).item(),
                                                        nn.functional.mse_loss(gx, dyt).item()))
    print("  grad requires_grad:", gx.requires_grad, "out grad_fn:", out.grad_fn.name())

# the derivative loss creates a graph through the input gradient: second-order terms appear
net = make_mlp()
out, gx = predict(net, X[:3].clone(), create_graph=True)
print(gx.grad_fn.name(), gx.shape)
loss = gx.pow(2).sum()
loss.backward()
print(net[0].weight.grad.shape, f"{net[0].weight.grad.norm().item():.5f}")
print(net[-1].bias.grad)
