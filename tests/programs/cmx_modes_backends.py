# Trying the torch.compile knobs one after another: mode=, backend=, dynamic=, fullgraph=, with
# torch._dynamo.reset() / torch.compiler.reset() in between; all give the eager numbers.
import torch
import torch.nn as nn

torch._dynamo.reset()


def rms_norm_gate(x, w):
    h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    return h * torch.sigmoid(h)


x = torch.linspace(-3, 3, 24).view(4, 6)
w = torch.linspace(0.5, 1.5, 6)
ref = rms_norm_gate(x, w)
print(torch.round(ref[0], decimals=4))

configs = [dict(), dict(mode="reduce-overhead"), dict(mode="max-autotune"),
           dict(mode="max-autotune-no-cudagraphs"), dict(backend="inductor"), dict(backend="eager"),
           dict(backend="aot_eager"), dict(dynamic=True), dict(dynamic=False),
           dict(fullgraph=True, dynamic=False)]
for cfg in configs:
    fn = torch.compile(rms_norm_gate, **cfg)
    out = fn(x, w)
    out2 = fn(x[:2], w)
    print(cfg, torch.allclose(out, ref, atol=1e-6), tuple(out2.shape), torch.allclose(out2, ref[:2], atol=1e-6))
    torch._dynamo.reset()

print(sorted(torch._dynamo.list_backends())[:0], "inductor" in torch._dynamo.list_backends())
try:
    torch.compile(rms_norm_gate, backend="not_a_backend")(x, w)
except Exception as e:
    print(type(e).__name__)
try:
    torch.compile(rms_norm_gate, mode="fast", options={"x": 1})
except Exception as e:
    print(type(e).__name__, e)

# a module compiled with mode; compiler.reset between models
lin = nn.Linear(6, 2)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-1, 1, 12).view(2, 6))
    lin.bias.copy_(torch.tensor([0.1, -0.2]))
cm = torch.compile(lin, mode="reduce-overhead", dynamic=False)
y = cm(x)
print(torch.round(y, decimals=4))
y.sum().backward()
print(lin.weight.grad)
torch.compiler.reset()
print(torch.equal(cm(x), lin(x)))
