# Checkpoint compatibility plumbing: state_dict hooks (pre/post, public and private), load
# pre/post hooks that rename legacy keys and silence missing keys, and _version-based upgrades
# in _load_from_state_dict.
import io

import torch
import torch.nn as nn


class Scaler(nn.Module):
    _version = 2

    def __init__(self, n):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(n))
        self.register_buffer("shift", torch.zeros(n))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        print("load", repr(prefix), "version", version)
        if version is None or version < 2:
            old = prefix + "gain"
            if old in state_dict:
                state_dict[prefix + "scale"] = state_dict.pop(old)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 3)
        self.norm = Scaler(3)
        self.extra = nn.Linear(3, 1)


model = Model()
with torch.no_grad():
    model.enc.weight.copy_(torch.arange(9.).view(3, 3) / 10)
    model.enc.bias.fill_(0.5)
    model.norm.scale.copy_(torch.tensor([1.0, 2.0, 3.0]))

calls = []
h1 = model.register_state_dict_pre_hook(lambda m, prefix, keep_vars: calls.append(("pre", type(m).__name__, prefix, keep_vars)))


def drop_extra(module, state_dict, prefix, local_metadata):
    for k in [k for k in state_dict if k.startswith(prefix + "extra.")]:
        del state_dict[k]
    return state_dict


h2 = model._register_state_dict_hook(drop_extra)
sd = model.state_dict(keep_vars=True)
print(calls, list(sd.keys()))
print(type(sd["enc.weight"]).__name__, sd["enc.weight"].requires_grad, type(model.state_dict()["enc.weight"]).__name__)
print(sd._metadata[""], sd._metadata["norm"])
h1.remove()
h2.remove()
print(len(model.state_dict()), calls[-1][0])

legacy = {"enc.weight": torch.eye(3), "enc.bias": torch.zeros(3), "norm.gain": torch.tensor([4.0, 5.0, 6.0]),
          "norm.shift": torch.ones(3)}
target = Model()
print(target.load_state_dict(legacy, strict=False))


def rename_pre(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    for k in list(state_dict):
        if k.startswith("encoder."):
            state_dict["enc." + k[len("encoder."):]] = state_dict.pop(k)


def ignore_extra(module, incompatible_keys):
    incompatible_keys.missing_keys[:] = [k for k in incompatible_keys.missing_keys if not k.startswith("extra.")]


target.register_load_state_dict_pre_hook(rename_pre)
hp = target.register_load_state_dict_post_hook(ignore_extra)
renamed = {"encoder.weight": torch.eye(3) * 2, "encoder.bias": torch.ones(3), "norm.scale": torch.ones(3),
           "norm.shift": torch.zeros(3)}
print(target.load_state_dict(renamed))
print(target.enc.weight.diag(), target.norm.scale)
hp.remove()
try:
    target.load_state_dict(renamed)
except RuntimeError as e:
    print(e)

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
back = torch.load(buf, weights_only=True)
print(back._metadata["norm"], sorted(back._metadata))
print(Model().load_state_dict(back))
