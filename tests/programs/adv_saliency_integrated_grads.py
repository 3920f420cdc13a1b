# Input attributions for a small classifier: vanilla saliency (|d logit / d x|), gradient x input,
# SmoothGrad with deterministic noise, and Integrated Gradients via a Riemann path integral
# computed with torch.autograd.grad on a batch of interpolated inputs (plus completeness check).
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 10), nn.Softplus(), nn.Linear(10, 4))

    def forward(self, x):
        return self.body(x)


net = Net()
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64).float() * 0.61 + i).view_as(p) * 0.8)
net.eval()

x = torch.tensor([[0.2, -0.4, 1.0, 0.5, -1.2, 0.3]])
logits = net(x)
target = logits.argmax(dim=1).item()
print("target", target, logits.detach())

# vanilla saliency
x_s = x.clone().requires_grad_()
score = net(x_s)[0, target]
score.backward()
saliency = x_s.grad.abs().squeeze(0)
print("saliency", saliency)
print("top features", saliency.topk(3).indices.tolist())
print("grad x input", (x_s.grad * x).squeeze(0))

# SmoothGrad with fixed "noise" patterns
noise = torch.stack([torch.sin(torch.arange(6.0) * k) * 0.1 for k in range(1, 9)])
xs = (x + noise).requires_grad_(True)
out = net(xs)[:, target].sum()
g, = torch.autograd.grad(out, xs)
print("smoothgrad", g.mean(dim=0))


def integrated_gradients(model, inp, baseline, target, steps=50):
    alphas = torch.linspace(0, 1, steps + 1).view(-1, 1)
    path = baseline + alphas * (inp - baseline)
    path.requires_grad_(True)
    outs = model(path)[:, target]
    grads = torch.autograd.grad(outs, path, grad_outputs=torch.ones_like(outs))[0]
    avg = (grads[:-1] + grads[1:]).mean(dim=0) / 2  # trapezoid rule
    return (inp - baseline).squeeze(0) * avg


baseline = torch.zeros_like(x)
for steps in [10, 50, 200]:
    attr = integrated_gradients(net, x, baseline, target, steps)
    with torch.no_grad():
        delta = net(x)[0, target] - net(baseline)[0, target]
    print(steps, f"sum={attr.sum().item():.4f} delta={delta.item():.4f} err={abs(attr.sum() - delta).item():.5f}")
print("IG", attr)

# per-class gradient rows: the input Jacobian via autograd.grad with retain_graph
x_j = x.clone().requires_grad_()
out = net(x_j).squeeze(0)
rows = []
for c in range(out.shape[0]):
    gc, = torch.autograd.grad(out[c], x_j, retain_graph=True)
    rows.append(gc.squeeze(0))
J = torch.stack(rows)
print(J.shape)
print(J)
print(torch.allclose(J, torch.autograd.functional.jacobian(lambda z: net(z).squeeze(0), x).squeeze(1)))
try:
    torch.autograd.grad(out[0], x_j)
    torch.autograd.grad(out[0], x_j)
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])
