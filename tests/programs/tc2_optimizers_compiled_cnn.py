# The "compare optimizers" notebook: the same small compiled CNN trained with SGD(momentum),
# SGD(nesterov), Adam, AdamW(weight_decay) and RMSprop; each run builds a fresh model,
# compiles it, and torch._dynamo.reset() clears the cache between runs.
import torch
import torch._dynamo
import torch.nn as nn
import torch.nn.functional as F


def make_model():
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(4 * 3 * 3, 2),
    )
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 0.3 * i).view_as(p) * 0.35)
    return model


t = torch.linspace(0, 3.14, 8)
X = torch.stack([torch.outer(torch.sin(t * (1 + k % 2) + k * 0.2), torch.cos(t - k * 0.1)) for k in range(10)]).unsqueeze(1)
Y = torch.tensor([k % 2 for k in range(10)])

optimizers = {
    "sgd_momentum": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
    "sgd_nesterov": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3),
    "adam": lambda ps: torch.optim.Adam(ps, lr=0.01),
    "adamw": lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.05),
    "rmsprop": lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, momentum=0.5),
}

results = {}
for name, make_opt in optimizers.items():
    torch._dynamo.reset()
    model = make_model()
    cmodel = torch.compile(model)
    opt = make_opt(cmodel.parameters())
    losses = []
    for step in range(10):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(cmodel(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    results[name] = losses
    print(f"{name:13s} first {losses[0]:.4f} last {losses[-1]:.4f} decreased {losses[-1] < losses[0]}")
    state = opt.state_dict()["state"][0]
    print("   state keys", sorted(state.keys()), "param groups", len(opt.param_groups))

best = min(results, key=lambda k: results[k][-1])
print("best", best)
print("num_batches_tracked", model[1].num_batches_tracked.item())
print("running_var", torch.round(model[1].running_var, decimals=3))
