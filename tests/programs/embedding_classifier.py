# An Embedding + mean pooling text classifier on integer token ids, with padding_idx.
import torch
import torch.nn as nn

vocab_size, embed_dim, num_class = 20, 8, 3
tokens = torch.tensor([[1, 4, 5, 0], [2, 3, 0, 0], [7, 8, 9, 10], [11, 0, 0, 0]])
lengths = (tokens != 0).sum(dim=1)
labels = torch.tensor([0, 1, 2, 1])
print(lengths, lengths.dtype)


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.fc = nn.Linear(embed_dim, num_class)

    def forward(self, tokens, lengths):
        embedded = self.embedding(tokens)
        summed = embedded.sum(dim=1)
        return self.fc(summed / lengths.unsqueeze(1).float())


model = TextClassifier()
print(model.embedding.weight[0], model.embedding)
with torch.no_grad():
    model.embedding.weight[1:] = torch.sin(torch.arange((vocab_size - 1) * embed_dim, dtype=torch.float32)).view(vocab_size - 1, embed_dim)
    model.fc.weight.copy_(torch.cos(torch.arange(num_class * embed_dim, dtype=torch.float32)).view(num_class, embed_dim))
    model.fc.bias.zero_()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
criterion = nn.CrossEntropyLoss()
for epoch in range(20):
    optimizer.zero_grad()
    logits = model(tokens, lengths)
    loss = criterion(logits, labels)
    loss.backward()
    optimizer.step()
print(f"{loss.item():.4f}", logits.argmax(dim=1))
print(model.embedding.weight.grad[0], model.embedding.weight.grad[12])
emb = model.embedding(torch.tensor([3]))
print(emb.shape, emb.grad_fn.name())
print(nn.functional.one_hot(torch.tensor([0, 2, 1]), num_classes=3))
