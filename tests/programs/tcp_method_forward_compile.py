# Compiling a method rather than the module: the HF-style `model.forward = torch.compile(model.forward)`,
# a compiled non-forward method (`encode`), and a tied embedding / output weight.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedLM(nn.Module):
    def __init__(self, vocab=10, d=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab, bias=False)
        self.out.weight = self.emb.weight  # weight tying

    def encode(self, idx):
        return torch.tanh(self.proj(self.emb(idx)))

    def forward(self, idx):
        return self.out(self.encode(idx))


model = TiedLM()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view_as(p) * 0.4)
print("params", [n for n, _ in model.named_parameters()])
print("tied", model.out.weight is model.emb.weight)

model.forward = torch.compile(model.forward)
encode = torch.compile(model.encode)

idx = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
tgt = torch.tensor([[2, 3, 4, 5], [6, 7, 8, 9]])
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
for step in range(8):
    opt.zero_grad()
    logits = model(idx)
    loss = F.cross_entropy(logits.reshape(-1, 10), tgt.reshape(-1))
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(f"step {step} loss {loss.item():.4f}")

print("still tied", model.out.weight is model.emb.weight, model.emb.weight.grad.shape)
print("state_dict keys", list(model.state_dict().keys()))
h = encode(idx[:1])
print(h.shape, torch.round(h[0, 0], decimals=4))
with torch.no_grad():
    print("argmax", model(idx).argmax(-1).tolist())
print(type(model).__name__, "forward" in model.__dict__)
