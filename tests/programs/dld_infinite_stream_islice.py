# An infinite synthetic IterableDataset consumed with itertools.islice / a step budget, a
# partially consumed iterator restarted, and a collate_fn that builds (input, target) windows.
import itertools
import torch
from torch.utils.data import DataLoader, IterableDataset


class SineStream(IterableDataset):
    def __init__(self, window, step=0.5):
        self.window, self.step = window, step

    def __iter__(self):
        t = 0
        while True:
            xs = torch.sin(torch.arange(t, t + self.window + 1, dtype=torch.float32) * self.step)
            yield xs
            t += 1


def to_pairs(batch):
    seq = torch.stack(batch)
    return seq[:, :-1].unsqueeze(-1), seq[:, 1:]


loader = DataLoader(SineStream(window=4), batch_size=3, collate_fn=to_pairs)
for step, (inp, tgt) in enumerate(itertools.islice(loader, 3)):
    print(step, inp.shape, tgt.shape)
    print(torch.round(tgt * 1000) / 1000)

it = iter(loader)
first = next(it)[1]
second = next(it)[1]
again = next(iter(loader))[1]
print(torch.equal(first, again), torch.equal(first, second))
try:
    len(loader)
except TypeError as e:
    print("TypeError", e)

max_steps = 4
seen = 0
for batch in DataLoader(SineStream(window=2), batch_size=None):
    seen += 1
    print(seen, [round(v, 3) for v in batch.tolist()])
    if seen >= max_steps:
        break

model = torch.nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.5)
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for step, (inp, tgt) in enumerate(itertools.islice(loader, 20)):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(inp).squeeze(-1), tgt)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f}")
print(f"weight {model.weight.item():.3f} bias {model.bias.item():.3f}")
