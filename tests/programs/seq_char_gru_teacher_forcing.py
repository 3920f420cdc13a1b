# Char-level GRU language model in the style of the "char-rnn from scratch" tutorials: a vocabulary
# from sorted(set(text)), Embedding -> nn.GRU(batch_first) -> Linear, teacher forcing over
# (input = text[:-1], target = text[1:]) windows, CrossEntropyLoss on flattened logits,
# clip_grad_norm_ on the recurrent weights, Adam, then greedy sampling one char at a time
# feeding the hidden state back in.
import torch
import torch.nn as nn

text = "hello world, hello there. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
print(len(chars), chars)
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print(data[:10], data.dtype)

seq_len = 6
windows = data.unfold(0, seq_len + 1, 3)
inputs, targets = windows[:, :-1], windows[:, 1:]
print(windows.shape, inputs[0], targets[0])


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=5, hidden=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        out, h = self.gru(self.embed(x), h)
        return self.head(out), h


model = CharGRU(len(chars))
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape).roll(i) * (1 + 0.05 * i))
print(model)

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(12):
    optimizer.zero_grad()
    logits, h = model(inputs)
    loss = criterion(logits.reshape(-1, len(chars)), targets.reshape(-1))
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.gru.parameters(), max_norm=0.5)
    optimizer.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f} gru grad norm {norm.item():.4f}")
print(logits.shape, h.shape, loss.grad_fn.name(), logits.grad_fn.name())
print(model.gru.weight_hh_l1.grad.norm(), model.embed.weight.grad[stoi["h"]])

# Greedy generation, one step at a time, feeding back the hidden state.
model.eval()
with torch.no_grad():
    x = torch.tensor([[stoi["h"]]])
    h = None
    generated = ["h"]
    for _ in range(15):
        logits, h = model(x, h)
        probs = torch.softmax(logits[0, -1], dim=-1)
        nxt = int(probs.argmax())
        generated.append(itos[nxt])
        x = torch.tensor([[nxt]])
    print(repr("".join(generated)), h.shape, probs.max().item() > 0)
    print(probs.topk(3))

# Accuracy with teacher forcing on the training windows.
with torch.no_grad():
    logits, _ = model(inputs)
    acc = (logits.argmax(-1) == targets).float().mean()
print(f"teacher-forced accuracy {acc:.3f}")
