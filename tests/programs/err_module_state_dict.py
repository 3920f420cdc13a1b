# Forum question: "cannot assign module before Module.__init__() call", optimizer got a tensor
# instead of params, and the full multi-line load_state_dict "Error(s) in loading state_dict" message.
import io

import torch
import torch.nn as nn
import torch.optim as optim


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
        super().__init__()


class ForgotParam(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(2))
        super().__init__()


class ForgotBuffer(nn.Module):
    def __init__(self):
        self.register_buffer("b", torch.ones(2))


class ForgotPlain(nn.Module):
    def __init__(self):
        self.n = 3
        super().__init__()


attempt("module before super", Forgot)
attempt("param before super", ForgotParam)
attempt("buffer before super", ForgotBuffer)
attempt("plain attr before super", lambda: ForgotPlain().n)


class Net(nn.Module):
    def __init__(self, hidden=4, out=2):
        super().__init__()
        self.fc1 = nn.Linear(3, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, out)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


net = Net()
attempt("optim on tensor", lambda: optim.SGD(net.fc1.weight, lr=0.1))
attempt("optim on module", lambda: optim.SGD(net, lr=0.1))
attempt("optim on empty list", lambda: optim.Adam([], lr=0.1))
attempt("optim on generator used twice", lambda: (lambda g: (optim.SGD(g, lr=0.1), optim.SGD(g, lr=0.1)))(net.parameters()))
attempt("optim param twice", lambda: optim.SGD([{"params": net.fc1.parameters()}, {"params": net.fc1.parameters()}], lr=0.1))
attempt("optim negative lr", lambda: optim.SGD(net.parameters(), lr=-1))
attempt("optim no lr Adam", lambda: type(optim.Adam(net.parameters())).__name__)
attempt("optim bad betas", lambda: optim.Adam(net.parameters(), betas=(1.5, 0.9)))
attempt("optim int param", lambda: optim.SGD([torch.ones(2, dtype=torch.long)], lr=0.1))
attempt("optim non-leaf", lambda: optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1))
attempt("optim dict param", lambda: optim.SGD({"w": torch.ones(2, requires_grad=True)}, lr=0.1))

sd = net.state_dict()
print("keys:", list(sd.keys()))

# model was saved from DataParallel -> "module." prefix
prefixed = {"module." + k: v for k, v in sd.items()}
attempt("load DataParallel keys", lambda: Net().load_state_dict(prefixed))
res = Net().load_state_dict(prefixed, strict=False)
print("strict=False missing:", res.missing_keys)
print("strict=False unexpected:", res.unexpected_keys)
fixed = {k.removeprefix("module."): v for k, v in prefixed.items()}
print("after strip:", Net().load_state_dict(fixed))

# changed the architecture between save and load
attempt("size mismatch", lambda: Net(hidden=5).load_state_dict(sd))
attempt("size mismatch out", lambda: Net(out=3).load_state_dict(sd))
attempt("size mismatch strict=False", lambda: Net(out=3).load_state_dict(sd, strict=False))
partial = {k: v for k, v in sd.items() if not k.startswith("bn.")}
attempt("missing bn", lambda: Net().load_state_dict(partial))
extra = dict(sd)
extra["fc3.weight"] = torch.zeros(1)
attempt("unexpected + missing", lambda: Net().load_state_dict({**partial, "fc3.weight": torch.zeros(1)}))
attempt("not a dict", lambda: Net().load_state_dict([1, 2]))
attempt("load optimizer state into model", lambda: Net().load_state_dict(optim.SGD(net.parameters(), lr=0.1).state_dict()))

# round trip through a buffer
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf)
print("roundtrip:", Net().load_state_dict(loaded))
attempt("load tensor not dict", lambda: Net().load_state_dict(torch.ones(2)))

# optimizer state_dict mismatch
opt = optim.Adam(net.parameters(), lr=0.01)
other = optim.Adam(Net(hidden=5).fc1.parameters(), lr=0.01)
attempt("optimizer load groups mismatch", lambda: other.load_state_dict(opt.state_dict()))
