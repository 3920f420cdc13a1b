# topk / sort / argsort / kthvalue / max with indices / unique: ranking tensors.
import torch

x = torch.tensor([[3., 1., 4., 1.5], [5., 9., 2., 6.]])
values, indices = torch.topk(x, 2)
print(values, indices)
print(x.topk(1, dim=0))
print(torch.topk(x, 2, largest=False).indices)
print(torch.sort(x, dim=1))
print(x.sort(descending=True).values, x.argsort(dim=1), torch.argsort(x, dim=0, descending=True))
print(torch.max(x, 1), x.max(dim=0).indices, x.min(1)[0])
print(torch.unique(torch.tensor([3, 1, 3, 2, 1])), torch.tensor([3, 1, 3]).unique(return_counts=True))
print(torch.kthvalue(torch.tensor([4., 1., 3.]), 2))

scores = torch.tensor([0.1, 0.7, 0.2, 0.9], requires_grad=True)
top = scores.topk(2).values
top.sum().backward()
print(scores.grad, top.grad_fn.name())
s = torch.tensor([3., 1., 2.], requires_grad=True)
sorted_s, order = s.sort()
(sorted_s * torch.tensor([1., 10., 100.])).sum().backward()
print(sorted_s, order, s.grad)

# accuracy@k, a common pattern
logits = torch.tensor([[0.1, 0.5, 0.4], [0.8, 0.15, 0.05], [0.3, 0.3, 0.4]])
labels = torch.tensor([2, 0, 1])
_, pred = logits.topk(2, 1, True, True)
pred = pred.t()
correct = pred.eq(labels.view(1, -1).expand_as(pred))
print(correct, correct[:1].reshape(-1).float().sum(0, keepdim=True), correct[:2].reshape(-1).float().sum(0))
