# MC dropout: switch only the Dropout modules back to train() at test time, stack T stochastic
# passes, predictive mean/variance, predictive entropy and BALD mutual information.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.bn = nn.BatchNorm1d(8)
        self.drop = nn.Dropout(p)
        self.fc2 = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


def enable_dropout(model):
    for m in model.modules():
        if m.__class__.__name__.startswith("Dropout"):
            m.train()


def mc_predict(model, x, T):
    with torch.no_grad():
        probs = torch.stack([F.softmax(model(x), dim=-1) for _ in range(T)])
    return probs


def uncertainty(probs):
    mean = probs.mean(0)
    pred_entropy = -(mean * torch.log(mean + 1e-12)).sum(-1)
    exp_entropy = -(probs * torch.log(probs + 1e-12)).sum(-1).mean(0)
    return mean, pred_entropy, pred_entropy - exp_entropy


x = torch.stack([torch.linspace(-2, 2, 5), torch.sin(torch.arange(5.0)), torch.ones(5)], dim=1)

for p in (0.0, 1.0):
    torch.manual_seed(0)
    model = Net(p)
    with torch.no_grad():
        for i, prm in enumerate(model.parameters()):
            prm.copy_(torch.cos(torch.arange(prm.numel(), dtype=torch.float32) * 0.37 + i).reshape(prm.shape) * 0.5)
    model.eval()
    enable_dropout(model)
    print("p", p, [(n, m.training) for n, m in model.named_modules()])
    probs = mc_predict(model, x, T=6)
    mean, h, bald = uncertainty(probs)
    print("stack", tuple(probs.shape), "var max", f"{probs.var(0).max().item():.6f}")
    print("mean", mean.round(decimals=4))
    print("entropy", h.round(decimals=4))
    print("bald", bald.abs().max().item() < 1e-5)

# uncertainty of a fixed set of "passes" (deterministic stand-in for sampled passes)
logits = torch.stack([torch.sin(torch.arange(12.0).reshape(3, 4) * (t + 1) * 0.3) * 3 for t in range(5)])
probs = logits.softmax(-1)
mean, h, bald = uncertainty(probs)
var, mu = torch.var_mean(probs, dim=0, correction=1)
print("pred entropy", h)
print("bald", bald)
print("var_mean", var.round(decimals=4), mu.round(decimals=4), sep="\n")
print("std unbiased=False", probs.std(0, unbiased=False).max())
print("entr", torch.special.entr(mean).sum(-1))
print("argmax", mean.argmax(-1), "conf", mean.max(-1).values)

# log of the MC predictive via logsumexp over passes
log_probs = F.log_softmax(logits, dim=-1)
log_pred = torch.logsumexp(log_probs, dim=0) - math.log(log_probs.shape[0])
print("log pred", log_pred)
print("nll", F.nll_loss(log_pred, torch.tensor([0, 3, 1])))

# dropout helpers in eval/train and invalid p
d = nn.Dropout(0.5)
d.eval()
print(torch.equal(d(x), x), F.dropout(x, 0.3, training=False).equal(x))
try:
    nn.Dropout(p=1.5)
except ValueError as e:
    print(type(e).__name__, e)
print(F.dropout(x, p=1.0, training=True))
print(repr(nn.Dropout(0.25)), nn.Dropout(0.2, inplace=True))
