# Kaggle-style sine-wave forecaster: sliding windows via Tensor.unfold, a 2-layer LSTM with
# dropout between layers (batch_first), a Linear head on the last step, Adam + MSE, then an
# autoregressive multi-step forecast in eval mode.
import torch
import torch.nn as nn

t = torch.linspace(0, 8 * 3.14159, 120)
series = torch.sin(t) + 0.3 * torch.cos(3 * t)
window, horizon = 12, 1
w = series.unfold(0, window + horizon, 1)
print("windows", w.shape, w.stride(), w.is_contiguous())
X = w[:, :window].unsqueeze(-1)
y = w[:, window:]
print(X.shape, y.shape)
split = int(0.8 * len(X))
X_train, y_train, X_test, y_test = X[:split], y[:split], X[split:], y[split:]
print(len(X_train), len(X_test))


class LSTMForecaster(nn.Module):
    def __init__(self, n_features=1, hidden=16, layers=2):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, num_layers=layers, batch_first=True, dropout=0.2)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1, :])


model = LSTMForecaster()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape))
print(model)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
model.train()
# dropout is random in train mode, so train with dropout off in a deterministic way
model.lstm.dropout = 0.0
for epoch in range(30):
    opt.zero_grad()
    pred = model(X_train)
    loss = loss_fn(pred, y_train)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch:3d} train mse {loss.item():.5f}")

model.lstm.dropout = 0.2
model.eval()
with torch.no_grad():
    test_pred = model(X_test)
    print("test mse", f"{loss_fn(test_pred, y_test).item():.5f}")
    print("eval twice equal:", torch.equal(model(X_test), test_pred))
    hist = X_test[0].clone()
    preds = []
    for _ in range(6):
        nxt = model(hist.unsqueeze(0))
        preds.append(nxt.item())
        hist = torch.cat([hist[1:], nxt.reshape(1, 1)], dim=0)
    print("rollout", [round(v, 3) for v in preds])
print(test_pred.shape, test_pred.requires_grad, pred.grad_fn.name())
