# Dataset returning dict samples with variable-length token sequences (a text DataModule):
# custom collate_fn padding with pad_sequence + attention masks, default_collate on namedtuples,
# dataclass-free nested dicts/lists/strings/numpy, batch_size=None, drop_last and IterableDataset.
import collections

import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, IterableDataset, default_collate
from torch.utils.data.dataloader import default_convert

Sample = collections.namedtuple("Sample", ["ids", "label"])


class TokenDataset(Dataset):
    def __init__(self, n=7):
        self.items = [{"input_ids": torch.arange(1, 2 + i % 4), "label": i % 2, "text": f"doc{i}",
                       "meta": {"len": 1 + i % 4, "score": float(i) / 2}} for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(batch):
    ids = [b["input_ids"] for b in batch]
    padded = pad_sequence(ids, batch_first=True, padding_value=0)
    mask = (torch.arange(padded.size(1))[None, :] < torch.tensor([len(t) for t in ids])[:, None]).long()
    return {"input_ids": padded, "attention_mask": mask,
            "labels": torch.tensor([b["label"] for b in batch]),
            "texts": [b["text"] for b in batch]}


ds = TokenDataset()
loader = DataLoader(ds, batch_size=3, collate_fn=pad_collate, drop_last=True)
print("len:", len(loader))
for batch in loader:
    print(batch["input_ids"].tolist(), batch["attention_mask"].sum(1).tolist(), batch["labels"], batch["texts"])

fixed = [{"x": torch.tensor([i, i + 1.0]), "y": i, "name": f"s{i}", "meta": {"w": i * 0.5, "tags": [i, -i]},
          "arr": np.array([i, 2 * i], dtype=np.int32)} for i in range(3)]
b = default_collate(fixed)
print("keys:", sorted(b))
print("x:", b["x"], "y:", b["y"], "name:", b["name"])
print("meta w:", b["meta"]["w"], "tags:", b["meta"]["tags"])
print("arr:", b["arr"], b["arr"].dtype)
nt = default_collate([Sample(torch.tensor([1, 2]), 0), Sample(torch.tensor([3, 4]), 1)])
print("namedtuple:", type(nt).__name__, nt.ids, nt.label)
print("tuples:", default_collate([(1, 2.5, True), (3, 4.5, False)]))
print("convert:", default_convert({"a": np.arange(3), "b": [np.float64(1.5)], "c": "s"}))
print("numpy scalar:", default_collate([np.float32(1.5), np.float32(2.0)]))
try:
    default_collate([{"a": 1}, {"b": 2}])
except Exception as e:
    print(type(e).__name__, e)
try:
    default_collate([torch.zeros(2), torch.zeros(3)])
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    default_collate([object()])
except TypeError as e:
    print(type(e).__name__, str(e).split(";")[0][:80])

unbatched = DataLoader(ds, batch_size=None)
first = next(iter(unbatched))
print("batch_size=None:", len(unbatched), first["input_ids"], first["label"], type(first["label"]).__name__)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([float(i), float(i) ** 2])


for dl in (True, False):
    out = [tuple(x.shape) for x in DataLoader(Stream(10), batch_size=4, drop_last=dl)]
    print("stream drop_last", dl, out)
try:
    len(DataLoader(Stream(10), batch_size=4))
except TypeError as e:
    print(type(e).__name__, e)
try:
    DataLoader(Stream(3), shuffle=True)
except ValueError as e:
    print(type(e).__name__, e)
