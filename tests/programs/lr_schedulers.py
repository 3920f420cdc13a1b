# Learning-rate schedulers: StepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, MultiStepLR.
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, ExponentialLR, LambdaLR, StepLR

model = torch.nn.Linear(2, 1)


def run(make_scheduler, epochs=8, lr=0.1):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    scheduler = make_scheduler(optimizer)
    lrs = []
    for epoch in range(epochs):
        optimizer.step()
        lrs.append(round(optimizer.param_groups[0]["lr"], 6))
        scheduler.step()
    return lrs, [round(v, 6) for v in scheduler.get_last_lr()]


print(run(lambda opt: StepLR(opt, step_size=3, gamma=0.1)))
print(run(lambda opt: ExponentialLR(opt, gamma=0.9)))
print(run(lambda opt: CosineAnnealingLR(opt, T_max=4)))
print(run(lambda opt: CosineAnnealingLR(opt, T_max=6, eta_min=0.01)))
print(run(lambda opt: LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)))
print(run(lambda opt: LambdaLR(opt, lr_lambda=lambda step: min(1.0, (step + 1) / 4))))

optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
print(scheduler.state_dict()["step_size"], scheduler.last_epoch, optimizer.param_groups[0]["initial_lr"])
for _ in range(4):
    optimizer.step()
    scheduler.step()
print(scheduler.state_dict()["last_epoch"], scheduler.get_last_lr())
