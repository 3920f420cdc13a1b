# Logistic regression: nn.Linear + torch.sigmoid + BCELoss, accuracy with (y_pred > 0.5).float().
import torch
import torch.nn as nn

x = torch.stack([torch.linspace(-2, 2, 50), torch.cos(torch.linspace(0, 6, 50))], dim=1)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).float().unsqueeze(1)
print(x.shape, y.shape, y.sum().item())


class LogisticRegression(nn.Module):
    def __init__(self, n_inputs):
        super().__init__()
        self.linear = nn.Linear(n_inputs, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


model = LogisticRegression(2)
with torch.no_grad():
    model.linear.weight.copy_(torch.tensor([[0.1, -0.2]]))
    model.linear.bias.zero_()
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(100):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 25 == 0:
        print(f"epoch: {epoch + 1}, loss = {loss.item():.4f}")

with torch.no_grad():
    y_predicted = model(x)
    y_predicted_cls = y_predicted.round()
    acc = y_predicted_cls.eq(y).sum() / float(y.shape[0])
    print(f"accuracy: {acc.item():.4f}", acc.dtype)
    print(((y_predicted > 0.5).float() == y).float().mean())

logits_model = nn.Linear(2, 1)
with torch.no_grad():
    logits_model.weight.copy_(model.linear.weight)
    logits_model.bias.copy_(model.linear.bias)
print(nn.BCEWithLogitsLoss()(logits_model(x), y), criterion(model(x), y))
