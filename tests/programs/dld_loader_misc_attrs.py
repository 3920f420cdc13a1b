# Less common DataLoader / sampler attributes users read, in_order, generator reuse, dict
# datasets, and collating nested lists of tensors.
import torch
from torch.utils.data import (DataLoader, RandomSampler, SequentialSampler, TensorDataset,
                              default_collate)

ds = TensorDataset(torch.arange(6.).reshape(3, 2), torch.tensor([0, 1, 0]))
dl = DataLoader(ds, batch_size=2, in_order=False)
print(dl.in_order, dl.generator, dl.multiprocessing_context, dl.prefetch_factor)
print(dl.sampler.data_source is ds, dl.batch_sampler.batch_size, dl.batch_sampler.drop_last)
print([b[1].tolist() for b in dl])

g = torch.Generator()
g.manual_seed(7)
rl = DataLoader(ds, batch_size=3, shuffle=True, generator=g)
print(rl.generator is g, type(rl.sampler).__name__, rl.sampler.generator is g, rl.sampler.replacement)
e1 = torch.cat([b[1] for b in rl]).sort().values
print(e1)
rs = RandomSampler(ds)
print(rs.num_samples, rs.replacement, rs.generator)

table = {0: "zero", 1: "one", 2: "two"}
print(list(DataLoader(table, batch_size=2)))
print(list(DataLoader(table, batch_size=None)))

nested = [[torch.tensor([1, 2]), torch.tensor([3])], [torch.tensor([4, 5]), torch.tensor([6])]]
out = default_collate(nested)
print(out)
print(default_collate([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]))
print(default_collate([{"a": [1.0, 2.0]}, {"a": [3.0, 4.0]}]))
print(default_collate([(torch.tensor(1.5), {"m": torch.ones(2, dtype=torch.float64)})] * 2))

t = torch.arange(12).reshape(3, 4)
cols = [t[:, i] for i in range(3)]
print(default_collate(cols), default_collate(cols).is_contiguous())
print(default_collate([t.T[0], t.T[1]]))
s = SequentialSampler(range(4))
print(list(s), len(s), s.data_source)
print(len(DataLoader(range(10), batch_size=3, drop_last=True)), len(DataLoader(range(10), batch_size=3)))
