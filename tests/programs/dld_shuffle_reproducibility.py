# Checking shuffling reproducibility as users do when debugging data order: global seed, explicit
# generators, epochs differing, random_split with a seeded generator (only booleans printed).
import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, WeightedRandomSampler, random_split
ds = TensorDataset(torch.arange(50))
def order(loader):
    return torch.cat([b[0] for b in loader]).tolist()
torch.manual_seed(0); a = order(DataLoader(ds, batch_size=8, shuffle=True))
torch.manual_seed(0); b = order(DataLoader(ds, batch_size=8, shuffle=True))
print("global seed reproducible", a == b)
l = DataLoader(ds, batch_size=8, shuffle=True)
print("epochs differ", order(l) != order(l))
g1 = torch.Generator().manual_seed(3); g2 = torch.Generator().manual_seed(3)
print("gen reproducible", order(DataLoader(ds, batch_size=8, shuffle=True, generator=g1)) == order(DataLoader(ds, batch_size=8, shuffle=True, generator=g2)))
g = torch.Generator().manual_seed(3)
l = DataLoader(ds, batch_size=8, shuffle=True, generator=g)
e1 = order(l); e2 = order(l)
print("gen epochs differ", e1 != e2)
g = torch.Generator().manual_seed(3)
s1 = torch.randperm(5, generator=g)  # consume
torch.manual_seed(1)
x = order(DataLoader(ds, batch_size=8, shuffle=True)); y = torch.rand(1)
torch.manual_seed(1)
x2 = order(DataLoader(ds, batch_size=8, shuffle=True)); y2 = torch.rand(1)
print("global stream consistent", x == x2, torch.equal(y, y2))
torch.manual_seed(5)
p1 = [len(s) for s in random_split(ds, [0.3, 0.7])]
s = random_split(ds, [0.3, 0.7], generator=torch.Generator().manual_seed(42))
t = random_split(ds, [0.3, 0.7], generator=torch.Generator().manual_seed(42))
print("split reproducible", s[0].indices == t[0].indices, p1)
rs = RandomSampler(ds, generator=torch.Generator().manual_seed(0))
print("sampler epochs differ", list(rs) != list(rs))
ws = WeightedRandomSampler(torch.ones(10), 10, generator=torch.Generator().manual_seed(0))
print(len(list(ws)))
print(type(rs.generator).__name__)
print(torch.initial_seed() == 5)
