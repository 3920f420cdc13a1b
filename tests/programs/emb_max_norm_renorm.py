# nn.Embedding(max_norm=...) as in many tutorials: looked-up rows whose norm exceeds max_norm
# are renormalized in place in the weight; only the rows that were looked up change.
import torch
import torch.nn as nn
import torch.nn.functional as F

w0 = (torch.arange(24, dtype=torch.float32).view(6, 4) - 10.0) / 3.0
print(w0.norm(dim=1))

for norm_type in (2.0, 1.0, float("inf")):
    emb = nn.Embedding(6, 4, max_norm=1.5, norm_type=norm_type)
    with torch.no_grad():
        emb.weight.copy_(w0)
    print(emb)
    idx = torch.tensor([[0, 2], [2, 5]])
    out = emb(idx)
    print(norm_type, out.shape)
    print(emb.weight.detach().norm(p=norm_type, dim=1))
    changed = (emb.weight.detach() != w0).any(dim=1)
    print("changed rows:", changed.nonzero().flatten().tolist())
    loss = out.pow(2).sum()
    loss.backward()
    print(emb.weight.grad)
    print(round(loss.item(), 4))

# F.embedding with max_norm modifies the tensor passed in
w = w0.clone()
print(w._version)
out = F.embedding(torch.tensor([1, 4]), w, max_norm=2.0)
print(w._version > 0, out)
print(w.norm(dim=1))

# training with max_norm: rows stay within the ball after each lookup
emb = nn.Embedding(6, 4, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(w0)
opt = torch.optim.SGD(emb.parameters(), lr=0.5)
target = torch.ones(4)
for step in range(6):
    opt.zero_grad()
    out = emb(torch.tensor([0, 1, 2]))
    loss = (out - target).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", [round(v, 4) for v in emb.weight.detach()[:3].norm(dim=1).tolist()])

# from_pretrained also takes max_norm
pre = nn.Embedding.from_pretrained(w0.clone(), max_norm=0.5)
print(pre.max_norm, pre.weight.requires_grad)
print(pre(torch.tensor([3])).norm())
