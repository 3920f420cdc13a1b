# Hand-written torchinfo-style summary: forward hooks on every module record input/output shapes
# (including tuple outputs from LSTM), depth from the qualified name, per-layer params,
# trainable vs frozen, shared modules counted once, then all hook handles removed.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 8, padding_idx=0)
        self.rnn = nn.LSTM(8, 6, batch_first=True, bidirectional=True)
        self.norm = nn.LayerNorm(12)

    def forward(self, tokens):
        h, (hn, cn) = self.rnn(self.embed(tokens))
        return self.norm(h)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.proj = nn.Linear(12, 12)
        self.head = nn.Sequential(self.proj, nn.GELU(), nn.Dropout(0.1), nn.Linear(12, 3))
        self.register_buffer("temperature", torch.tensor(1.5))

    def forward(self, tokens):
        h = self.encoder(tokens).mean(1)
        return self.head(h) / self.temperature


def shape_of(x):
    if isinstance(x, torch.Tensor):
        return list(x.shape)
    if isinstance(x, (tuple, list)):
        return [shape_of(v) for v in x]
    return type(x).__name__


def summary(model, *inputs):
    rows, handles, seen = [], [], set()
    for name, mod in model.named_modules():
        if name == "":
            continue

        def hook(m, inp, out, name=name):
            own = [p for p in m.parameters(recurse=False) if id(p) not in seen]
            seen.update(id(p) for p in own)
            rows.append((name, type(m).__name__, shape_of(inp[0]), shape_of(out),
                         sum(p.numel() for p in own)))
        handles.append(mod.register_forward_hook(hook))
    model.eval()
    with torch.no_grad():
        model(*inputs)
    for h in handles:
        h.remove()
    print(f"{'Layer (type)':<32}{'Input':<14}{'Output':<30}{'Param #':>8}")
    for name, typ, i, o, n in rows:
        depth = name.count(".")
        label = "  " * depth + f"{name.split('.')[-1]} ({typ})"
        print(f"{label:<32}{str(i):<14}{str(o):<30}{n:>8}")
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    buffers = sum(b.numel() for b in model.buffers())
    print(f"Total params: {total:,}  Trainable: {trainable:,}  Non-trainable: {total - trainable:,}")
    print(f"Buffers: {buffers}  Hooks left: {sum(len(m._forward_hooks) for m in model.modules())}")
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    print(f"Params size (MB): {size / 1024 ** 2:.4f}")


model = Classifier()
tokens = (torch.arange(15).reshape(3, 5) * 7) % 20
summary(model, tokens)

for p in model.encoder.parameters():
    p.requires_grad_(False)
summary(model, tokens)

print(len(list(model.modules())), len(list(model.named_modules(remove_duplicate=False))))
print(len(list(model.parameters())), len(list(model.named_parameters(remove_duplicate=False))))
print([n for n, _ in model.named_parameters(remove_duplicate=False) if "proj" in n or "head.0" in n])
print(model.head[0] is model.proj, model.training, model.encoder.rnn.training)
