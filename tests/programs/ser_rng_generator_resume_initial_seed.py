# Resuming data order and augmentation randomness: saving torch.Generator states (DataLoader
# shuffling generator, global RNG), fork_rng, and a GradScaler / optimizer with state hooks
# stored in the checkpoint.
import io

import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.arange(10).float().unsqueeze(1), torch.arange(10))
g = torch.Generator().manual_seed(1234)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=g)

epoch0 = [b[1].tolist() for b in loader]
state = g.get_state()
print(type(state).__name__, state.dtype, state.shape == torch.get_rng_state().shape)
epoch1 = [b[1].tolist() for b in loader]
g.set_state(state)
epoch1_again = [b[1].tolist() for b in loader]
print("epoch 1 replayed:", epoch1 == epoch1_again, sorted(sum(epoch0, [])) == list(range(10)))

buf = io.BytesIO()
torch.save({"gen": state, "global": torch.get_rng_state()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
g2 = torch.Generator()
g2.set_state(ck["gen"])
loader2 = DataLoader(ds, batch_size=4, shuffle=True, generator=g2)
print("resumed loader matches:", [b[1].tolist() for b in loader2] == epoch1)

torch.manual_seed(7)
a = torch.rand(3)
with torch.random.fork_rng():
    torch.rand(100)
b_forked = torch.rand(3)
torch.manual_seed(7)
torch.rand(3)
b_plain = torch.rand(3)
print("fork_rng leaves global stream alone:", torch.equal(b_forked, b_plain))
torch.set_rng_state(ck["global"])
print(g.initial_seed(), g2.initial_seed(), torch.Generator().initial_seed())
try:
    g2.set_state(torch.zeros(3))
except Exception as e:
    print(type(e).__name__)

scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=3)
print(scaler.state_dict())
scaler.load_state_dict({"scale": 256.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                        "growth_interval": 5, "_growth_tracker": 2})
print(scaler.get_scale(), scaler.get_growth_interval(), scaler.state_dict()["_growth_tracker"])

w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.5)
log = []
opt.register_state_dict_pre_hook(lambda o: log.append("sd-pre"))


def add_extra(o, sd):
    sd["extra"] = {"note": "hello"}
    return sd


opt.register_state_dict_post_hook(add_extra)


def strip_extra(o, sd):
    log.append("load-pre " + str("extra" in sd))
    sd = dict(sd)
    sd.pop("extra", None)
    return sd


opt.register_load_state_dict_pre_hook(strip_extra)
opt.register_load_state_dict_post_hook(lambda o: log.append("load-post"))
(w ** 2).sum().backward()
opt.step()
sd = opt.state_dict()
print(sorted(sd), sd["extra"])
opt.load_state_dict(sd)
print(log, opt.state[w]["momentum_buffer"])
