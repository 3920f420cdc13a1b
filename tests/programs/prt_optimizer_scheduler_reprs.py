# "What did I configure?" — printing every optimizer (print(optimizer)) with two param groups,
# optimizer.state_dict() after a step, and LR scheduler state_dict()/get_last_lr() through training.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1) / 3)
groups = [{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.05}]

makers = [
    lambda g: torch.optim.SGD(g, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4),
    lambda g: torch.optim.Adam(g, lr=1e-3, betas=(0.8, 0.99), amsgrad=True),
    lambda g: torch.optim.AdamW(g, lr=2e-3, weight_decay=0.05),
    lambda g: torch.optim.RMSprop(g, lr=0.01, alpha=0.9, centered=True),
    lambda g: torch.optim.Adagrad(g, lr=0.1, lr_decay=0.01),
    lambda g: torch.optim.Adadelta(g),
    lambda g: torch.optim.Adamax(g, lr=0.002),
    lambda g: torch.optim.NAdam(g, lr=0.002, momentum_decay=0.004),
    lambda g: torch.optim.RAdam(g, lr=0.001, decoupled_weight_decay=True, weight_decay=0.01),
    lambda g: torch.optim.Rprop(g, lr=0.01, etas=(0.4, 1.3)),
    lambda g: torch.optim.ASGD(g, lr=0.01, t0=100.0),
]
for make in makers:
    groups = [{"params": list(model[0].parameters())},
              {"params": list(model[2].parameters()), "lr": 0.05}]
    print(make(groups))

print(torch.optim.LBFGS(model.parameters(), lr=1, history_size=5, line_search_fn="strong_wolfe"))

x = torch.linspace(-1, 1, 12).view(4, 3)
y = x.sum(dim=1, keepdim=True) * 0.5
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.5f}", sched.get_last_lr(), opt.param_groups[0]["lr"])
print(sched.state_dict())
sd = opt.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"].keys()), list(sd["state"][0].keys()))
print(sd["state"][1]["momentum_buffer"])

opt2 = torch.optim.Adam(model.parameters(), lr=0.01)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=4, eta_min=1e-4)
for _ in range(3):
    opt2.step()
    cos.step()
print(cos.state_dict())
print([f"{lr:.6f}" for lr in cos.get_last_lr()])
lam = torch.optim.lr_scheduler.LambdaLR(opt2, lr_lambda=lambda e: 0.9 ** e)
print(sorted(lam.state_dict().keys()))
print(opt2.state_dict()["param_groups"][0])
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, mode="min", factor=0.5, patience=1)
for v in [1.0, 0.9, 0.95, 0.96, 0.97]:
    plateau.step(v)
    print(v, plateau.get_last_lr(), plateau.num_bad_epochs)
print({k: v for k, v in plateau.state_dict().items() if k != "mode_worse"})
