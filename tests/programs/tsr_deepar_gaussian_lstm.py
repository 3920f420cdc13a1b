# DeepAR-style probabilistic forecaster: covariates (time features from sin/cos of the index and
# a month nn.Embedding) concatenated with the lagged target, an LSTM producing mu and
# softplus(sigma), Gaussian negative log-likelihood via torch.distributions.Normal and
# nn.GaussianNLLLoss, and quantiles of the predictive distribution from Normal.icdf.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class DeepAR(nn.Module):
    def __init__(self, n_cov=2, n_months=12, emb=3, hidden=8):
        super().__init__()
        self.month_emb = nn.Embedding(n_months, emb)
        self.lstm = nn.LSTM(1 + n_cov + emb, hidden, num_layers=2, batch_first=True)
        self.mu = nn.Linear(hidden, 1)
        self.presigma = nn.Linear(hidden, 1)

    def forward(self, y_lag, cov, month, state=None):
        x = torch.cat([y_lag.unsqueeze(-1), cov, self.month_emb(month)], dim=-1)
        out, state = self.lstm(x, state)
        mu = self.mu(out).squeeze(-1)
        sigma = F.softplus(self.presigma(out)).squeeze(-1) + 1e-3
        return mu, sigma, state


model = DeepAR()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + 0.7 * i).reshape(p.shape))

T, B = 36, 3
idx = torch.arange(T, dtype=torch.float32)
cov = torch.stack([torch.sin(2 * torch.pi * idx / 12), torch.cos(2 * torch.pi * idx / 12)], -1).expand(B, T, 2)
month = (torch.arange(T) % 12).expand(B, T)
y = (torch.arange(1, B + 1, dtype=torch.float32).unsqueeze(1) * torch.sin(2 * torch.pi * idx / 12) + 0.5)
print(cov.shape, month.shape, y.shape, cov.is_contiguous())
scale = y.abs().mean(dim=1, keepdim=True) + 1
y_s = y / scale
print(scale.squeeze(1))
y_lag = torch.cat([torch.zeros(B, 1), y_s[:, :-1]], dim=1)

opt = torch.optim.Adam(model.parameters(), lr=0.01)
gnll = nn.GaussianNLLLoss()
for step in range(20):
    opt.zero_grad()
    mu, sigma, _ = model(y_lag, cov, month)
    nll = -Normal(mu, sigma).log_prob(y_s).mean()
    alt = gnll(mu, y_s, sigma ** 2)
    nll.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step} nll {nll.item():.4f} gaussian-nll-loss {alt.item():.4f}")

model.eval()
with torch.no_grad():
    mu, sigma, state = model(y_lag[:, :24], cov[:, :24], month[:, :24])
    last = y_s[:, 23]
    means, lows, highs = [], [], []
    for t in range(24, 30):
        m, s, state = model(last.unsqueeze(1), cov[:, t:t + 1], month[:, t:t + 1], state)
        dist = Normal(m.squeeze(1), s.squeeze(1))
        means.append(dist.mean * scale.squeeze(1))
        lows.append(dist.icdf(torch.tensor(0.1)) * scale.squeeze(1))
        highs.append(dist.icdf(torch.tensor(0.9)) * scale.squeeze(1))
        last = dist.mean
print(torch.stack(means, 1).round(decimals=3))
print((torch.stack(highs, 1) > torch.stack(lows, 1)).all().item(), torch.stack(lows, 1).shape)
print([tuple(s.shape) for s in state], Normal(0.0, 1.0).cdf(torch.tensor([-1.0, 0.0, 1.0])))
print(F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.full((3,), 0.5), full=True, reduction="sum"))
try:
    gnll(torch.zeros(3), torch.ones(3), -torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
