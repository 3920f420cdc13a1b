# StackOverflow: forgetting super().__init__(), "optimizer got an empty parameter list",
# parameters kept in plain lists, and load_state_dict missing / unexpected keys / size mismatch.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


class NoSuper(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


class NoSuperParam(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(2))


class NoSuperTensor(nn.Module):
    def __init__(self):
        self.scale = 2.0
        self.t = torch.ones(2)


attempt("module before init", NoSuper)
attempt("parameter before init", NoSuperParam)
attempt("plain attrs before init", lambda: NoSuperTensor().t)
attempt("register_buffer before init", lambda: nn.Module.register_buffer(object.__new__(nn.Linear), "b", torch.ones(1)))


class ListNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2), nn.Linear(2, 1)]   # plain list: not registered

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class NoParams(nn.Module):
    def forward(self, x):
        return x * 2


attempt("list params", lambda: len(list(ListNet().parameters())))
attempt("SGD on list net", lambda: torch.optim.SGD(ListNet().parameters(), lr=0.1))
attempt("Adam on no params", lambda: torch.optim.Adam(NoParams().parameters()))
attempt("SGD on generator twice", lambda: (lambda g: (torch.optim.SGD(g, lr=0.1), torch.optim.SGD(g, lr=0.1)))(nn.Linear(2, 2).parameters()))
attempt("SGD tensor not list", lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
attempt("SGD non-leaf", lambda: torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1))
attempt("SGD no lr", lambda: torch.optim.SGD(nn.Linear(2, 2).parameters()).defaults["lr"])
attempt("Adam bad beta", lambda: torch.optim.Adam(nn.Linear(2, 2).parameters(), betas=(1.0, 0.999)))
attempt("Adam bad eps", lambda: torch.optim.Adam(nn.Linear(2, 2).parameters(), eps=-1e-8))
attempt("SGD bad momentum", lambda: torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, momentum=-0.5))
attempt("SGD nesterov", lambda: torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, nesterov=True))
attempt("weight_decay bad", lambda: torch.optim.AdamW(nn.Linear(2, 2).parameters(), weight_decay=-0.1))
attempt("ModuleList fix", lambda: len(list(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)]).parameters())))


class Net(nn.Module):
    def __init__(self, hidden=3):
        super().__init__()
        self.fc1 = nn.Linear(4, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, 2)


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
# Q: saved from nn.DataParallel -> every key starts with "module."
dp_sd = {"module." + k: v for k, v in sd.items()}
attempt("DataParallel keys", lambda: Net().load_state_dict(dp_sd))
attempt("strip prefix fix", lambda: Net().load_state_dict({k[len("module."):]: v for k, v in dp_sd.items()}))
attempt("strict=False", lambda: Net().load_state_dict(dp_sd, strict=False))
attempt("size mismatch", lambda: Net(hidden=5).load_state_dict(sd))
partial = {k: v for k, v in sd.items() if not k.startswith("fc2")}
attempt("missing fc2", lambda: Net().load_state_dict(partial))
res = Net().load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys)
attempt("strict=False size mismatch", lambda: Net(hidden=5).load_state_dict(sd, strict=False))
attempt("not a dict", lambda: Net().load_state_dict(list(sd.values())))
attempt("whole model", lambda: Net().load_state_dict(net))
attempt("bad tensor", lambda: nn.Linear(2, 2).load_state_dict({"weight": [[1, 2], [3, 4]], "bias": torch.zeros(2)}))
print(nn.Linear(2, 2).load_state_dict(nn.Linear(2, 2).state_dict()))
