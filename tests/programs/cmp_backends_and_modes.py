# The backend= and mode= arguments users copy from tutorials: "eager", "aot_eager", "inductor",
# options={...}, invalid backend/mode errors, and results that must not depend on any of them.
# (A hand-written backend function (gm, example_inputs) needs PyTorch's FX graphs: tapegrad
# refuses it as an invalid backend.)
import torch
import torch.nn as nn


def swish(x, beta: float = 1.0):
    return x * torch.sigmoid(beta * x)


x = torch.linspace(-3.0, 3.0, 7)
ref = swish(x)
for backend in ("eager", "aot_eager", "inductor"):
    f = torch.compile(swish, backend=backend)
    y = f(x)
    print(backend, torch.allclose(y, ref), y[[0, 3, 6]])

for kwargs in ({"mode": "reduce-overhead"}, {"mode": "max-autotune"}, {"mode": "max-autotune-no-cudagraphs"},
               {"options": {"trace.enabled": False}}, {"dynamic": True, "fullgraph": True},
               {"backend": "aot_eager", "dynamic": False}):
    torch._dynamo.reset()
    g = torch.compile(swish, **kwargs)
    print(sorted(kwargs), g(x, 0.5)[-1], g(torch.ones(2, 2), 0.5).shape)

try:
    torch.compile(swish, backend="no_such_backend")(x)
except Exception as e:
    print(type(e).__name__)
try:
    torch.compile(swish, mode="reduce-overhead", options={"max_autotune": True})
except RuntimeError as e:
    print("RuntimeError:", e)

# A module compiled with aot_eager still trains like the eager one
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.SiLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
cnet = torch.compile(net, backend="aot_eager")
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
target = torch.tensor([[1.0], [1.0], [0.0], [0.0]])
for epoch in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(cnet(data), target)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.5f}", loss.grad_fn.name())
print(net[2].weight.grad)
