# Feature extraction and Grad-CAM with module hooks, as in the forum answers: hooks on every
# named submodule recording output shapes, activations/gradients of a conv layer, a pre-hook
# normalising inputs, hooks under no_grad/eval, and hooks on modules returning tuples.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.gru = nn.GRU(4, 3, batch_first=True)
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        f = self.features(x)                      # (N, 2, 2, 2)
        seq = f.flatten(2)                        # (N, 2, 4)
        out, h = self.gru(seq)
        return self.fc(out.flatten(1))


net = Net()
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).view_as(p) * (1 + 0.1 * i))

shapes = {}
handles = []
for name, mod in net.named_modules():
    if name:
        def hook(m, inp, out, name=name):
            if isinstance(out, tuple):
                shapes[name] = [tuple(o.shape) for o in out]
            else:
                shapes[name] = tuple(out.shape)
        handles.append(mod.register_forward_hook(hook))

x = torch.arange(32.0).view(2, 1, 4, 4) / 10
y = net(x)
for k, v in shapes.items():
    print(k, v)
print(y)
for h in handles:
    h.remove()
print(len(net.features[0]._forward_hooks), len(net._forward_hooks))

# Grad-CAM: keep activation and its gradient from the conv layer.
store = {}
conv = net.features[0]
h1 = conv.register_forward_hook(lambda m, i, o: store.__setitem__("act", o.detach()))
h2 = conv.register_full_backward_hook(lambda m, gi, go: store.__setitem__("grad", go[0].detach()))
out = net(x)
out[:, 1].sum().backward()
weights = store["grad"].mean(dim=(2, 3), keepdim=True)
cam = torch.relu((weights * store["act"]).sum(1))
print(weights.view(2, 2))
print(cam)

# backward hook sees grad_input None for the first layer's input that doesn't require grad
seen = []
h3 = conv.register_full_backward_hook(lambda m, gi, go: seen.append((gi[0] is None, go[0].shape)))
net.zero_grad()
net(x).sum().backward()
print(seen)
xg = x.clone().requires_grad_()
net(xg).sum().backward()
print(seen[-1], xg.grad.abs().sum())

with torch.no_grad():
    seen.clear()
    store.clear()
    net(x)
print(seen, sorted(store))
for h in (h1, h2, h3):
    h.remove()

# pre-hook that normalises the input (returns a new tuple of args)
def normalise(m, args):
    (inp,) = args
    return ((inp - inp.mean()) / inp.std(),)


hp = net.register_forward_pre_hook(normalise)
net.eval()
print(net(x))
hp.remove()
print(net(x))

# forward hook replacing a GRU's (output, h_n) tuple
hg = net.gru.register_forward_hook(lambda m, i, o: (o[0] * 0, o[1]))
print(net(x))
hg.remove()
print(net.training, net.gru.training, net.train().training, net.fc.training)
