# An adaptive Dormand-Prince RK45 solver written by hand ("neural ODEs from scratch" posts):
# Butcher tableau as Python lists, an error-controlled step with a tolerance-scaled RMS norm,
# step-size control through Python floats, the accepted/rejected step counts, and gradients of
# the final state through the accepted steps w.r.t. the vector-field parameters.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)

A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
C = [0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1]
B5 = [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]
B4 = [5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40]


def dopri5(f, y0, t0, t1, rtol=1e-6, atol=1e-8, h=0.1):
    t, y = t0, y0
    accepted, rejected = 0, 0
    while t < t1 - 1e-12:
        h = min(h, t1 - t)
        ks = []
        for i in range(7):
            yi = y + h * sum(a * k for a, k in zip(A[i], ks)) if i else y
            ks.append(f(t + C[i] * h, yi))
        y5 = y + h * sum(b * k for b, k in zip(B5, ks) if b != 0)
        y4 = y + h * sum(b * k for b, k in zip(B4, ks) if b != 0)
        scale = atol + rtol * torch.maximum(y.abs(), y5.abs())
        err = torch.sqrt(torch.mean(((y5 - y4) / scale) ** 2)).item()
        if err <= 1.0:
            t, y = t + h, y5
            accepted += 1
        else:
            rejected += 1
        h = h * min(5.0, max(0.2, 0.9 * (1.0 / max(err, 1e-10)) ** 0.2))
    return y, accepted, rejected


# sanity check on y' = -2 y and on the harmonic oscillator
y, acc, rej = dopri5(lambda t, y: -2 * y, torch.tensor([1.0]), 0.0, 1.0)
print("exp decay", y, "exact", torch.exp(torch.tensor([-2.0])), acc, rej)
osc = lambda t, y: torch.stack([y[1], -y[0]])
y, acc, rej = dopri5(osc, torch.tensor([1.0, 0.0]), 0.0, 6.283185307179586, rtol=1e-9, atol=1e-12)
print("one period error < 1e-8:", (y - torch.tensor([1.0, 0.0])).abs().max().item() < 1e-8, "steps", acc, "rejected", rej)


class VectorField(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 10), nn.Tanh(), nn.Linear(10, 2))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.cos(torch.arange(p.numel()) * 0.45 + i).view_as(p))

    def forward(self, t, y):
        return self.net(y) - 0.5 * y


field = VectorField()
y0 = torch.tensor([1.0, -0.5], requires_grad=True)
yT, acc, rej = dopri5(field, y0, 0.0, 2.0)
print("yT", yT, "accepted", acc, "rejected", rej)
loss = (yT - torch.tensor([0.2, 0.2])).pow(2).sum()
loss.backward()
print("dL/dy0", y0.grad)
print("dL/dW1 row 0", field.net[0].weight.grad[0])

opt = torch.optim.Adam(field.parameters(), lr=0.02)
for it in range(10):
    opt.zero_grad()
    yT, acc, rej = dopri5(field, y0.detach(), 0.0, 2.0, rtol=1e-5, atol=1e-7)
    loss = (yT - torch.tensor([0.2, 0.2])).pow(2).sum()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"it {it} loss {loss.item():.6f} nfe {7 * (acc + rej)}")
