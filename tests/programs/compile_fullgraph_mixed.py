# fullgraph=True compiled function mixed with eager code, called under no_grad and with new shapes.
import torch
import torch.nn.functional as F


@torch.compile(fullgraph=True)
def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5)
    return F.softmax(scores, dim=-1) @ v


def make(n, d, shift):
    return torch.sin(torch.arange(n * d, dtype=torch.float32) * 0.37 + shift).view(1, n, d)


q, k, v = make(3, 4, 0.0), make(3, 4, 1.0), make(3, 4, 2.0)
out = attention(q, k, v)
print(out.shape)
print(out)
ref = F.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1) @ v
print(torch.allclose(out, ref, atol=1e-6))

eager = out * 2 + 1  # eager code on the compiled result
print(eager.sum().item() > 0, eager.shape)

for n in (2, 5):
    o = attention(make(n, 4, 0.5), make(n, 4, 1.5), make(n, 4, 2.5))
    print(n, tuple(o.shape), f"{o.abs().sum().item():.4f}")

qg = q.clone().requires_grad_()
attention(qg, k, v).sum().backward()
print(qg.grad)

with torch.no_grad():
    o = attention(qg, k, v)
print(o.requires_grad)
