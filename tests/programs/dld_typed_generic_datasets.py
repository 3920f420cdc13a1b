# Type-annotated data code as in modern repos: Dataset[Dict[str, Tensor]], Sampler[List[int]],
# IterableDataset[Tensor] subclasses and DataLoader[...] return annotations.
from typing import Dict, Iterator, List, Tuple

import torch
from torch import Tensor
from torch.utils.data import DataLoader, Dataset, IterableDataset, Sampler, Subset


class PairDataset(Dataset[Dict[str, Tensor]]):
    def __init__(self, n: int) -> None:
        self.x = torch.arange(n * 2, dtype=torch.float32).reshape(n, 2)
        self.y = torch.arange(n) % 2

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, idx: int) -> Dict[str, Tensor]:
        return {"x": self.x[idx], "y": self.y[idx]}


class EvenFirstSampler(Sampler[List[int]]):
    def __init__(self, n: int, batch_size: int) -> None:
        self.order = [i for i in range(n) if i % 2 == 0] + [i for i in range(n) if i % 2]
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[List[int]]:
        for s in range(0, len(self.order), self.batch_size):
            yield self.order[s:s + self.batch_size]

    def __len__(self) -> int:
        return -(-len(self.order) // self.batch_size)


class Counting(IterableDataset[Tensor]):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self) -> Iterator[Tensor]:
        for i in range(self.n):
            yield torch.tensor([i, i * i])


def make_loader(ds: Dataset[Dict[str, Tensor]], bs: int) -> DataLoader[Dict[str, Tensor]]:
    return DataLoader(ds, batch_sampler=EvenFirstSampler(len(ds), bs))


ds = PairDataset(7)
loader = make_loader(ds, 3)
print(len(loader))
for batch in loader:
    print(batch["x"].tolist(), batch["y"].tolist())
print([b.tolist() for b in DataLoader(Counting(5), batch_size=2)])
sub: Subset[Dict[str, Tensor]] = Subset(ds, [6, 0])
print(sub[0])
print(isinstance(Counting(1), IterableDataset), isinstance(ds, IterableDataset))
print(PairDataset.__mro__[1].__name__, Counting.__mro__[1].__name__)
alias = Dataset[Tuple[Tensor, int]]
print(alias.__origin__.__name__, [getattr(a, "__name__", str(a)) for a in alias.__args__])
