# Blog "views are windows": writing through a view (slice, select, diagonal, transpose, unfold,
# narrow) changes the base; writing through a copy (index with list, mask) does not.
import torch

m = torch.zeros(4, 4)
m.diagonal().fill_(1.0)
print(m)
m.diagonal(offset=1).copy_(torch.tensor([2.0, 3.0, 4.0]))
print(m)
m.t()[0].add_(10)
print(m)
row = m.select(0, 3)
row[:] = -1
print(m)
m.narrow(1, 2, 2).mul_(0.5)
print(m)

idx = m[[0, 1]]
idx.fill_(99)
print("after list-index fill", m[0], m[1])
msk = m[m < 0]
msk.zero_()
print("after mask fill", m[3])
m[m < 0] = 7.0
print("masked assignment", m[3])

a = torch.arange(10.0)
win = a.unfold(0, 3, 2)
print(win, win.stride(), win._base is a)
win[1, 1] = 50.0
print(a)
first, second = a.chunk(2)
second += 100
print(a, first._base is a)
left, right = torch.split(a, [3, 7])
right[0] = -3
print(a)

img = torch.arange(2 * 3 * 4, dtype=torch.float32).reshape(2, 3, 4)
chw = img.permute(2, 0, 1)
chw[0] = 0
print(img[:, :, 0])
e = torch.ones(3, 1).expand(3, 4)
print(e.stride(), e.is_contiguous())
ec = e.contiguous()
ec[0, 0] = 5
print(ec, e[0, 0].item())
u = a.view(2, 5)
u.unsqueeze(0)[0, 1, 4] = -1.5
print(a[-1])
y = a.as_strided((3, 3), (1, 1))
print(y)
y2 = a.as_strided((2, 2), (3, 1), 4)
y2.fill_(0)
print(a)
