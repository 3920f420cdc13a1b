# Inspecting a model in a notebook: print Parameters, ParameterList/ParameterDict, buffers,
# the state_dict OrderedDict, named_parameters, and tensors inside dicts/lists/tuples.
import torch
import torch.nn as nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
        self.bias = nn.Parameter(torch.zeros(3, dtype=torch.float64))
        self.frozen = nn.Parameter(torch.arange(4.).view(2, 2), requires_grad=False)
        self.register_buffer("count", torch.tensor(0))
        self.register_buffer("running", torch.ones(2, 2) * 0.5)
        self.plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1, 3))])
        self.pdict = nn.ParameterDict({"alpha": nn.Parameter(torch.tensor(0.25)),
                                       "beta": nn.Parameter(torch.arange(3, dtype=torch.float64))})

    def forward(self, x):
        return x * self.gain + self.bias


m = Scaler()
print(m)
print(m.gain)
print(m.bias)
print(m.frozen)
print(m.pdict["alpha"])
print(repr(m.plist[1]))
print(m.plist)
print(m.pdict)
print(nn.Parameter(torch.tensor(3)  .float()))
print(nn.Parameter(torch.empty(0)))
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(m.count, m.running)

sd = m.state_dict()
print(type(sd).__name__)
print(sd)
print(list(sd.keys()))
for k, v in sd.items():
    print(f"{k:14s} {str(tuple(v.shape)):8s} {v.dtype} {v.requires_grad}")
print({k: v.shape for k, v in sd.items()})

for name, p in m.named_parameters():
    print(name, p.shape, p.requires_grad, p.is_leaf)
print(dict(m.named_buffers()))

out = m(torch.tensor([[1.0, 1.0, 1.0], [2.0, 0.5, -1.0]]))
print(out)
out.sum().backward()
print(m.gain.grad, m.bias.grad)
print([m.gain.grad, m.bias.grad])
print((m.gain.grad, None, 3))
print({"grad": m.gain.grad, "nested": {"t": torch.tensor([True])}})
print(torch.Size([2, 3]), torch.Size([]), tuple(torch.Size([4])), out.shape, out.size(1))
print(torch.float32, torch.int64, torch.complex64, torch.bool, torch.bfloat16, out.dtype)
print(repr(torch.float16), str(torch.uint8), torch.device("cpu"), repr(out.device), out.device)
print([torch.float64, torch.device("cpu")], {"d": torch.int8})
print(torch.finfo(torch.float32))
print(torch.iinfo(torch.int16))
print(torch.finfo(torch.float16).eps, torch.iinfo(torch.uint8).max)
