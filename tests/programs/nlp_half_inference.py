# CPU half-precision inference of a small text classifier (model.half()): mean-pooled
# embeddings, linear head, softmax / log_softmax / logsumexp over the classes in float16,
# next-token probabilities over a vocabulary, and top-k predictions.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Clf(nn.Module):
    def __init__(self, V=12, D=6, C=5):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.fc = nn.Linear(D, C)

    def forward(self, x, mask):
        e = self.emb(x) * mask.unsqueeze(-1)
        return self.fc(e.sum(1) / mask.sum(1, keepdim=True))


model = Clf()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1.5, 1.5, p.numel()).reshape(p.shape) * (1 + 0.3 * i))
x = torch.tensor([[1, 4, 7, 0], [2, 3, 0, 0], [11, 10, 9, 8]])
lengths = torch.tensor([3, 2, 4])
mask = (torch.arange(4)[None] < lengths[:, None]).half()
model.half().eval()
print(next(model.parameters()).dtype)
with torch.no_grad():
    logits = model(x, mask)
    print(logits)
    print(F.softmax(logits, dim=-1))
    print(F.log_softmax(logits, dim=-1))
    print(torch.logsumexp(logits, dim=-1))
    print(F.softmax(logits, dim=0))
    print(logits.softmax(-1).topk(2, dim=-1))
    print(logits.float().softmax(-1).half() == logits.softmax(-1))

    vocab_logits = torch.linspace(-4, 4, 3 * 40).reshape(3, 40).sin().half() * 6
    probs = F.softmax(vocab_logits, dim=-1)
    print(probs.sum(-1), probs.max(-1))
    print(F.log_softmax(vocab_logits, dim=-1)[:, :6])
    print(torch.logsumexp(vocab_logits, -1))
