# Length-bucketing BatchSampler for variable-length sequences (seq2seq trainers): sort indices by
# length in chunks, cut batches with a token budget, shuffle batch order with a seeded Generator,
# set_epoch for a new order each epoch; DataLoader(batch_sampler=...) with a padding collate_fn.
import torch
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence
from torch.utils.data import DataLoader, Dataset, Sampler


class Sequences(Dataset):
    def __init__(self):
        lengths = [3, 7, 2, 5, 9, 4, 6, 1, 8, 3, 5, 2]
        self.data = [torch.arange(1, n + 1) * (i + 1) for i, n in enumerate(lengths)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, max_tokens, bucket_size=6, shuffle=True, seed=0):
        self.lengths = torch.as_tensor(lengths)
        self.max_tokens, self.bucket_size = max_tokens, bucket_size
        self.shuffle, self.seed, self.epoch = shuffle, seed, 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def _batches(self):
        batches = []
        for start in range(0, len(self.lengths), self.bucket_size):
            chunk = torch.arange(start, min(start + self.bucket_size, len(self.lengths)))
            order = chunk[torch.argsort(self.lengths[chunk], descending=True, stable=True)]
            batch, longest = [], 0
            for idx in order.tolist():
                longest_if_added = max(longest, int(self.lengths[idx]))
                if batch and longest_if_added * (len(batch) + 1) > self.max_tokens:
                    batches.append(batch)
                    batch, longest_if_added = [], int(self.lengths[idx])
                batch.append(idx)
                longest = longest_if_added
            if batch:
                batches.append(batch)
        return batches

    def __iter__(self):
        batches = self._batches()
        if self.shuffle:
            g = torch.Generator()
            g.manual_seed(self.seed + self.epoch)
            batches = [batches[i] for i in torch.randperm(len(batches), generator=g).tolist()]
        return iter(batches)

    def __len__(self):
        return len(self._batches())


def collate(batch):
    lengths = torch.tensor([len(s) for s in batch])
    return pad_sequence(batch, batch_first=True), lengths


ds = Sequences()
lengths = [len(s) for s in ds.data]
sampler = BucketBatchSampler(lengths, max_tokens=16, bucket_size=6)
print("batches (unshuffled):", sampler._batches())
print("len:", len(sampler))
loader = DataLoader(ds, batch_sampler=sampler, collate_fn=collate)
print("loader len:", len(loader), "batch_size attr:", loader.batch_size)
orders = []
for epoch in range(3):
    sampler.set_epoch(epoch)
    seen, shapes, tokens = [], [], []
    for padded, lens in loader:
        shapes.append(tuple(padded.shape))
        tokens.append(int(lens.sum()))
        seen.append(sorted(lens.tolist(), reverse=True))
        packed = pack_padded_sequence(padded.unsqueeze(-1).float(), lens, batch_first=True, enforce_sorted=True)
        assert packed.data.shape[0] == int(lens.sum())
    orders.append(sorted(map(tuple, seen)))
    print(f"epoch {epoch}: padded sizes ok: {all(r * c <= 16 for r, c in shapes)} "
          f"real tokens: {sum(tokens)} padding ratio: {1 - sum(tokens) / sum(r * c for r, c in shapes):.3f}")
print("same batches every epoch:", all(o == orders[0] for o in orders))
sampler.set_epoch(1)
a = list(sampler)
sampler.set_epoch(1)
print("set_epoch reproducible:", a == list(sampler))
print("first padded batch example:")
padded, lens = collate([ds[1], ds[7], ds[2]])
print(padded, lens)
packed = pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
print("batch_sizes:", packed.batch_sizes, "sorted_indices:", packed.sorted_indices)
