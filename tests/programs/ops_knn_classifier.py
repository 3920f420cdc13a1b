# A k-nearest-neighbours classifier in plain tensor ops, as in the classic "kNN in PyTorch" answers:
# pairwise distances (cdist, or the expanded ||a||^2 - 2ab + ||b||^2 form), topk, mode for voting,
# bincount, and accuracy -- then a soft (differentiable) version with a gradient.
import torch

train_x = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [5., 5.], [5., 6.], [6., 5.], [0., 5.], [1., 6.]])
train_y = torch.tensor([0, 0, 0, 1, 1, 1, 2, 2])
test_x = torch.tensor([[0.2, 0.4], [5.3, 5.6], [0.4, 5.7], [3.1, 3.2]])
test_y = torch.tensor([0, 1, 2, 1])

d = torch.cdist(test_x, train_x)
print(d.shape, d[0])
sq = (test_x ** 2).sum(1, keepdim=True) - 2 * test_x @ train_x.T + (train_x ** 2).sum(1)
print(torch.allclose(sq.clamp_min(0).sqrt(), d, atol=1e-5), sq.clamp_min(0).sqrt()[3])
manual = (test_x[:, None, :] - train_x[None, :, :]).norm(dim=-1)
print(torch.allclose(manual, d), torch.dist(test_x[0], train_x[0]))

k = 3
knn_d, knn_i = d.topk(k, dim=1, largest=False)
print(knn_i, knn_d)
votes = train_y[knn_i]
print(votes)
pred = torch.mode(votes, dim=1).values
print(pred, (pred == test_y).float().mean(), (pred == test_y).sum().item())
counts = torch.stack([torch.bincount(row, minlength=3) for row in votes])
print(counts, counts.argmax(1))
one_hot = torch.nn.functional.one_hot(votes, 3).sum(1)
print(torch.equal(one_hot, counts), one_hot.dtype)
nearest = d.argmin(1)
print(nearest, train_y[nearest], d.min(1))

# manhattan and chebyshev distances
print(torch.cdist(test_x, train_x, p=1)[3], torch.cdist(test_x, train_x, p=float("inf"))[3])

# soft kNN: a softmax over negative distances, differentiable with respect to the query
q = test_x.clone().requires_grad_()
w = torch.softmax(-torch.cdist(q, train_x), dim=1)
probs = w @ torch.nn.functional.one_hot(train_y, 3).float()
loss = torch.nn.functional.nll_loss(probs.clamp_min(1e-8).log(), test_y)
loss.backward()
print(probs, loss, q.grad)
