# nn.Module bookkeeping: children, named_modules, ModuleList/ModuleDict, apply(init), buffers, train/eval.
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.heads = nn.ModuleDict({"cls": nn.Linear(sizes[-1], 2), "reg": nn.Linear(sizes[-1], 1)})
        self.dropout = nn.Dropout(0.5)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        self.steps += 1
        return self.heads["cls"](self.dropout(x)) * self.scale


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


model = MLP([4, 8, 6])
print(model)
model.apply(init_weights)
print([name for name, _ in model.named_children()])
print([name for name, _ in model.named_modules()])
print([name for name, _ in model.named_parameters()])
print([(name, b) for name, b in model.named_buffers()])
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print(model.layers[0].bias, len(model.layers), "cls" in model.heads, list(model.heads.keys()))
print(model.training, model.dropout.training)
model.eval()
print(model.training, model.dropout.training)
with torch.no_grad():
    out = model(torch.ones(3, 4))
print(out.shape, model.steps, list(model.state_dict().keys()))
model.train()
model.requires_grad_(False)
print(any(p.requires_grad for p in model.parameters()))
model.layers[1].requires_grad_(True)
print([n for n, p in model.named_parameters() if p.requires_grad])
print(isinstance(model.layers, nn.Module), type(model.heads["reg"]).__name__)
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq.append(nn.Linear(2, 1))
print(seq, len(seq), seq[-1], seq[:2])
print(nn.Sequential(*[nn.Identity() for _ in range(2)])(torch.ones(1)))
