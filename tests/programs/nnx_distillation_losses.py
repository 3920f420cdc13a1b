# Knowledge distillation and robust regression losses in a training loop: KLDivLoss with
# reduction='batchmean' (and the 'mean' warning case avoided), log_target=True, temperature scaling,
# CrossEntropyLoss with soft (probability) targets + label_smoothing, ignore_index on padded tokens,
# BCEWithLogitsLoss(pos_weight), SmoothL1Loss(beta) vs HuberLoss(delta), loss reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

student = nn.Linear(3, 4)
teacher = nn.Linear(3, 4)
with torch.no_grad():
    student.weight.copy_(torch.linspace(-0.5, 0.5, 12).view(4, 3))
    student.bias.zero_()
    teacher.weight.copy_(torch.linspace(1.0, -1.0, 12).view(4, 3))
    teacher.bias.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
X = torch.linspace(-2, 2, 15).view(5, 3)
labels = torch.tensor([0, 3, 1, 2, 3])

kl = nn.KLDivLoss(reduction="batchmean")
kl_log = nn.KLDivLoss(reduction="batchmean", log_target=True)
ce = nn.CrossEntropyLoss(label_smoothing=0.1)
print(kl, kl_log, ce, nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=0.0))
T = 2.0
opt = torch.optim.SGD(student.parameters(), lr=0.3)
for step in range(4):
    opt.zero_grad()
    s_logits = student(X)
    with torch.no_grad():
        t_logits = teacher(X)
    soft = kl(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * T * T
    soft_log = kl_log(F.log_softmax(s_logits / T, dim=1), F.log_softmax(t_logits / T, dim=1)) * T * T
    hard = ce(s_logits, labels)
    loss = 0.7 * soft + 0.3 * hard
    loss.backward()
    opt.step()
    print(step, f"{soft.item():.5f} {soft_log.item():.5f} {hard.item():.5f} {loss.item():.5f}")
print(student.weight.grad, student.bias.grad)

# soft targets directly in CrossEntropyLoss (equivalent to distilling without the KL constant)
probs = F.softmax(teacher(X), dim=1).detach()
logits = student(X)
print(F.cross_entropy(logits, probs), F.cross_entropy(logits, probs, label_smoothing=0.2))
print(F.cross_entropy(logits, probs, reduction="none"))
try:
    nn.CrossEntropyLoss(ignore_index=0)(logits, probs)  # ignore_index only makes sense for class indices
except RuntimeError as e:
    print("RuntimeError", e)
print(F.kl_div(F.log_softmax(logits, 1), probs, reduction="sum"), F.kl_div(F.log_softmax(logits, 1), probs, reduction="none")[0])

# sequence labelling with padding: ignore_index=-100 (the default) skips pad positions
tok_logits = torch.linspace(-1, 1, 2 * 4 * 3).view(2, 4, 3)  # (batch, seq, classes)
tok_target = torch.tensor([[0, 2, -100, -100], [1, 1, 2, -100]])
lossf = nn.CrossEntropyLoss()
print(lossf(tok_logits.view(-1, 3), tok_target.view(-1)), lossf(tok_logits.transpose(1, 2), tok_target))
print(F.cross_entropy(tok_logits.transpose(1, 2), tok_target, reduction="none", label_smoothing=0.1))
print(F.cross_entropy(tok_logits.transpose(1, 2), tok_target, reduction="sum"))
all_pad = torch.full((2, 4), -100)
print(F.cross_entropy(tok_logits.transpose(1, 2), all_pad))

# imbalanced multi-label: pos_weight = negatives / positives per class
y = torch.tensor([[1., 0., 0.], [0., 0., 1.], [0., 0., 0.], [1., 0., 1.]])
pos_weight = (y.shape[0] - y.sum(0)) / y.sum(0).clamp(min=1)
z = torch.linspace(-1.5, 1.5, 12).view(4, 3).requires_grad_()
bce = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
out = bce(z, y)
out.backward()
print(pos_weight, out, z.grad[0])

pred = torch.tensor([0.0, 0.4, 1.5, -3.0])
truth = torch.zeros(4)
for beta in [0.5, 1.0, 2.0]:
    sl1, hub = nn.SmoothL1Loss(beta=beta), nn.HuberLoss(delta=beta)
    print(sl1, hub, f"{sl1(pred, truth).item():.5f} {hub(pred, truth).item():.5f}")
print(F.huber_loss(pred, truth, reduction="none", delta=0.5), F.smooth_l1_loss(pred, truth, reduction="none", beta=0.5))
