# A compiled model in a "production" training loop: gradient accumulation, clip_grad_norm_,
# a StepLR scheduler, and checkpoint of model + optimizer taken from the compiled wrapper.
import io
import torch
import torch.nn as nn

torch._dynamo.config.cache_size_limit = 16


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.fc = nn.Linear(4, 1)

    def forward(self, idx):
        return self.fc(self.emb(idx).mean(1)).squeeze(-1)


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view(p.shape) * 0.5)
model = torch.compile(net)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)

idx = torch.arange(24).remainder(10).view(8, 3)
target = torch.linspace(-1, 1, 8)
accum = 2
for epoch in range(6):
    opt.zero_grad()
    for micro in range(accum):
        sl = slice(micro * 4, micro * 4 + 4)
        loss = ((model(idx[sl]) - target[sl]) ** 2).mean() / accum
        loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    opt.step()
    sched.step()
    print(f"epoch {epoch} loss {loss.item() * accum:.4f} norm {norm.item():.4f} lr {sched.get_last_lr()[0]:.4f}")

ckpt = {"model": model.state_dict(), "opt": opt.state_dict()}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf)
print(sorted(loaded["model"].keys()))
print(sorted(loaded["opt"]["state"][0].keys()), loaded["opt"]["param_groups"][0]["lr"])
net2 = Net()
net2.load_state_dict({k.replace("_orig_mod.", ""): v for k, v in loaded["model"].items()})
with torch.no_grad():
    print(torch.allclose(net2(idx), model(idx)))
print(model.emb.weight.grad.shape, model.emb.weight.grad.abs().sum() > 0)
