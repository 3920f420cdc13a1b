# Common distillation-loss pitfalls users hit: kl_div reduction="mean" warning,
# shape mismatches, soft-target cross_entropy, KLDivLoss vs manual, label smoothing.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

s_logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [0.0, 0.0, 1.0]], requires_grad=True)
t_logits = torch.tensor([[1.5, 1.0, -0.5], [0.3, 0.1, 0.2], [-0.5, 2.0, 0.5], [0.2, -0.2, 0.8]])
T = 3.0
log_p = F.log_softmax(s_logits / T, dim=1)
q = F.softmax(t_logits / T, dim=1)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    mean_loss = F.kl_div(log_p, q, reduction="mean")
    print("mean:", f"{mean_loss.item():.6f}")
    for wi in w:
        print(wi.category.__name__, str(wi.message).split("\n")[0][:80])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    crit = nn.KLDivLoss()
    print(crit, crit.reduction, crit.log_target)
    crit(log_p, q)
    print("module warnings:", len(w))

print("batchmean:", f"{F.kl_div(log_p, q, reduction='batchmean').item():.6f}")
print("sum / n:", f"{(F.kl_div(log_p, q, reduction='sum') / 4).item():.6f}")

# cross_entropy with probability targets equals KL up to the teacher entropy
ce_soft = F.cross_entropy(s_logits / T, q)
entropy = -(q * q.log()).sum(1).mean()
kl = F.kl_div(log_p, q, reduction="batchmean")
print("ce_soft", f"{ce_soft.item():.6f}", "kl+H", f"{(kl + entropy).item():.6f}")
loss = kl * T * T
loss.backward()
print(s_logits.grad)
print(loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())

# zero teacher probability entries: kl_div uses xlogy, no nan
q0 = torch.tensor([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
print("zero-target kl:", F.kl_div(log_p, q0, reduction="none"))
print("label smoothing:", f"{F.cross_entropy(s_logits, torch.tensor([0, 2, 1, 2]), label_smoothing=0.1).item():.6f}")

for args in [(log_p, q[:2]), (log_p, q.t())]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            F.kl_div(*args, reduction="batchmean")
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    F.kl_div(log_p, q, reduction="avg")
except (ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(s_logits, q[:, :2])
except RuntimeError as e:
    print(type(e).__name__, e)
print(F.kl_div(log_p.double(), q.double(), reduction="batchmean").dtype)
