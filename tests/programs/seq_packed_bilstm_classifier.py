# Sentence classification with a packed bidirectional LSTM, the StackOverflow-standard recipe:
# pad_sequence the token ids, Embedding(padding_idx=0), pack_padded_sequence(enforce_sorted=False),
# a learned initial state h0/c0 expanded over the batch, concatenate the last forward and the
# first backward hidden state (h_n[-2], h_n[-1]), a linear head, and a few Adam steps. Checks
# that h_n lines up with the padded output at each sequence's real last step.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence


class BiLSTMClassifier(nn.Module):
    def __init__(self, vocab=10, emb=4, hidden=3, classes=2, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=layers, bidirectional=True, batch_first=True)
        self.h0 = nn.Parameter(torch.zeros(2 * layers, 1, hidden))
        self.c0 = nn.Parameter(torch.zeros(2 * layers, 1, hidden))
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.embed(ids), lengths, batch_first=True, enforce_sorted=False)
        b = ids.size(0)
        out, (h, c) = self.lstm(packed, (self.h0.expand(-1, b, -1).contiguous(), self.c0.expand(-1, b, -1).contiguous()))
        feats = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(feats), out, h


model = BiLSTMClassifier()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).roll(i) * (1 + 0.1 * i))
    model.embed.weight[0].zero_()
print([name for name, _ in model.named_parameters()])

sentences = [[4, 2, 7], [1, 5, 3, 9, 2], [8, 6], [3, 3, 3, 1]]
labels = torch.tensor([0, 1, 0, 1])
ids = pad_sequence([torch.tensor(s) for s in sentences], batch_first=True)
lengths = torch.tensor([len(s) for s in sentences])
print(ids, lengths)

logits, out, h = model(ids, lengths)
print(logits)
print(type(out).__name__, out.data.shape, out.batch_sizes, out.sorted_indices, out.unsorted_indices)
padded, lens = pad_packed_sequence(out, batch_first=True)
print(padded.shape, lens)
fwd_last = padded[torch.arange(4), lens - 1, :3]
bwd_first = padded[:, 0, 3:]
print(torch.allclose(fwd_last, h[-2]), torch.allclose(bwd_first, h[-1]))
print(padded[2, 2:].abs().sum().item(), h.grad_fn.name())

opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(6):
    opt.zero_grad()
    logits, _, _ = model(ids, lengths)
    loss = loss_fn(logits, labels)
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.2f}")
print(model.h0.grad.shape, model.h0.grad[:, 0])
print(model.embed.weight.grad[0], model.embed.weight.grad[3])
print(model.lstm.weight_hh_l1_reverse.grad.norm())

with torch.no_grad():
    model.eval()
    probs = model(ids[:2], lengths[:2])[0].softmax(-1)
    print(probs, probs.sum(1))
try:
    model.lstm(pack_padded_sequence(torch.ones(2, 3, 4), [3, 2], batch_first=True), (torch.zeros(2, 2, 3), torch.zeros(4, 2, 3)))
except Exception as e:
    print(type(e).__name__, e)
