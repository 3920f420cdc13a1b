# DeepAR for intermittent count data (retail demand notebooks): a GRU over lagged counts scaled by
# the per-series mean (v = 1 + mean, as in the paper), a NegativeBinomial likelihood with
# total_count from softplus and logits from a Linear head, loss = -log_prob masked over padded
# steps, and deterministic forecasts from the distribution mean/variance/mode and Poisson fallback.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import NegativeBinomial, Poisson
from torch.nn.utils.rnn import pad_sequence

torch.set_printoptions(precision=4, sci_mode=False)


class DeepARCounts(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.rnn = nn.GRU(2, hidden, num_layers=2, batch_first=True)
        self.alpha = nn.Linear(hidden, 1)
        self.logit = nn.Linear(hidden, 1)

    def forward(self, lagged, scale, dow):
        out, h = self.rnn(torch.cat([lagged / scale, dow], dim=-1))
        total_count = F.softplus(self.alpha(out)).squeeze(-1) + 1e-3
        logits = self.logit(out).squeeze(-1) + torch.log(scale.squeeze(-1))
        return NegativeBinomial(total_count=total_count, logits=logits), h


raw = [
    [0, 0, 3, 1, 0, 0, 5, 2, 0, 0, 4, 1, 0, 0, 6, 2, 0, 1],
    [2, 1, 0, 0, 0, 7, 1, 0, 3, 0, 0, 0, 8, 1, 0, 2],
    [10, 12, 9, 14, 11, 13, 10, 15, 12, 11, 16, 13, 14, 12],
]
seqs = [torch.tensor(r, dtype=torch.float32) for r in raw]
lengths = torch.tensor([len(r) for r in raw])
y = pad_sequence(seqs, batch_first=True)
mask = torch.arange(y.shape[1])[None, :] < lengths[:, None]
lagged = F.pad(y, (1, 0))[:, :-1].unsqueeze(-1)
scale = (1 + (y * mask).sum(1, keepdim=True) / lengths[:, None]).unsqueeze(-1)
dow = torch.sin(2 * torch.pi * torch.arange(y.shape[1]) / 7).expand(len(raw), -1).unsqueeze(-1)
print("scale", scale.squeeze(-1).squeeze(-1), "mask sums", mask.sum(1))

model = DeepARCounts()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.67 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(30):
    opt.zero_grad()
    dist, _ = model(lagged, scale, dow)
    nll = -(dist.log_prob(y) * mask).sum() / mask.sum()
    nll.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} nll {nll.item():.4f}")

with torch.no_grad():
    dist, h = model(lagged, scale, dow)
idx = lengths - 1
last = NegativeBinomial(total_count=dist.total_count[torch.arange(3), idx], logits=dist.logits[torch.arange(3), idx])
print("batch_shape", last.batch_shape, "event_shape", last.event_shape)
print("mean", last.mean)
print("stddev", last.stddev)
print("mode", last.mode)
print("P(y=0)", last.log_prob(torch.zeros(3)).exp())
print("poisson nll at mean", -Poisson(last.mean).log_prob(torch.tensor([1.0, 2.0, 13.0])))
print("h", tuple(h.shape))
