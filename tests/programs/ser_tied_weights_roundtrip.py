# A tiny language model with the output projection tied to the embedding: the tie must show up
# in parameters()/state_dict, survive torch.save/torch.load, load_state_dict and copy.deepcopy.
import copy
import io

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=7, dim=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.emb.weight

    def forward(self, idx):
        return self.lm_head(torch.tanh(self.proj(self.emb(idx))))


model = TinyLM()
with torch.no_grad():
    model.emb.weight.copy_(torch.arange(28, dtype=torch.float32).view(7, 4) / 28 - 0.5)
    model.proj.weight.copy_(torch.eye(4) * 0.9)
    model.proj.bias.fill_(0.05)
print([n for n, _ in model.named_parameters()])
print(len(list(model.parameters())), len(list(model.named_parameters(remove_duplicate=False))))
sd = model.state_dict()
print(list(sd.keys()))
print(sd["emb.weight"].data_ptr() == sd["lm_head.weight"].data_ptr())

buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
print(loaded["emb.weight"].data_ptr() == loaded["lm_head.weight"].data_ptr())
print(loaded["emb.weight"].untyped_storage().nbytes())

fresh = TinyLM()
print(fresh.load_state_dict(loaded))
print(fresh.lm_head.weight is fresh.emb.weight, torch.equal(fresh.emb.weight, model.emb.weight))

clone = copy.deepcopy(model)
print(clone.lm_head.weight is clone.emb.weight, clone.emb.weight is model.emb.weight)

idx = torch.tensor([[0, 3, 6], [1, 2, 5]])
logits = model(idx)
loss = nn.functional.cross_entropy(logits.view(-1, 7), torch.tensor([3, 6, 0, 2, 5, 1]))
loss.backward()
print(f"{loss.item():.4f}", model.emb.weight.grad is model.lm_head.weight.grad)
print(model.emb.weight.grad.abs().sum(1))

opt = torch.optim.SGD(model.parameters(), lr=0.5)
opt.step()
print(torch.equal(model.emb.weight, model.lm_head.weight))
print([len(g["params"]) for g in opt.state_dict()["param_groups"]])

untied = TinyLM()
untied.lm_head.weight = nn.Parameter(untied.emb.weight.detach().clone())
print(untied.load_state_dict(model.state_dict()))
print(torch.equal(untied.lm_head.weight, untied.emb.weight), untied.lm_head.weight is untied.emb.weight)
try:
    torch.optim.SGD([model.emb.weight, model.lm_head.weight], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
