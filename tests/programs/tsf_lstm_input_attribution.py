# Explaining a trained LSTM forecaster as in interpretability blog posts: saliency (gradient of
# the forecast w.r.t. each input step), torch.autograd.functional.jacobian / hessian of the
# multi-step forecast, torch.func.jacrev for a GRU's final state, jvp along a perturbation,
# integrated gradients with a batch of scaled inputs, and occlusion by zeroing windows.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian, jvp
from torch.func import jacrev

torch.set_printoptions(precision=4, sci_mode=False)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 6, num_layers=2, batch_first=True)
        self.head = nn.Linear(6, 2)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


model = Forecaster()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * 0.3 + 0.05)
t = torch.arange(40, dtype=torch.float32)
s = torch.sin(t / 3)
w = s.unfold(0, 10, 1)
X, Y = w[:, :8, None], w[:, 8:]
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(25):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
print(f"final train loss {loss.item():.4f}")
model.eval()
x = X[-1:].clone()

x_req = x.clone().requires_grad_(True)
model(x_req)[0, 0].backward()
print("saliency", x_req.grad.squeeze())
J = jacobian(lambda inp: model(inp), x)
print("jacobian", tuple(J.shape))
print(J.squeeze()[1])
H = hessian(lambda inp: model(inp)[0, 0], x)
print("hessian diag", torch.diagonal(H.reshape(8, 8)))
print("hessian symmetric", torch.allclose(H.reshape(8, 8), H.reshape(8, 8).T, atol=1e-5))
out, tangent = jvp(lambda inp: model(inp), x, torch.ones_like(x) * 0.1)
print("jvp", tangent, "vs finite diff", ((model(x + 0.001) - model(x)) / 0.001 * 0.1).detach().round(decimals=3))

gru = nn.GRU(1, 3, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape) * 0.4)
Jg = jacrev(lambda inp: gru(inp)[1].squeeze())(x)
print("gru jacrev", tuple(Jg.shape), Jg.squeeze(-1).squeeze(1)[:, -3:])


def integrated_gradients(inp, steps=16):
    alphas = torch.linspace(0, 1, steps).view(-1, 1, 1)
    scaled = (alphas * inp).requires_grad_(True)
    grads, = torch.autograd.grad(model(scaled)[:, 0].sum(), scaled)
    return (inp * grads.mean(0, keepdim=True)).squeeze()


ig = integrated_gradients(x)
print("IG", ig)
with torch.no_grad():
    print(f"IG completeness {ig.sum().item():.3f} vs {(model(x)[0, 0] - model(torch.zeros_like(x))[0, 0]).item():.3f}")
    base = model(x)[0]
    occl = [((base - model(x.index_fill(1, torch.tensor([k, k + 1]), 0.0))[0]).abs().sum()).item() for k in range(0, 8, 2)]
print("occlusion", [round(v, 4) for v in occl])
