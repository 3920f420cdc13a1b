# d2l.ai 6.6 File I/O: tensors, lists, dicts and model parameters (no d2l package).
import os
import shutil
import tempfile

import torch
from torch import nn
from torch.nn import functional as F

tmp = tempfile.mkdtemp()
os.chdir(tmp)

x = torch.arange(4)
torch.save(x, 'x-file')
x2 = torch.load('x-file')
print(x2, x2.dtype)

y = torch.zeros(4)
torch.save([x, y], 'x-files')
x2, y2 = torch.load('x-files')
print(x2, y2, type(torch.load('x-files')).__name__)

mydict = {'x': x, 'y': y}
torch.save(mydict, 'mydict')
mydict2 = torch.load('mydict')
print(mydict2)

# views of one storage stay shared after a round trip
base = torch.arange(6.0)
torch.save({'a': base[:3], 'b': base}, 'views')
back = torch.load('views')
back['b'][0] = 100.0
print(back['a'], back['b'].shape, back['a'].shape)
torch.save([x, x], 'twice')
pair = torch.load('twice')
pair[0][0] = 42
print(pair[1], pair[0] is pair[1])

# parameters and requires_grad survive
p = nn.Parameter(torch.tensor([1.0, 2.0]))
torch.save(p, 'param')
p2 = torch.load('param')
print(type(p2).__name__, p2.requires_grad, p2)
g = torch.tensor([3.0], requires_grad=True) * 2
torch.save(g.detach(), 'g')
print(torch.load('g'), torch.load('g', map_location='cpu').requires_grad)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.output = nn.Linear(256, 10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


def fill(net, shift):
    with torch.no_grad():
        for i, prm in enumerate(net.parameters()):
            prm.copy_(torch.sin(torch.arange(prm.numel(), dtype=torch.float32) * 0.01 + i + shift).reshape(prm.shape) * 0.1)
    return net


net = fill(MLP(), 0.0)
X = torch.cos(torch.arange(40, dtype=torch.float32)).reshape(2, 20)
Y = net(X)
torch.save(net.state_dict(), 'mlp.params')
clone = fill(MLP(), 1.0)
print(clone.load_state_dict(torch.load('mlp.params')))
print(clone.eval())
Y_clone = clone(X)
print(Y_clone == Y)
print(Y[0, :4], Y.grad_fn.name())
sd = torch.load('mlp.params')
print(type(sd).__name__, [(k, tuple(v.shape)) for k, v in sd.items()], sd['output.bias'].requires_grad)

# loading into the wrong architecture
small = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))
try:
    small.load_state_dict(torch.load('mlp.params'))
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(small.load_state_dict(torch.load('mlp.params'), strict=False))
wrong = MLP()
wrong.output = nn.Linear(256, 5)
try:
    wrong.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)
print(sorted(os.listdir('.')))
os.chdir(os.path.dirname(tmp))
shutil.rmtree(tmp)
