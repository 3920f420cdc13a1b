# StackOverflow: "what does this UserWarning mean?" — each warning captured and printed, then the fix.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def show(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "->", out)
        except Exception as e:  # noqa: BLE001
            print(label, "->", type(e).__name__ + ":", str(e))
    for c in caught:
        # C++ warnings end with "(Triggered internally at <build path>)": not part of the advice
        text = str(c.message).splitlines()[0].split(" (Triggered internally")[0]
        print("   ", c.category.__name__ + ":", text)
    if not caught:
        print("    (no warning)")


x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
show("softmax no dim", lambda: F.softmax(x))
show("softmax dim=1", lambda: F.softmax(x, dim=1))
show("log_softmax no dim", lambda: F.log_softmax(x[0]))
show("nn.Softmax() no dim", lambda: nn.Softmax()(x))
show("size_average", lambda: nn.MSELoss(size_average=False)(x, torch.zeros(2, 3)))
show("reduce=False", lambda: nn.L1Loss(reduce=False)(x[0], torch.zeros(3)))
show("reduction='sum'", lambda: nn.MSELoss(reduction="sum")(x, torch.zeros(2, 3)))
show("mse broadcast", lambda: F.mse_loss(x[:, :1], torch.zeros(2)))
show("mse broadcast fix", lambda: F.mse_loss(x[:, :1].squeeze(1), torch.zeros(2)))
show("tensor(tensor)", lambda: torch.tensor(x[0]))
show("tensor(param)", lambda: torch.tensor(nn.Parameter(torch.ones(2))))
show("float(req grad)", lambda: float(torch.tensor(2.0, requires_grad=True) * 3))
show("item(req grad)", lambda: (torch.tensor(2.0, requires_grad=True) * 3).item())
show("non-leaf .grad", lambda: (torch.ones(2, requires_grad=True) * 2).grad)
show("leaf .grad", lambda: torch.ones(2, requires_grad=True).grad)
show("torch.range", lambda: torch.range(0, 3))
show("torch.arange fix", lambda: torch.arange(0, 4))
show("sigmoid functional", lambda: F.sigmoid(torch.tensor([0.0])))
show("tanh functional", lambda: F.tanh(torch.tensor([0.0])))
show("upsample", lambda: F.upsample(torch.ones(1, 1, 2), scale_factor=2).shape)
show("interpolate fix", lambda: F.interpolate(torch.ones(1, 1, 2), scale_factor=2).shape)
show(".T on 3d", lambda: torch.ones(2, 3, 4).T.shape)
show("mT fix", lambda: torch.ones(2, 3, 4).mT.shape)
show("dropout p", lambda: nn.Dropout(p=1.5))
show("lstm dropout 1 layer", lambda: nn.LSTM(3, 4, num_layers=1, dropout=0.5).dropout)
show("xavier_normal", lambda: nn.init.xavier_normal(torch.empty(2, 2)).shape)
show("kaiming fix", lambda: nn.init.kaiming_uniform_(torch.empty(2, 2)).shape)
show("clip_grad_norm", lambda: nn.utils.clip_grad_norm(nn.Linear(2, 2).parameters(), 1.0))

model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
show("scheduler before optimizer", lambda: sched.step())
show("get_lr", lambda: sched.get_lr())
show("get_last_lr", lambda: sched.get_last_lr())
show("scheduler epoch arg", lambda: sched.step(3))
show("sum bool dtype", lambda: torch.tensor([True, True, False]).sum())
show("div ints", lambda: torch.tensor([3, 4]) / 2)
show("floor_divide", lambda: torch.floor_divide(torch.tensor([-3, 4]), 2))
