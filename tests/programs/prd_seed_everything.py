# seed_everything() helper from training repos: manual_seed, deterministic algorithms, cudnn flags, rng state round trip.
import random
import torch

def seed_everything(seed=42):
    random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True)

seed_everything(0)
print(torch.are_deterministic_algorithms_enabled(), torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
print(torch.are_deterministic_algorithms_enabled())

state = torch.get_rng_state()
print(state.dtype, state.dim())
a = torch.randn(5)
torch.set_rng_state(state)
b = torch.randn(5)
print("same after restore:", torch.equal(a, b))
print(torch.initial_seed())
s = torch.seed()
print(isinstance(s, int), torch.initial_seed() == s)
torch.manual_seed(7)
print(torch.initial_seed())

g = torch.Generator()
g.manual_seed(1234)
print(g.initial_seed(), g.device)
gs = g.get_state()
x1 = torch.rand(3, generator=g)
g.set_state(gs)
print(torch.equal(x1, torch.rand(3, generator=g)))
g2 = torch.Generator().manual_seed(1234)
print(torch.equal(torch.randperm(8, generator=g2), torch.randperm(8, generator=torch.Generator().manual_seed(1234))))

with torch.random.fork_rng():
    torch.manual_seed(99)
    _ = torch.rand(10)
after = torch.rand(2)
torch.manual_seed(7)
print("fork_rng preserved:", torch.equal(after, torch.rand(2)))
print(torch.cuda.is_available(), torch.cuda.device_count())
torch.cuda.manual_seed(3)
print("ok")
try:
    torch.set_rng_state(torch.zeros(3))
except Exception as e:
    print(type(e).__name__)
