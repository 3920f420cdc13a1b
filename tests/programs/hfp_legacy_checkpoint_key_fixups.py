# from_pretrained's key fix-ups on a legacy checkpoint: gamma/beta -> weight/bias renames, a
# "bert." base-model prefix stripped, a fused query_key_value split by _load_from_state_dict,
# _keys_to_ignore_on_load_unexpected regexes, and a state_dict hook dropping the tied lm_head.
import re
from collections import OrderedDict
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        fused_w = state_dict.pop(prefix + "query_key_value.weight", None)
        fused_b = state_dict.pop(prefix + "query_key_value.bias", None)
        if fused_w is not None:
            for name, w, b in zip("qkv", fused_w.chunk(3, dim=0), fused_b.chunk(3, dim=0)):
                state_dict[f"{prefix}{name}.weight"] = w
                state_dict[f"{prefix}{name}.bias"] = b
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def forward(self, x):
        s = self.q(x) @ self.k(x).transpose(-1, -2)
        return s.softmax(-1) @ self.v(x)


class Model(nn.Module):
    base_model_prefix = "bert"
    _keys_to_ignore_on_load_unexpected = [r"pooler", r"position_ids$"]

    def __init__(self, vocab=9, d=4):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d)
        self.attention = Attention(d)
        self.LayerNorm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embeddings.weight
        self._register_state_dict_hook(Model._drop_tied)

    @staticmethod
    def _drop_tied(module, state_dict, prefix, local_metadata):
        state_dict.pop(prefix + "lm_head.weight", None)
        return state_dict

    def forward(self, ids):
        h = self.embeddings(ids)
        return self.lm_head(self.LayerNorm(h + self.attention(h)))


def fix_key(key):
    key = key.replace("gamma", "weight").replace("beta", "bias")
    return key[len("bert."):] if key.startswith("bert.") else key


def load_pretrained(model, legacy):
    sd = OrderedDict((fix_key(k), v) for k, v in legacy.items())
    result = model.load_state_dict(sd, strict=False)
    unexpected = [k for k in result.unexpected_keys
                  if not any(re.search(p, k) for p in model._keys_to_ignore_on_load_unexpected)]
    return result.missing_keys, unexpected


d, vocab = 4, 9
ar = lambda n, s: torch.sin(torch.arange(n, dtype=torch.float32) * s)
legacy = OrderedDict([
    ("bert.embeddings.weight", ar(vocab * d, 0.5).view(vocab, d)),
    ("bert.attention.query_key_value.weight", ar(3 * d * d, 0.3).view(3 * d, d)),
    ("bert.attention.query_key_value.bias", ar(3 * d, 0.7)),
    ("bert.LayerNorm.gamma", 1 + ar(d, 1.1) * 0.1),
    ("bert.LayerNorm.beta", ar(d, 0.9) * 0.1),
    ("bert.pooler.dense.weight", torch.zeros(d, d)),
    ("bert.embeddings.position_ids", torch.arange(8)[None]),
    ("bert.extra_head.weight", torch.ones(2)),
])
model = Model(vocab, d)
print("own keys:", list(model.state_dict().keys()))
missing, unexpected = load_pretrained(model, legacy)
print("missing:", missing)
print("unexpected (after ignore):", unexpected)
print("q from fused:", torch.equal(model.attention.q.weight, legacy["bert.attention.query_key_value.weight"][:d]))
print("v bias:", model.attention.v.bias)
print("LayerNorm weight:", torch.round(model.LayerNorm.weight, decimals=4))
print("head still tied:", model.lm_head.weight is model.embeddings.weight)
ids = torch.tensor([[1, 3, 5], [2, 4, 8]])
print(torch.round(model(ids)[0], decimals=4))
strict_model = Model(vocab, d)
try:
    strict_model.load_state_dict(OrderedDict((fix_key(k), v) for k, v in legacy.items()))
except RuntimeError as e:
    print(e)
bad = OrderedDict((fix_key(k), v) for k, v in legacy.items() if "pooler" not in k and "extra" not in k and "position" not in k)
bad["LayerNorm.weight"] = torch.ones(d + 1)
try:
    Model(vocab, d).load_state_dict(bad)
except RuntimeError as e:
    print(e)
