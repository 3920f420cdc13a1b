# ES-RNN hybrid (Smyl's M4 winner) as reimplemented in blog posts: per-series learnable Holt-Winters
# level and seasonality smoothing coefficients (sigmoid of nn.Parameter), initial seasonal indices
# via exp, a Python loop building levels/seasonals with torch.stack, deseasonalised and
# level-normalised log windows via unfold, a dilated residual LSTM stack, and a level-variability
# penalty, trained jointly with Adam.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)


class HoltWinters(nn.Module):
    def __init__(self, n_series, season):
        super().__init__()
        self.season = season
        self.lev_sms = nn.Parameter(torch.full((n_series,), 0.5))
        self.seas_sms = nn.Parameter(torch.full((n_series,), 0.5))
        self.init_seas = nn.Parameter(torch.zeros(n_series, season))

    def forward(self, y):                     # y: [N, T]
        alpha, gamma = torch.sigmoid(self.lev_sms), torch.sigmoid(self.seas_sms)
        seasonalities = [torch.exp(self.init_seas[:, i]) for i in range(self.season)]
        seasonalities.append(seasonalities[0])
        levels = [y[:, 0] / seasonalities[0]]
        for t in range(1, y.shape[1]):
            new_lev = alpha * (y[:, t] / seasonalities[t]) + (1 - alpha) * levels[t - 1]
            levels.append(new_lev)
            seasonalities.append(gamma * (y[:, t] / new_lev) + (1 - gamma) * seasonalities[t])
        levels = torch.stack(levels, dim=1)
        seasonalities = torch.stack(seasonalities, dim=1)
        log_diff = torch.log(levels[:, 1:] / levels[:, :-1])
        penalty = ((log_diff[:, 1:] - log_diff[:, :-1]) ** 2).mean()
        return levels, seasonalities, penalty


class DRNN(nn.Module):
    """Residual stack of LSTMs; each later layer sees every second step (dilation 2)."""
    def __init__(self, d_in, hidden):
        super().__init__()
        self.l1 = nn.LSTM(d_in, hidden, batch_first=True)
        self.l2 = nn.LSTM(hidden, hidden, batch_first=True)

    def forward(self, x):
        h1, _ = self.l1(x)
        B, T, H = h1.shape
        dil = h1.reshape(B * 2, T // 2, H) if T % 2 == 0 else h1
        h2, _ = self.l2(dil)
        return h1 + h2.reshape(B, T, H)


N, S, T, L, Hz = 3, 4, 40, 8, 4
t = torch.arange(T, dtype=torch.float32)
season = torch.tensor([1.2, 0.9, 0.8, 1.1]).repeat(T // S)
y = torch.stack([(10 + k + 0.1 * (k + 1) * t) * season * (1 + 0.02 * torch.sin(t + k)) for k in range(N)])
hw, rnn, head = HoltWinters(N, S), DRNN(L, 8), nn.Linear(8, Hz)
with torch.no_grad():
    for i, p in enumerate(list(rnn.parameters()) + list(head.parameters())):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i).reshape(p.shape) * 0.25)
params = list(hw.parameters()) + list(rnn.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=1e-2)

for epoch in range(20):
    opt.zero_grad()
    levels, seas, penalty = hw(y)
    deseason = y / seas[:, :T]
    norm = torch.log(deseason / levels)
    windows = norm.unfold(1, L + Hz, 1)       # [N, W, L+H]
    x_in, target = windows[..., :L], windows[..., L:]
    W = x_in.shape[1] - x_in.shape[1] % 2
    pred = head(rnn(x_in[:, :W]))
    loss = (pred - target[:, :W]).abs().mean() + 0.1 * penalty
    loss.backward()
    nn.utils.clip_grad_norm_(params, 20.0)
    opt.step()
    if epoch % 5 == 0 or epoch == 19:
        print(f"epoch {epoch:2d} loss {loss.item():.5f} penalty {penalty.item():.6f}")

with torch.no_grad():
    levels, seas, _ = hw(y)
    last = torch.log(y[:, -L:] / seas[:, T - L:T] / levels[:, -1:])
    B2 = torch.stack([last, last], dim=1)
    fc_norm = head(rnn(B2))[:, -1]
    forecast = torch.exp(fc_norm) * levels[:, -1:] * seas[:, T:T + Hz]
print("alpha", torch.sigmoid(hw.lev_sms).detach(), "gamma", torch.sigmoid(hw.seas_sms).detach())
print("init seasonality", torch.exp(hw.init_seas).detach())
print("forecast", forecast)
