# Compiled functions fed Python containers and returning them: a list of tensors, a list of ints
# used as a shape, *args/**kwargs, a namedtuple and a dataclass output, torch.return_types from
# max/sort inside, and ints/floats/bools/strings computed from shapes.
import collections
import dataclasses
import torch

Stats = collections.namedtuple("Stats", ["mean", "spread", "n"])


@dataclasses.dataclass
class Output:
    logits: torch.Tensor
    hidden: list
    tag: str


@torch.compile
def pad_and_stack(seqs, length: int):
    padded = [torch.cat([s, s.new_zeros(length - s.shape[0])]) for s in seqs]
    return torch.stack(padded), [s.shape[0] for s in seqs]


seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0]), torch.tensor([4.0, 5.0, 6.0])]
batch, lengths = pad_and_stack(seqs, 4)
print(batch, lengths, type(lengths).__name__)
batch, lengths = pad_and_stack(seqs[:2], 2)
print(batch, lengths)


@torch.compile
def reshape_to(x, shape):
    return x.reshape(shape).sum(-1)


x = torch.arange(24.0)
for shape in ([2, 12], [4, 3, 2], (6, -1), [24]):
    print(shape, reshape_to(x, shape).shape)


@torch.compile
def summarize(*tensors, dim=0, **opts):
    t = torch.cat(tensors, dim=dim)
    spread = t.max(dim=dim) if opts.get("use_max") else t.std(dim=dim)
    if opts.get("use_max"):
        spread = spread.values - t.min(dim=dim).values
    return Stats(t.mean(dim=dim), spread, t.shape[dim])


a = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
b = torch.tensor([[0.0, -1.0]])
s = summarize(a, b)
print(s, type(s).__name__, s.n, isinstance(s.n, int))
print(summarize(a, b, use_max=True))
print(summarize(a, a, dim=1, use_max=True).spread)


@torch.compile
def forward(x, n_layers: int, name: str = "mlp"):
    hidden = []
    for i in range(n_layers):
        x = torch.tanh(x * (i + 1))
        hidden.append(x)
    sorted_out = x.sort(dim=-1, descending=True)
    return Output(sorted_out.values, hidden, f"{name}-{n_layers}-{x.dim()}"), sorted_out


out, srt = forward(torch.tensor([[0.1, -0.4, 0.3]]), 2)
print(out.tag, len(out.hidden), out.logits)
print(type(srt).__name__, srt.indices, srt)
out, srt = forward(torch.tensor([0.5, 0.2]), 3, name="rnn")
print(out.tag, out.hidden[-1], srt.indices.dtype)
m = torch.compile(lambda t: torch.max(t, dim=1))(a)
print(m, m.values, m[1])
