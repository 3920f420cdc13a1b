# SwAV: prototypes layer normalised in place each step (weight.data.clone + F.normalize + copy_),
# Sinkhorn-Knopp under no_grad (exp(out / eps).t(), repeated row/col normalisation with /=),
# swapped prediction loss with log_softmax / temperature, a feature queue used after warm-up, and
# freezing the prototypes' gradient for the first iterations by setting p.grad = None.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def distributed_sinkhorn(out, epsilon=0.05, iters=3):
    Q = torch.exp(out / epsilon).t()
    B = Q.shape[1]
    K = Q.shape[0]
    sum_Q = torch.sum(Q)
    Q /= sum_Q
    for it in range(iters):
        sum_of_rows = torch.sum(Q, dim=1, keepdim=True)
        Q /= sum_of_rows
        Q /= K
        Q /= torch.sum(Q, dim=0, keepdim=True)
        Q /= B
    Q *= B
    return Q.t()


class SwAV(nn.Module):
    def __init__(self):
        super().__init__()
        self.projection_head = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(inplace=True), nn.Linear(8, 4))
        self.prototypes = nn.Linear(4, 5, bias=False)

    def forward(self, x):
        x = self.projection_head(x)
        x = nn.functional.normalize(x, dim=1, p=2)
        return x, self.prototypes(x)


model = SwAV()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + 2 * i).view_as(p) * 0.6)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-6)
queue = torch.zeros(2, 6, 4)
bs, temperature = 3, 0.1
data = torch.cos(torch.arange(bs * 6, dtype=torch.float32) * 0.35).view(bs, 6)
views = [data, torch.flip(data, dims=[1]) * 0.8]

for it in range(6):
    with torch.no_grad():
        w = model.prototypes.weight.data.clone()
        w = nn.functional.normalize(w, dim=1, p=2)
        model.prototypes.weight.copy_(w)
    embedding, output = model(torch.cat(views))
    embedding = embedding.detach()
    loss = 0
    for i, crop_id in enumerate([0, 1]):
        with torch.no_grad():
            out = output[bs * crop_id: bs * (crop_id + 1)].detach()
            if it >= 2:
                out = torch.cat((torch.mm(queue[i], model.prototypes.weight.t()), out))
            queue[i, bs:] = queue[i, :-bs].clone()
            queue[i, :bs] = embedding[crop_id * bs: (crop_id + 1) * bs]
            q = distributed_sinkhorn(out)[-bs:]
        subloss = 0
        for v in [v for v in range(2) if v != crop_id]:
            x = output[bs * v: bs * (v + 1)] / temperature
            subloss -= torch.mean(torch.sum(q * F.log_softmax(x, dim=1), dim=1))
        loss += subloss / 1
    loss /= 2
    optimizer.zero_grad()
    loss.backward()
    if it < 3:
        for name, p in model.named_parameters():
            if "prototypes" in name:
                p.grad = None
    optimizer.step()
    print(it, f"{loss.item():.4f}", "q rows", q.sum(dim=1).round(decimals=3).tolist())
print("prototype norms", model.prototypes.weight.norm(dim=1).round(decimals=4))
print("queue", queue[0, :3].round(decimals=3))
print("codes", q.argmax(dim=1))
