# Migrating old checkpoints into a refactored model: a module _version bump handled in
# _load_from_state_dict (local_metadata["version"]), a load_state_dict pre-hook renaming keys
# ("fc." -> "head.proj."), a post-hook that tolerates a newly added buffer, and a state_dict
# post-hook that strips a cache buffer from saved checkpoints.
import torch
import torch.nn as nn


class OldNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 4)
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.fc(torch.relu(self.body(x))) * self.scale


class Head(nn.Module):
    _version = 2  # v2 stores log_scale instead of scale

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 2)
        self.register_buffer("log_scale", torch.tensor(0.0))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        print(f"  Head load: prefix={prefix!r} version={version}")
        if (version is None or version < 2) and prefix + "scale" in state_dict:
            state_dict[prefix + "log_scale"] = state_dict.pop(prefix + "scale").log()
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def forward(self, h):
        return self.proj(h) * self.log_scale.exp()


class NewNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 4)
        self.head = Head()
        self.register_buffer("cache", torch.zeros(4))
        self.register_buffer("calls", torch.tensor(0))
        self.register_load_state_dict_pre_hook(self._rename_old_keys)
        self.register_load_state_dict_post_hook(self._allow_missing_calls)
        self.register_state_dict_post_hook(self._drop_cache)

    @staticmethod
    def _rename_old_keys(module, state_dict, prefix, local_metadata, strict, missing_keys,
                         unexpected_keys, error_msgs):
        for key in list(state_dict):
            if key.startswith(prefix + "fc."):
                state_dict[key.replace(prefix + "fc.", prefix + "head.proj.")] = state_dict.pop(key)
            elif key == prefix + "scale":
                state_dict[prefix + "head.scale"] = state_dict.pop(key)
                local_metadata_head = state_dict._metadata.get(prefix + "head", {}) if hasattr(state_dict, "_metadata") else {}
                print("  moved scale; head metadata before:", local_metadata_head)

    @staticmethod
    def _allow_missing_calls(module, incompatible):
        for k in ("calls", "cache"):
            if k in incompatible.missing_keys:
                incompatible.missing_keys.remove(k)

    @staticmethod
    def _drop_cache(module, state_dict, prefix, local_metadata):
        state_dict.pop(prefix + "cache", None)

    def forward(self, x):
        self.calls += 1
        return self.head(torch.relu(self.body(x)))


old = OldNet()
with torch.no_grad():
    for i, p in enumerate(old.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view_as(p))
ckpt = old.state_dict()
print(list(ckpt.keys()), dict(ckpt._metadata))

new = NewNet()
result = new.load_state_dict(ckpt)
print(result)
x = torch.linspace(-1, 1, 6).view(2, 3)
print(torch.allclose(new(x), old(x), atol=1e-6), new(x))
print(f"{new.head.log_scale.item():.6f}", new.calls)

saved = new.state_dict()
print(list(saved.keys()), saved._metadata["head"])
again = NewNet()
print(again.load_state_dict(saved), torch.allclose(again(x), new(x)))
try:
    NewNet().load_state_dict({**saved, "head.proj.weight": torch.zeros(3, 4)})
except RuntimeError as e:
    print("RuntimeError", e)
