# seed_everything / reproducibility helpers from trainer code: seeding python/numpy/torch, returning
# the seed, torch.random.fork_rng isolating sampling, Generator get_state/set_state/clone for a
# resumable shuffling DataLoader, torch.initial_seed and determinism flags.
import os
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset


def seed_everything(seed=None, workers=False):
    if seed is None:
        seed = int(os.environ.get("PL_GLOBAL_SEED", 0))
    os.environ["PL_GLOBAL_SEED"] = str(seed)
    os.environ["PL_SEED_WORKERS"] = f"{int(workers)}"
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


def draw():
    return random.random(), float(np.random.rand()), torch.rand(2)


print("seed:", seed_everything(31), "initial_seed:", torch.initial_seed())
a = draw()
seed_everything(31)
b = draw()
print("same draws after reseed:", a[0] == b[0], a[1] == b[1], torch.equal(a[2], b[2]))

seed_everything(5)
state = torch.get_rng_state()
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(999)
    inner = torch.rand(3)
    print("inner initial_seed:", torch.initial_seed())
after = torch.rand(3)
torch.set_rng_state(state)
print("fork_rng restored stream:", torch.equal(after, torch.rand(3)))
print("initial_seed after fork:", torch.initial_seed())
with torch.random.fork_rng(enabled=False):
    torch.manual_seed(1)
print("disabled fork leaks seed:", torch.initial_seed())

g = torch.Generator()
print("fresh generator seed:", g.initial_seed(), g.device)
g.manual_seed(2024)
snap = g.get_state()
first = torch.randperm(8, generator=g)
g.set_state(snap)
print("generator replay:", torch.equal(first, torch.randperm(8, generator=g)))
print("state type:", snap.dtype, snap.shape == torch.get_rng_state().shape)
clone = torch.Generator().set_state(g.get_state())
print("set_state returns generator:", type(clone).__name__, torch.equal(torch.rand(2, generator=clone), torch.rand(2, generator=g)))

ds = TensorDataset(torch.arange(10))
gen = torch.Generator().manual_seed(7)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=gen)
print("sampler:", type(loader.sampler).__name__, "generator is ours:", loader.sampler.generator is gen)
epoch_state = gen.get_state()
epoch1 = [b[0].tolist() for b in loader]
gen.set_state(epoch_state)
epoch1_again = [b[0].tolist() for b in loader]
print("replayed epoch:", epoch1 == epoch1_again, "sizes:", [len(b) for b in epoch1])
print("is permutation:", sorted(sum(epoch1, [])) == list(range(10)))
epoch2 = [b[0].tolist() for b in loader]
print("next epoch differs:", epoch2 != epoch1)
rs = RandomSampler(range(5), replacement=True, num_samples=12, generator=torch.Generator().manual_seed(3))
drawn = list(rs)
print("with replacement:", len(drawn), all(0 <= i < 5 for i in drawn), len(rs))
try:
    RandomSampler(range(5), num_samples=0)
except ValueError as e:
    print(type(e).__name__, e)

torch.use_deterministic_algorithms(True, warn_only=True)
print("deterministic:", torch.are_deterministic_algorithms_enabled(),
      torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print("deterministic off:", torch.are_deterministic_algorithms_enabled())
print("env:", os.environ["PL_GLOBAL_SEED"], os.environ["PL_SEED_WORKERS"], seed_everything())
