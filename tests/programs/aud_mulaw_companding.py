# mu-law companding as in WaveNet data pipelines: encode to 256 classes, decode back, one-hot inputs,
# a classifier over quantized samples trained with cross_entropy, and quantization error checks.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def mu_law_encode(x, mu=255):
    mu_t = torch.tensor(mu, dtype=x.dtype)
    y = torch.sign(x) * torch.log1p(mu_t * x.abs()) / torch.log1p(mu_t)
    return ((y + 1) / 2 * mu + 0.5).to(torch.int64)

def mu_law_decode(q, mu=255):
    y = 2 * (q.float() / mu) - 1
    return torch.sign(y) * (torch.pow(1 + mu, y.abs()) - 1) / mu

t = torch.linspace(0, 1, 50)
wave = 0.8 * torch.sin(2 * math.pi * 3 * t) * torch.exp(-2 * t)
q = mu_law_encode(wave)
print(q.dtype, q.min().item(), q.max().item())
print(q[:16])
rec = mu_law_decode(q)
err = (rec - wave).abs()
print(f"max err {err.max().item():.5f}", f"mean err {err.mean().item():.6f}")
print(mu_law_encode(torch.tensor([-1.0, -0.5, 0.0, 0.01, 0.5, 1.0])))
print(mu_law_decode(torch.tensor([0, 64, 127, 128, 192, 255])).round(decimals=4))

# fewer bits
q8 = mu_law_encode(wave, mu=15)
print(q8.unique(), torch.bincount(q8, minlength=16))

one_hot = F.one_hot(q, num_classes=256).float().T.unsqueeze(0)
print(one_hot.shape, one_hot.sum().item(), one_hot.argmax(1)[0, :8])

# tiny next-sample classifier on quantized audio
emb = nn.Embedding(256, 8)
head = nn.Conv1d(8, 256, 2)
with torch.no_grad():
    emb.weight.copy_(torch.sin(torch.arange(256 * 8, dtype=torch.float32).reshape(256, 8) * 0.01))
    head.weight.copy_(torch.cos(torch.arange(256 * 8 * 2, dtype=torch.float32).reshape(256, 8, 2) * 0.003) * 0.1)
    head.bias.zero_()
opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.5, momentum=0.9)
inp, tgt = q[:-2].unsqueeze(0), q[2:].unsqueeze(0)
for step in range(20):
    h = emb(inp).transpose(1, 2)
    logits = head(h)
    loss = F.cross_entropy(logits, tgt[:, :logits.shape[-1]])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.3f}", logits.shape)
acc = (logits.argmax(1) == tgt[:, :logits.shape[-1]]).float().mean()
print("acc > 0:", acc.item() > 0, emb.weight.grad.shape, (emb.weight.grad.abs().sum(1) > 0).sum().item())

# straight-through quantization for gradient-based training
x = wave.clone().requires_grad_(True)
y = torch.sign(x) * torch.log1p(255 * x.abs()) / math.log1p(255)
y_q = y + (torch.round(y * 127.5) / 127.5 - y).detach()
y_q.sum().backward()
print(x.grad[:6].round(decimals=3), y_q.grad_fn.name())
