# Evaluation bookkeeping: a confusion matrix by index_put_/bincount, per-class accuracy, argmax preds.
import torch

logits = torch.tensor([[2.0, 0.1, 0.3], [0.2, 1.5, 0.1], [0.3, 0.2, 0.1], [0.1, 0.1, 3.0],
                       [1.0, 2.0, 0.5], [0.2, 0.1, 0.9]])
labels = torch.tensor([0, 1, 2, 2, 0, 2])
preds = logits.argmax(dim=1)
num_classes = 3
confusion = torch.zeros(num_classes, num_classes, dtype=torch.int64)
for t, p in zip(labels.view(-1), preds.view(-1)):
    confusion[t.long(), p.long()] += 1
print(confusion)
print(confusion.diag() / confusion.sum(1), confusion.diag().sum().item() / confusion.sum().item())
cm = torch.bincount(labels * num_classes + preds, minlength=num_classes ** 2).view(num_classes, num_classes)
print(torch.equal(cm, confusion))
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.int64)
cm2.index_put_((labels, preds), torch.ones(6, dtype=torch.int64), accumulate=True)
print(torch.equal(cm2, confusion))
probs = torch.softmax(logits, dim=1)
confidence, predicted = probs.max(1)
print(confidence, predicted)
print((predicted == labels).float().mean().item(), (predicted == labels).sum().item())
print(torch.histc(torch.tensor([1., 2., 1., 4.]), bins=4, min=0, max=4))
