# Per-sample gradients (torch.func tutorial) for a text classifier with an Embedding bag-of-words,
# where the loss takes keyword arguments (label smoothing, class weights) passed through grad and
# vmap unbatched; checked against the per-example loop and used for per-sample gradient norms.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, grad_and_value, vmap


class BagOfWords(nn.Module):
    def __init__(self, vocab=12, dim=4, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens):
        return self.fc(self.emb(tokens).mean(dim=-2))


model = BagOfWords()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape) * 0.5)

tokens = (torch.arange(6 * 5).view(6, 5) * 7) % 12
labels = torch.tensor([0, 1, 2, 1, 0, 2])
class_weight = torch.tensor([1.0, 2.0, 0.5])

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target, *, weight=None, label_smoothing=0.0):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    logits = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(logits, targets, weight=weight, label_smoothing=label_smoothing)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
per_sample = ft_compute_sample_grad(params, buffers, tokens, labels, weight=class_weight,
                                    label_smoothing=0.1)
for name, g in per_sample.items():
    print(name, tuple(g.shape))

# the loop the tutorial compares against
for name in params:
    loop = []
    for x, y in zip(tokens, labels):
        model.zero_grad()
        logits = model(x.unsqueeze(0))
        F.cross_entropy(logits, y.unsqueeze(0), weight=class_weight, label_smoothing=0.1).backward()
        loop.append(dict(model.named_parameters())[name].grad.clone())
    print(name, "matches loop:", torch.allclose(torch.stack(loop), per_sample[name], atol=1e-6))

# embedding rows that a sample never touched get an exactly-zero gradient
emb_g = per_sample["emb.weight"]
print("touched rows per sample:", (emb_g.abs().sum(-1) > 0).sum(-1).tolist())
print("rows of sample 0:", sorted(set(tokens[0].tolist())))

# per-sample gradient norms and values with grad_and_value
gv = vmap(grad_and_value(compute_loss), in_dims=(None, None, 0, 0))
grads, losses = gv(params, buffers, tokens, labels, label_smoothing=0.0)
print("losses:", losses.round(decimals=4))
norms = torch.stack([g.flatten(1).norm(dim=1) for g in grads.values()]).norm(dim=0)
print("per-sample norms:", norms.round(decimals=4))

# a positional-only call of vmap over kwargs would batch them; unbatched kwargs broadcast
try:
    ft_compute_sample_grad(params, buffers, tokens, labels[:4])
except ValueError as e:
    print("ValueError:", e)
