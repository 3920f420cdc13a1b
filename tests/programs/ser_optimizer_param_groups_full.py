# Printing whole optimizer checkpoints the way users debug a resume: every optimizer's
# param_groups entry (all hyper-parameters with defaults), and state after one step, for a
# model with a frozen layer (no state for parameters that never got a gradient).
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, -0.25], [0.75, 1.0]]))
    model[0].bias.copy_(torch.tensor([0.1, -0.1]))
    model[1].weight.copy_(torch.tensor([[1.0, -1.0]]))
    model[1].bias.fill_(0.2)
model[0].requires_grad_(False)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])

makers = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "Adam": lambda p: torch.optim.Adam(p, lr=1e-3),
    "AdamW": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05),
    "RMSprop": lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1),
    "Adamax": lambda p: torch.optim.Adamax(p),
    "NAdam": lambda p: torch.optim.NAdam(p),
    "RAdam": lambda p: torch.optim.RAdam(p, decoupled_weight_decay=True, weight_decay=0.1),
    "Adadelta": lambda p: torch.optim.Adadelta(p),
    "Rprop": lambda p: torch.optim.Rprop(p),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.01),
}
for name, make in makers.items():
    with torch.no_grad():
        model[1].weight.copy_(torch.tensor([[1.0, -1.0]]))
        model[1].bias.fill_(0.2)
    opt = make(model.parameters())
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    sd = opt.state_dict()
    print(name, sd["param_groups"])
    state = {k: [f"{t:.5g}" for t in v.reshape(-1).tolist()] if torch.is_tensor(v) else v
             for k, v in sd["state"][3].items()}
    print("  state keys", sorted(sd["state"]), state)
    print("  bias", model[1].bias.detach().round(decimals=5))
