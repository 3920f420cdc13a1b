# The "Text classification with the torchtext library" tutorial, scaled down: collate_batch
# builds a flat token tensor plus offsets; the model is EmbeddingBag(mode='mean') + Linear,
# trained with SGD, gradient clipping and a StepLR. The bag reduction is first done by hand
# (offsets -> segment ids -> index_add_) so the two can be compared.
import torch
import torch.nn as nn

texts = [[3, 5, 7], [2, 9], [4, 4, 8, 1], [6], [9, 3, 2]]
labels = torch.tensor([0, 1, 2, 1, 0])


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(_label)
        processed_text = torch.tensor(_text, dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


label, text, offsets = collate_batch(list(zip(labels.tolist(), texts)))
print(text, offsets, offsets.dtype)

# by hand: which bag each token belongs to, then a segment mean
lengths = torch.diff(torch.cat([offsets, torch.tensor([text.numel()])]))
seg = torch.repeat_interleave(torch.arange(len(offsets)), lengths)
print(lengths, seg)
table = torch.linspace(-1, 1, 10 * 4).view(10, 4)
summed = torch.zeros(len(offsets), 4).index_add_(0, seg, table[text])
print(summed / lengths.unsqueeze(1))


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            self.embedding.weight.copy_(torch.linspace(-1, 1, self.embedding.weight.numel()).view_as(self.embedding.weight))
            self.fc.weight.copy_(torch.cos(torch.arange(self.fc.weight.numel(), dtype=torch.float32)).view_as(self.fc.weight) * 0.5)
            self.fc.bias.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(10, 4, 3)
print(model)
emb = model.embedding(text, offsets)
print(emb, emb.grad_fn.name())
for mode in ("sum", "max"):
    bag = nn.EmbeddingBag.from_pretrained(table, mode=mode)
    print(bag, bag(text, offsets)[:2])
bag = nn.EmbeddingBag(10, 4, mode="sum", padding_idx=4)
with torch.no_grad():
    bag.weight.copy_(table)
print(bag.weight[4], bag(torch.tensor([[4, 5], [4, 4]])))
print(bag(text, offsets, per_sample_weights=torch.linspace(0.1, 1.3, text.numel())))

criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    predicted_label = model(text, offsets)
    loss = criterion(predicted_label, label)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    acc = (predicted_label.argmax(1) == label).sum().item() / label.size(0)
    print(f"epoch {epoch} loss {loss.item():.4f} norm {norm.item():.4f} acc {acc:.3f} lr {scheduler.get_last_lr()}")
    scheduler.step()
print(model.embedding.weight.grad[:3], model.embedding.weight[0])
try:
    model.embedding(text.view(1, -1), offsets)
except ValueError as e:
    print(type(e).__name__, e)
