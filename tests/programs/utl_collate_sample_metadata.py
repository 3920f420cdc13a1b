# Datasets that return metadata next to tensors, as image-folder / text-classification loaders do:
# (tensor, label, filename) tuples, namedtuple samples and dict samples through default_collate, a
# collate_fn that sorts by length for packing, and logging which files were in each batch.
from collections import namedtuple

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset
from torch.utils.data._utils.collate import collate, default_collate_fn_map


class FolderLike(Dataset):
    classes = ["cat", "dog", "owl"]

    def __init__(self, n):
        self.files = [f"img_{i:03d}.png" for i in range(n)]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = torch.sin(torch.arange(6.0).view(2, 3) * (i + 1) * 0.1)
        return img, i % 3, self.files[i]


ds = FolderLike(7)
loader = DataLoader(ds, batch_size=3)
for imgs, labels, names in loader:
    print(imgs.shape, labels, type(names).__name__, names)
    print([ds.classes[l] for l in labels.tolist()], f"{imgs.mean().item():.4f}")

Sample = namedtuple("Sample", ["tokens", "length", "text"])


class Sentences(Dataset):
    texts = ["a b c", "d e", "f g h i", "j"]

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        words = self.texts[i].split()
        toks = torch.tensor([ord(w) - 96 for w in words])
        return Sample(toks, len(words), self.texts[i])


def sort_collate(batch):
    batch = sorted(batch, key=lambda s: s.length, reverse=True)
    tokens = pad_sequence([s.tokens for s in batch], batch_first=True)
    lengths = torch.tensor([s.length for s in batch])
    return tokens, lengths, [s.text for s in batch]


for tokens, lengths, texts in DataLoader(Sentences(), batch_size=4, collate_fn=sort_collate):
    print(tokens)
    packed = pack_padded_sequence(tokens.unsqueeze(-1).float(), lengths, batch_first=True)
    print(packed.batch_sizes, texts)

try:
    next(iter(DataLoader(Sentences(), batch_size=2)))
except RuntimeError as e:
    print(type(e).__name__, e)


class Meta(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "id": f"u{i}", "tags": ("train", f"fold{i % 2}"),
                "pair": [i, i * 10]}


batch = next(iter(DataLoader(Meta(), batch_size=4)))
print(batch["x"], batch["id"])
print(batch["tags"])
print(batch["pair"])
print(type(batch["tags"]).__name__, type(batch["tags"][0]).__name__)

# a custom collate_fn_map entry receives the raw group of values
seen = []


def str_to_len(group, *, collate_fn_map=None):
    seen.append(type(group).__name__)
    return torch.tensor([len(s) for s in group])


custom_map = {**default_collate_fn_map, str: str_to_len}
out = collate([(torch.ones(1), "ab"), (torch.zeros(1), "cde")], collate_fn_map=custom_map)
print(out, seen)
single = next(iter(DataLoader([("only", 1)], batch_size=1)))
print(single)
