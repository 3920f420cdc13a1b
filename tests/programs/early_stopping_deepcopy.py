# Early stopping: keep the best weights with copy.deepcopy(model.state_dict()), restore them at the end.
import copy

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 2.1 + i).view(p.shape) * 0.5)
x_train = torch.linspace(-1, 1, 30).view(10, 3)
y_train = x_train.sum(1, keepdim=True).sin()
x_val = torch.linspace(-0.9, 0.95, 15).view(5, 3)
y_val = x_val.sum(1, keepdim=True).sin()
optimizer = torch.optim.SGD(model.parameters(), lr=0.3)
criterion = nn.MSELoss()

best_loss, best_state, best_epoch, patience, bad_epochs = float("inf"), None, -1, 3, 0
for epoch in range(40):
    model.train()
    optimizer.zero_grad()
    criterion(model(x_train), y_train).backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = criterion(model(x_val), y_val).item()
    if val_loss < best_loss - 1e-4:
        best_loss, best_epoch, bad_epochs = val_loss, epoch, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print("early stop at", epoch)
            break
print(best_epoch, f"{best_loss:.5f}")
model.load_state_dict(best_state)
with torch.no_grad():
    print(f"{criterion(model(x_val), y_val).item():.5f}")
clone = copy.deepcopy(model)
print(clone[0].weight is model[0].weight, torch.equal(clone[0].weight, model[0].weight), clone[0].weight.requires_grad)
