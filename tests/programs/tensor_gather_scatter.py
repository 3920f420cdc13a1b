# gather / scatter / scatter_add / index_select / index_add_: the indexing workhorses.
import torch

src = torch.arange(1., 13.).view(3, 4)
idx = torch.tensor([[0, 1], [2, 3], [1, 1]])
print(torch.gather(src, 1, idx))
print(src.gather(0, torch.tensor([[0, 1, 2, 0]])))

# pick the log-probability of each target class, the classic use
logp = torch.log_softmax(torch.tensor([[1., 2., 3.], [1., 0., -1.]]), dim=1)
target = torch.tensor([2, 0])
print(logp.gather(1, target.unsqueeze(1)).squeeze(1))

zeros = torch.zeros(3, 5)
print(zeros.scatter(1, torch.tensor([[0], [2], [4]]), 1.0))
one_hot = torch.zeros(4, 3).scatter_(1, torch.tensor([[0], [2], [1], [2]]), 1)
print(one_hot)
print(torch.zeros(5).scatter_add(0, torch.tensor([0, 1, 1, 4]), torch.tensor([1., 2., 3., 4.])))
print(torch.zeros(3).index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([1., 2., 3.])))
print(src.index_select(1, torch.tensor([0, 3])))

s = torch.arange(6., requires_grad=True)
g = s.view(2, 3).gather(1, torch.tensor([[2, 2], [0, 1]]))
g.sum().backward()
print(g, s.grad, g.grad_fn.name())
v = torch.tensor([1., 2., 3.], requires_grad=True)
out = torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), v.unsqueeze(0))
(out * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward()
print(out, v.grad, out.grad_fn.name())
