# model.compile() in place and @torch.compile on a forward method inside the class; len/indexing
# of a compiled nn.Sequential; hooks registered on the original model still fire.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    @torch.compile
    def forward(self, x):
        return x + torch.tanh(self.proj(self.norm(x)))


def init_(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view(p.shape) * 0.3)


blk = Block(4)
init_(blk)
x = torch.linspace(-1, 1, 8).view(2, 4)
y = blk(x)
print(torch.round(y, decimals=4))
print(list(blk.state_dict().keys()))
y.sum().backward()
print(torch.round(blk.proj.weight.grad, decimals=4))

seq = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
init_(seq)
ref = seq(x)
seq.compile()
print(type(seq).__name__, list(seq.state_dict().keys()))
print(torch.allclose(seq(x), ref))

cseq = torch.compile(nn.Sequential(nn.Linear(4, 3), nn.Sigmoid()))
init_(cseq)
print(len(cseq), type(cseq._orig_mod[0]).__name__, cseq._orig_mod[0].weight.shape)
print(list(cseq.state_dict().keys()))

calls = []
handle = cseq._orig_mod.register_forward_hook(lambda m, i, o: calls.append(tuple(o.shape)))
out = cseq(x)
print(calls, torch.round(out, decimals=4))
handle.remove()

mdl = nn.Linear(4, 2)
init_(mdl)
mdl.compile(mode="reduce-overhead")
seen = []
mdl.register_forward_pre_hook(lambda m, inp: seen.append(inp[0].shape[0]))
print(torch.round(mdl(x), decimals=4), seen)
print(list(mdl.state_dict().keys()), mdl.weight.requires_grad)
