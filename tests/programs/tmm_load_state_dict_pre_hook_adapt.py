# timm-style checkpoint adaptation inside the module: _register_load_state_dict_pre_hook renaming
# old keys (and splitting a fused qkv), register_load_state_dict_post_hook pruning expected
# misses, state_dict hooks that drop a non-persistent cache, and _load_from_state_dict overrides.
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.register_buffer("rel_index", torch.arange(4), persistent=False)
        self._register_load_state_dict_pre_hook(self._split_qkv)

    def _split_qkv(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        for kind in ("weight", "bias"):
            key = prefix + "qkv." + kind
            if key in state_dict:
                qkv = state_dict.pop(key)
                dim = qkv.shape[0] // 3
                state_dict[prefix + "q." + kind] = qkv[:dim]
                state_dict[prefix + "kv." + kind] = qkv[dim:]


class Scaled(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        key = prefix + "gamma"
        if key in state_dict:
            state_dict[prefix + "scale"] = state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)


class Net(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.attn = Attention(dim)
        self.ls = Scaled(dim)
        self.head = nn.Linear(dim, 2)
        self.register_load_state_dict_post_hook(self._ignore_head)

    @staticmethod
    def _ignore_head(module, incompatible_keys):
        for k in list(incompatible_keys.missing_keys):
            if k.startswith("head."):
                incompatible_keys.missing_keys.remove(k)

    def forward(self, x):
        q = self.attn.q(x)
        k, v = self.attn.kv(x).chunk(2, dim=-1)
        a = torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1)
        return self.head(self.ls.scale * (a @ v))


old = {
    "attn.qkv.weight": torch.arange(48, dtype=torch.float32).reshape(12, 4) / 48,
    "attn.qkv.bias": torch.linspace(-1, 1, 12),
    "ls.gamma": torch.tensor([0.5, 1.0, 1.5, 2.0]),
    "extra.weight": torch.zeros(1),
}
net = Net()
res = net.load_state_dict(dict(old), strict=False)
print(res.missing_keys, res.unexpected_keys)
print(net.attn.q.bias, net.attn.kv.weight[:2])
print(net.ls.scale)
print(list(net.state_dict().keys()))
print("rel_index" in str(list(net.state_dict(keep_vars=True).keys())), net.attn.rel_index)

try:
    Net().load_state_dict(dict(old), strict=True)
except RuntimeError as e:
    print(type(e).__name__, e)

calls = []


def sd_hook(module, state_dict, prefix, local_metadata):
    calls.append(prefix)
    state_dict.pop(prefix + "bias", None)
    return state_dict


net.head._register_state_dict_hook(sd_hook)
print(list(net.state_dict(prefix="model.").keys()), calls)
sd = net.state_dict()
print(sd["attn.q.weight"].requires_grad, sd["ls.scale"].grad_fn)
with torch.no_grad():
    net.head.weight.copy_(torch.tensor([[0.1, 0.2, 0.3, 0.4], [-0.4, 0.3, -0.2, 0.1]]))
    net.head.bias.zero_()
x = torch.cos(torch.arange(2 * 3 * 4, dtype=torch.float32)).reshape(2, 3, 4)
print(net(x).detach())
print(net.state_dict()._metadata[""], net.state_dict()._metadata["attn.q"])
