# Loading pretrained word vectors: Embedding.from_pretrained(freeze=True) then unfreezing for
# fine-tuning, padding_idx/unknown rows, optimizers skipping frozen params, and state_dict.
import torch
import torch.nn as nn

words = ["<pad>", "<unk>", "good", "bad", "great", "awful", "movie"]
vectors = torch.stack([torch.sin(torch.arange(4.0) + 1.7 * i) for i in range(len(words))])
vectors[0] = 0.0
print(vectors.round(decimals=3))

emb = nn.Embedding.from_pretrained(vectors, freeze=True, padding_idx=0)
print(emb, emb.weight.requires_grad, emb.padding_idx)
print(emb.weight is vectors, emb.weight.data_ptr() == vectors.data_ptr())


class Classifier(nn.Module):
    def __init__(self, emb):
        super().__init__()
        self.emb = emb
        self.fc = nn.Linear(4, 2)

    def forward(self, ids):
        mask = (ids != 0).float().unsqueeze(-1)
        h = (self.emb(ids) * mask).sum(1) / mask.sum(1)
        return self.fc(h)


model = Classifier(emb)
with torch.no_grad():
    model.fc.weight.copy_(torch.linspace(-0.5, 0.5, 8).view(2, 4))
    model.fc.bias.zero_()
x = torch.tensor([[2, 6, 0, 0], [3, 6, 1, 0], [4, 4, 6, 0], [5, 6, 0, 0]])
y = torch.tensor([1, 0, 1, 0])
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for step in range(10):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
print("frozen phase", f"{loss.item():.4f}", model.emb.weight.grad)
print(torch.equal(model.emb.weight, vectors))

# unfreeze and fine-tune with a smaller learning rate for the embeddings
model.emb.weight.requires_grad_(True)
opt = torch.optim.Adam([
    {"params": model.emb.parameters(), "lr": 0.01},
    {"params": model.fc.parameters()},
], lr=0.05)
for step in range(10):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
print("finetune", f"{loss.item():.4f}")
print(model.emb.weight.grad[0], model.emb.weight[0])
print(model.emb.weight.grad.abs().sum(1).round(decimals=4))
changed = (model.emb.weight.detach() != vectors).any(1)
print(changed.tolist())
print([g["lr"] for g in opt.param_groups])
print(list(model.state_dict().keys()))

# errors from bad pretrained input
try:
    nn.Embedding.from_pretrained(torch.zeros(3))
except AssertionError as e:
    print("AssertionError", e)
try:
    nn.Embedding(5, 2, padding_idx=5)
except AssertionError as e:
    print("AssertionError", e)
print(nn.Embedding(5, 2, padding_idx=-1).padding_idx)
try:
    emb(torch.tensor([7]))
except IndexError as e:
    print("IndexError", e)
try:
    emb(torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError", e)
