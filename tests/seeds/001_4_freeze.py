import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))

for param in model[0].parameters():     # freeze the first layer
    param.requires_grad_(False)

trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(trainable)                         # only the last layer: 32*2 + 2 = 66
