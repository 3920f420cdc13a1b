# LSTNet (Lai et al.) as in the widely copied PyTorch port: Conv2d over (time, variables) windows,
# GRU on conv features, a skip-GRU over period-strided slices built with view/permute/contiguous,
# and a highway autoregressive linear component on the last hw steps, with sigmoid output.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTNet(nn.Module):
    def __init__(self, window, m, hid_c=6, hid_r=8, hid_s=4, ck=3, skip=4, hw=4):
        super().__init__()
        self.P, self.m, self.hidR, self.hidC, self.hidS = window, m, hid_r, hid_c, hid_s
        self.Ck, self.skip, self.hw = ck, skip, hw
        self.pt = (self.P - self.Ck) // self.skip
        self.conv1 = nn.Conv2d(1, self.hidC, kernel_size=(self.Ck, self.m))
        self.GRU1 = nn.GRU(self.hidC, self.hidR)
        self.GRUskip = nn.GRU(self.hidC, self.hidS)
        self.linear1 = nn.Linear(self.hidR + self.skip * self.hidS, self.m)
        self.highway = nn.Linear(self.hw, 1)

    def forward(self, x):
        batch_size = x.size(0)
        c = x.view(-1, 1, self.P, self.m)
        c = F.relu(self.conv1(c))
        c = torch.squeeze(c, 3)                       # [B, hidC, P-Ck+1]
        r = c.permute(2, 0, 1).contiguous()           # [T, B, hidC]
        _, r = self.GRU1(r)
        r = torch.squeeze(r, 0)
        s = c[:, :, int(-self.pt * self.skip):].contiguous()
        s = s.view(batch_size, self.hidC, self.pt, self.skip)
        s = s.permute(2, 0, 3, 1).contiguous()
        s = s.view(self.pt, batch_size * self.skip, self.hidC)
        _, s = self.GRUskip(s)
        s = s.view(batch_size, self.skip * self.hidS)
        r = torch.cat((r, s), 1)
        res = self.linear1(r)
        z = x[:, -self.hw:, :]
        z = z.permute(0, 2, 1).contiguous().view(-1, self.hw)
        z = self.highway(z)
        z = z.view(-1, self.m)
        return torch.sigmoid(res + z)


torch.set_printoptions(precision=4)
T, m, window = 120, 3, 16
t = torch.arange(T, dtype=torch.float32)
data = torch.stack([torch.sin(t / 4), torch.cos(t / 7), torch.sin(t / 4 + 1) * torch.cos(t / 11)], 1)
data = (data - data.min(0).values) / (data.max(0).values - data.min(0).values)
idx = torch.arange(window, T)
X = torch.stack([data[i - window:i] for i in idx.tolist()])
Y = data[idx]
print("X", tuple(X.shape), "Y", tuple(Y.shape), "pt", (window - 3) // 4)

model = LSTNet(window, m)
with torch.no_grad():
    for i, (n, p) in enumerate(sorted(model.named_parameters())):
        p.copy_(torch.sin(torch.arange(p.numel()).float() * 1.3 + i).view_as(p) * 0.25)
print([n for n, _ in model.named_parameters()])

opt = torch.optim.Adam(model.parameters(), lr=5e-3)
crit = nn.L1Loss(reduction="sum")
for epoch in range(25):
    total = 0.0
    for b in range(0, len(X), 32):
        xb, yb = X[b:b + 32], Y[b:b + 32]
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
        total += loss.item()
    if epoch % 5 == 0 or epoch == 24:
        print(f"epoch {epoch:2d} train_l1 {total / (len(X) * m):.4f}")

model.eval()
with torch.no_grad():
    out = model(X[-3:])
rse = torch.sqrt(((out - Y[-3:]) ** 2).sum()) / torch.sqrt(((Y[-3:] - Y[-3:].mean()) ** 2).sum())
print(out)
print(f"rse {rse.item():.4f}")
print("grad of highway", model.highway.weight.grad)
