# Text classification data pipeline: a Dataset returning (string, token list, label),
# a collate_fn that tokenizes and pads with pad_sequence, and per-batch lengths.
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

sentences = ["the cat sat", "a dog", "the quick brown fox jumps", "hi", "over the lazy dog", "ok then"]
vocab = {"<pad>": 0, "<unk>": 1}
for s in sentences:
    for w in s.split():
        vocab.setdefault(w, len(vocab))


class TextDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        text = self.texts[i]
        ids = [vocab.get(w, 1) for w in text.split()]
        return text, torch.tensor(ids, dtype=torch.long), i % 2


def collate(batch):
    texts, seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=vocab["<pad>"])
    return list(texts), padded, lengths, torch.tensor(labels)


loader = DataLoader(TextDataset(sentences), batch_size=4, collate_fn=collate)
print("batches:", len(loader))
emb = torch.nn.Embedding(len(vocab), 3, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(len(vocab) * 3.).reshape(-1, 3) / 10)
    emb.weight[0].zero_()
for texts, padded, lengths, labels in loader:
    print(texts)
    print(padded)
    print(lengths, labels, padded.dtype)
    e = emb(padded)
    mean = e.sum(1) / lengths.unsqueeze(1)
    print(mean)
    packed = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
    print(packed.batch_sizes, packed.data.shape)

# time-major padding and the default collate failing on ragged tensors
seq_first = pad_sequence([torch.ones(2), torch.ones(4) * 2, torch.ones(1) * 3])
print(seq_first.shape)
print(seq_first)
print(pad_sequence([torch.ones(2, 3), torch.zeros(1, 3)], batch_first=True).shape)
try:
    next(iter(DataLoader(TextDataset(sentences), batch_size=3)))
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])


def collate_dict(batch):
    return {"ids": pad_sequence([b[1] for b in batch], batch_first=True, padding_value=-1),
            "text": [b[0] for b in batch]}


for b in DataLoader(TextDataset(sentences[:3]), batch_size=3, collate_fn=collate_dict):
    print(b["ids"], b["text"])
    print((b["ids"] != -1).sum(1))
