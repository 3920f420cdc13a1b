# Classification metrics the way training-loop libraries compute them: confusion counts,
# precision / recall / F1, top-k accuracy and an AverageMeter fed with .item() values.
import torch


class AverageMeter:
    """Computes and stores the average and current value (ImageNet example idiom)."""

    def __init__(self, name, fmt=":f"):
        self.name, self.fmt = name, fmt
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


logits = torch.tensor([[2.0, 1.0, 0.1, -1.0], [0.3, 0.2, 2.5, 0.0], [1.0, 3.0, 0.5, 0.2],
                       [0.1, 0.4, 0.3, 0.9], [1.5, 1.4, 0.0, 0.2], [0.0, 0.1, 0.2, 0.3]],
                      requires_grad=True)
target = torch.tensor([0, 2, 0, 3, 1, 1])
acc1, acc3 = accuracy(logits, target, topk=(1, 3))
print(acc1, acc3, acc1.requires_grad, acc1.shape)

num_classes = 4
preds = logits.argmax(dim=1)
idx = target * num_classes + preds
cm = torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)
print(cm)
tp = cm.diag()
fp = cm.sum(0) - tp
fn = cm.sum(1) - tp
print(tp, fp, fn, tp.dtype)
precision = tp / (tp + fp).clamp(min=1)
recall = tp / (tp + fn).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall)
print(precision, recall)
print(f1, torch.nan_to_num(f1).mean())
print(f1.isnan(), torch.nanmean(f1))
micro = tp.sum() / cm.sum()
print(micro, micro.item(), type(micro.item()))

loss_meter = AverageMeter("Loss", ":.4e")
acc_meter = AverageMeter("Acc@1", ":6.2f")
loss_fn = torch.nn.CrossEntropyLoss()
for start in range(0, 6, 2):
    out, y = logits[start:start + 2], target[start:start + 2]
    loss = loss_fn(out, y)
    a1, = accuracy(out, y)
    loss_meter.update(loss.item(), out.size(0))
    acc_meter.update(a1[0], out.size(0))
    print(loss_meter, "|", acc_meter)
print(isinstance(acc_meter.avg, torch.Tensor), acc_meter.avg)
print(loss.detach(), loss.detach().requires_grad, loss.grad_fn.name())
print(f"{loss.item():.4f} {loss:.3f}")
running = torch.zeros(())
for v in [0.5, 0.25, 0.125]:
    running += torch.tensor(v)
print(running, running / 3, (running / 3).item())
try:
    print(f"Acc@1 {acc1:.2f}")
except TypeError as e:
    print(type(e).__name__, e)
print(f"Acc@1 {acc1.item():.2f} Acc@3 {acc3[0]:.2f}")

# a zero-initialised classifier head: every logit ties (which of the tied classes topk picks is
# PyTorch's sort internals, a known difference, so only argmax, which takes the first, is shown)
zero_head = torch.zeros(6, 10)
labels = torch.tensor([0, 1, 2, 3, 8, 8])
print((zero_head.argmax(1) == labels).float().mean())
