# Building model variants by editing containers, as people do when adapting ViT/ConvNeXt backbones:
# Sequential slicing / append / insert / pop / del / +, ModuleList extend, ModuleDict heads,
# ParameterList/ParameterDict reprs, swapping activations (GELU tanh, SiLU, Hardswish, ReLU6 inplace)
# and printing their reprs and values.
import torch
import torch.nn as nn

acts = [nn.GELU(), nn.GELU(approximate="tanh"), nn.SiLU(), nn.Hardswish(), nn.ReLU6(inplace=True),
        nn.Mish(), nn.Hardsigmoid(), nn.LeakyReLU(0.2, inplace=True), nn.ELU(alpha=0.5), nn.Softplus(beta=2, threshold=10),
        nn.Softmax(dim=-1), nn.GLU(dim=-1), nn.Tanh(), nn.Sigmoid(), nn.PReLU(num_parameters=1, init=0.1)]
x = torch.linspace(-3, 3, 8)
for a in acts:
    print(a, a(x.clone()).detach())

seq = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))
seq.append(nn.LayerNorm(4))
seq.insert(1, nn.Dropout(0.1))
print(seq)
print(seq[1:3], len(seq))
popped = seq.pop(1)
print(popped, len(seq))
del seq[-1]
print(seq)
both = seq + nn.Sequential(nn.Tanh())
print(type(both).__name__, len(both), both[-1])
seq[1] = nn.SiLU()
print(seq[1], [type(m).__name__ for m in seq])

ml = nn.ModuleList([nn.Identity()])
ml.extend([nn.ReLU(), nn.GELU()])
ml.insert(0, nn.Tanh())
ml += [nn.Sigmoid()]
print(ml, len(ml), ml[-1])
print(nn.ModuleList([nn.Linear(2, 2) for _ in range(3)]))

heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "dist": nn.Linear(4, 3)})
heads["aux"] = nn.Linear(4, 1)
print(list(heads.keys()), heads)
print("cls" in heads, len(heads))
heads.pop("aux")
print(list(heads))

pl = nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), nn.Parameter(torch.ones(4))])
pl.append(nn.Parameter(torch.ones(1)))
print(pl)
pd = nn.ParameterDict({"pos": nn.Parameter(torch.zeros(1, 5, 4)), "cls": nn.Parameter(torch.zeros(1, 1, 4))})
print(pd, sorted(pd.keys()))
print(sum(p.numel() for p in pd.parameters()), [n for n, _ in pl.named_parameters()])

# swap every GELU for SiLU recursively
model = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Sequential(nn.Linear(4, 4), nn.GELU()))
def swap(m):
    for name, child in m.named_children():
        if isinstance(child, nn.GELU):
            setattr(m, name, nn.SiLU())
        else:
            swap(child)
swap(model)
print(model)
t = torch.tensor([-1.0, 0.5, 7.0])
r = nn.ReLU6(inplace=True)
y = r(t)
print(y is t, t)
try:
    nn.Sequential(nn.Linear(2, 2))[3]
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.ModuleDict({"a": nn.ReLU()})["b"]
except Exception as e:
    print(type(e).__name__, e)
