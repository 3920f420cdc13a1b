# Tied input/output embeddings in a tiny language model (Press & Wolf): decoder.weight is the
# embedding weight, gradients from both uses accumulate, parameters()/state_dict dedupe rules.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.decoder = nn.Linear(d, vocab, bias=True)
        self.decoder.weight = self.embed.weight

    def forward(self, ids):
        h = torch.tanh(self.mix(self.embed(ids)))
        return self.decoder(h)


V, d = 9, 4
model = TinyLM(V, d)
with torch.no_grad():
    model.embed.weight.copy_(0.4 * torch.sin(torch.arange(V * d, dtype=torch.float32) * 0.9).view(V, d))
    model.mix.weight.copy_(torch.eye(d) + 0.1 * torch.cos(torch.arange(d * d, dtype=torch.float32)).view(d, d))
    model.mix.bias.zero_()
    model.decoder.bias.zero_()

print(model.decoder.weight is model.embed.weight)
print([n for n, _ in model.named_parameters()])
print(list(model.state_dict().keys()))
print(sum(p.numel() for p in model.parameters()))
print(model.state_dict()["decoder.weight"].data_ptr() == model.state_dict()["embed.weight"].data_ptr())

seq = torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
inp, tgt = seq[:, :-1], seq[:, 1:]

# gradient of the tied weight = gradient through embedding + gradient through decoder
logits = model(inp)
loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))
loss.backward()
tied_grad = model.embed.weight.grad.clone()
print(f"{loss.item():.4f}")

w = model.embed.weight.detach().clone().requires_grad_()
w2 = model.embed.weight.detach().clone().requires_grad_()
h = torch.tanh(model.mix(F.embedding(inp, w)))
loss2 = F.cross_entropy(F.linear(h, w2, model.decoder.bias).reshape(-1, V), tgt.reshape(-1))
loss2.backward()
print(torch.allclose(tied_grad, w.grad + w2.grad, atol=1e-6))
print(w.grad.abs().sum(1).round(decimals=4))
print(w2.grad.abs().sum(1).round(decimals=4))
print(w.grad[0].abs().sum().item(), w.grad[8].abs().sum().item())

model.zero_grad()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
print(len(opt.param_groups[0]["params"]))
for step in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model(inp).reshape(-1, V), tgt.reshape(-1))
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(step, f"{loss.item():.4f}")
print(model.decoder.weight is model.embed.weight)
pred = model(inp).argmax(-1)
print(pred)
print((pred == tgt).float().mean().item())

# reloading a state_dict keeps the tie
fresh = TinyLM(V, d)
fresh.load_state_dict(model.state_dict())
print(fresh.decoder.weight is fresh.embed.weight, torch.equal(fresh.embed.weight, model.embed.weight))
