# Temperature scaling (Guo et al. 2017): fit a single scalar T on held-out logits with LBFGS,
# then report NLL / ECE before and after, the way calibration tutorials do.
import torch
import torch.nn as nn
import torch.nn.functional as F

n, c = 60, 4
idx = torch.arange(n, dtype=torch.float32)
logits = torch.stack([torch.sin(idx * 0.3 + k) * (3.0 + k) for k in range(c)], dim=1)
labels = (torch.arange(n) * 7 % c)
labels[::3] = logits[::3].argmax(1)


class ModelWithTemperature(nn.Module):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.ones(1) * 1.5)

    def forward(self, logits):
        return logits / self.temperature.unsqueeze(1).expand(logits.size(0), logits.size(1))


def ece(logits, labels, n_bins=10):
    bin_boundaries = torch.linspace(0, 1, n_bins + 1)
    softmaxes = F.softmax(logits, dim=1)
    confidences, predictions = torch.max(softmaxes, 1)
    accuracies = predictions.eq(labels)
    out = torch.zeros(1, device=logits.device)
    for lo, hi in zip(bin_boundaries[:-1], bin_boundaries[1:]):
        in_bin = confidences.gt(lo.item()) * confidences.le(hi.item())
        prop = in_bin.float().mean()
        if prop.item() > 0:
            acc = accuracies[in_bin].float().mean()
            conf = confidences[in_bin].mean()
            out += torch.abs(conf - acc) * prop
    return out


scaler = ModelWithTemperature()
nll = nn.CrossEntropyLoss()
print("before: NLL %.4f ECE %.4f" % (nll(logits, labels).item(), ece(logits, labels).item()))
optimizer = torch.optim.LBFGS([scaler.temperature], lr=0.01, max_iter=50)


def closure():
    optimizer.zero_grad()
    loss = nll(scaler(logits), labels)
    loss.backward()
    return loss


optimizer.step(closure)
print("optimal temperature: %.3f" % scaler.temperature.item())
scaled = scaler(logits)
print("after: NLL %.4f ECE %.4f" % (nll(scaled, labels).item(), ece(scaled, labels).item()))
print(scaled.grad_fn.__class__.__name__, scaled.shape)
print(optimizer.state_dict()["state"][0]["n_iter"])
