# Keras-to-PyTorch port of a CNN-LSTM forecaster (Machine Learning Mastery style): a
# TimeDistributed wrapper that folds time into the batch with contiguous().view(-1, ...), runs a
# Conv1d + MaxPool1d + Flatten feature extractor on each sub-sequence, and unfolds back for an LSTM;
# also the other common TimeDistributed variant applied to a Linear on 3-D outputs.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)


class TimeDistributed(nn.Module):
    def __init__(self, module, batch_first=True):
        super().__init__()
        self.module = module
        self.batch_first = batch_first

    def forward(self, x):
        if len(x.size()) <= 2:
            return self.module(x)
        x_reshape = x.contiguous().view(-1, *x.size()[2:])
        y = self.module(x_reshape)
        if self.batch_first:
            y = y.contiguous().view(x.size(0), -1, *y.size()[1:])
        else:
            y = y.view(-1, x.size(1), *y.size()[1:])
        return y


class CNNLSTM(nn.Module):
    def __init__(self, n_features=1, hidden=10, horizon=2):
        super().__init__()
        self.cnn = TimeDistributed(nn.Sequential(
            nn.Conv1d(n_features, 4, kernel_size=2), nn.ReLU(), nn.MaxPool1d(2), nn.Flatten()))
        self.lstm = nn.LSTM(4, hidden, batch_first=True)
        self.head = TimeDistributed(nn.Linear(hidden, horizon))

    def forward(self, x):                        # x: [B, n_seq, n_features, n_steps]
        feats = self.cnn(x)                      # [B, n_seq, 4]
        out, (h, c) = self.lstm(feats)
        return self.head(out)[:, -1], feats


series = torch.arange(10, 250, 10, dtype=torch.float32) + torch.sin(torch.arange(24.0))
w = series.unfold(0, 10, 1)
X = w[:, :8].reshape(-1, 2, 1, 4)
Y = w[:, 8:]
print("X", tuple(X.shape), "Y", tuple(Y.shape))
print(X[0])
mu, sd = X.mean(), X.std()
Xn, Yn = (X - mu) / sd, (Y - mu) / sd

model = CNNLSTM()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).reshape(p.shape) * 0.35)
print(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(40):
    opt.zero_grad()
    pred, feats = model(Xn)
    loss = nn.functional.mse_loss(pred, Yn)
    loss.backward()
    opt.step()
    if epoch % 10 == 0 or epoch == 39:
        print(f"epoch {epoch:2d} loss {loss.item():.5f}")
print("feats", tuple(feats.shape), feats.grad_fn.name())

model.eval()
x_new = torch.arange(170.0, 250.0, 10.0).view(1, 2, 1, 4)
with torch.no_grad():
    yhat, _ = model((x_new - mu) / sd)
print("forecast", (yhat * sd + mu).round(decimals=2))
td = TimeDistributed(nn.Linear(3, 2), batch_first=False)
with torch.no_grad():
    td.module.weight.copy_(torch.arange(6.0).view(2, 3) / 10)
    td.module.bias.fill_(0.5)
z = torch.arange(24.0).view(4, 2, 3)
print(td(z).shape, td(z)[1])
