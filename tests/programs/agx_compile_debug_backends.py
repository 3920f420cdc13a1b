# The torch.compile troubleshooting recipe: bisect with backend="eager" / "aot_eager" / "inductor",
# reset between attempts, keep a helper out of the graph with torch.compiler.disable, and use
# nn.Module.compile() in place. Outputs must be identical whichever backend runs.
import torch
import torch.nn as nn


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


x = torch.linspace(-2, 2, 5)
ref = gelu_tanh(x)
print(ref)
for backend in ("eager", "aot_eager", "inductor"):
    torch.compiler.reset()
    f = torch.compile(gelu_tanh, backend=backend)
    out = f(x)
    print(backend, torch.allclose(out, ref, atol=1e-6), out.shape)

try:
    torch.compile(gelu_tanh, backend="not_a_backend")(x)
except Exception as e:
    print(type(e).__name__, str(e).split(",")[0])


torch._dynamo.reset()


@torch.compiler.disable
def log_stats(t):
    print("stats", round(t.mean().item(), 4), round(t.std().item(), 4))
    return t


@torch.compile
def block(t):
    h = torch.relu(t * 2 - 1)
    h = log_stats(h)
    return h.sum()


print(block(torch.linspace(0, 1, 6)))
print(torch.compiler.is_compiling())

try:
    torch.compile(gelu_tanh, mode="max-autotune", options={"epilogue_fusion": True})
except RuntimeError as e:
    print("RuntimeError:", e)

model = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.3, 0.2, -0.1]]))
    model[0].bias.copy_(torch.tensor([0.0, 0.5]))
model.compile()
print(type(model).__name__, list(model.state_dict()))
out = model(torch.tensor([[1.0, 2.0, 3.0]]))
print(out.detach(), out.requires_grad)
out.sum().backward()
print(model[0].weight.grad)
