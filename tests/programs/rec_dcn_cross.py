# Deep & Cross Network (DCN v1 and v2 cross layers) on concatenated categorical embeddings and
# bucketized numerical features, as in CTR reference implementations.
import torch
import torch.nn as nn


class CrossLayerV1(nn.Module):
    def __init__(self, d, n_layers):
        super().__init__()
        self.w = nn.ParameterList([nn.Parameter(torch.empty(d, 1)) for _ in range(n_layers)])
        self.b = nn.ParameterList([nn.Parameter(torch.zeros(d)) for _ in range(n_layers)])

    def forward(self, x0):
        x = x0
        for w, b in zip(self.w, self.b):
            x = x0 * (x @ w) + b + x
        return x


class CrossLayerV2(nn.Module):
    def __init__(self, d, n_layers):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(d, d) for _ in range(n_layers)])

    def forward(self, x0):
        x = x0
        for lin in self.lins:
            x = x0 * lin(x) + x
        return x


cat = torch.tensor([[0, 2], [1, 0], [2, 1], [1, 1], [0, 0], [2, 2]])
num = torch.tensor([0.3, 1.7, 4.2, 2.5, 0.9, 3.3])
boundaries = torch.tensor([1.0, 2.0, 3.0])
num_bucket = torch.bucketize(num, boundaries)
print(num_bucket)
emb_a, emb_b, emb_n = nn.Embedding(3, 2), nn.Embedding(3, 2), nn.Embedding(len(boundaries) + 1, 2)
for k, e in enumerate([emb_a, emb_b, emb_n]):
    with torch.no_grad():
        e.weight.copy_(torch.arange(e.weight.numel(), dtype=torch.float32).view_as(e.weight) * 0.1 - 0.2 * k)
x0 = torch.cat([emb_a(cat[:, 0]), emb_b(cat[:, 1]), emb_n(num_bucket), num.unsqueeze(1) / 5], dim=1)
print(x0.shape, x0.grad_fn.name())

torch.manual_seed(0)
v1, v2 = CrossLayerV1(7, 2), CrossLayerV2(7, 2)
with torch.no_grad():
    for i, p in enumerate(list(v1.parameters()) + list(v2.parameters())):
        p.copy_(0.1 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (i + 1)).view_as(p))
print(v1)
print([n for n, _ in v1.named_parameters()])
out1, out2 = v1(x0), v2(x0)
print(out1.shape, out2.shape)
print(out1[:2].detach().round(decimals=4))
print(out2[:2].detach().round(decimals=4))
head = nn.Linear(14, 1)
with torch.no_grad():
    head.weight.fill_(0.05)
    head.bias.zero_()
y = torch.tensor([1., 0., 1., 1., 0., 0.])
params = [*v1.parameters(), *v2.parameters(), *head.parameters(), *emb_a.parameters(), *emb_b.parameters(), *emb_n.parameters()]
opt = torch.optim.AdamW(params, lr=0.05, weight_decay=0.01)
for step in range(15):
    x0 = torch.cat([emb_a(cat[:, 0]), emb_b(cat[:, 1]), emb_n(num_bucket), num.unsqueeze(1) / 5], dim=1)
    logit = head(torch.cat([v1(x0), v2(x0)], dim=1)).squeeze(1)
    loss = nn.functional.binary_cross_entropy_with_logits(logit, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"{step} {loss.item():.4f}")
print(emb_n.weight.grad)
print(v1.w[0].grad.shape, v2.lins[1].weight.grad.shape)
