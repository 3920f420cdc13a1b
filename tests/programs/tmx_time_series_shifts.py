# Time-series preprocessing: differencing with diff(n, prepend, append), cumulative sums/products with
# dtype=, roll/flip/rot90 for augmentation, take_along_dim/gather (negative dims) to reorder by argsort.
import torch

price = torch.tensor([10, 12, 11, 15, 15, 14], dtype=torch.int32)
print(torch.diff(price), torch.diff(price).dtype)
print(price.diff(n=2), price.diff(prepend=torch.tensor([9], dtype=torch.int32)))
print(torch.diff(price.float(), append=torch.tensor([20.0, 21.0]), n=2))
m = torch.tensor([[1.0, 4.0, 9.0], [2.0, 2.0, 5.0]])
print(torch.diff(m, dim=0), torch.diff(m, dim=-1, prepend=torch.zeros(2, 1)))
print(torch.diff(torch.tensor([True, False, False, True])))
print(torch.diff(price, n=0), torch.diff(price, n=10))

print(price.cumsum(0), price.cumsum(0).dtype, price.cumsum(0, dtype=torch.float64))
print(torch.cumsum(torch.tensor([True, True, False]), 0))
print(torch.cumprod(torch.tensor([1, 2, 3], dtype=torch.uint8), 0).dtype)
print(torch.cumprod(price, 0, dtype=torch.float32))
print(torch.tensor([0.5, 0.5, 0.5], dtype=torch.float16).cumsum(0))
r = torch.tensor([1.1, 0.9, 1.2, 1.0])
print(r.cumprod(0), r.log().cumsum(0).exp())

# cumprod gradient through a zero
x = torch.tensor([2.0, 0.0, 3.0, 4.0], requires_grad=True)
x.cumprod(0).sum().backward()
print(x.grad)
x2 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.cumsum(x2, dim=-1).mul(torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
print(x2.grad)
z = torch.tensor([[0.0, 1.0, 2.0], [3.0, -1.0, 1.0]], requires_grad=True)
print(torch.logcumsumexp(z, dim=1))
torch.logcumsumexp(z, dim=1).sum().backward()
print(z.grad)

img = torch.arange(12).view(3, 4)
print(torch.roll(img, 1), torch.roll(img, shifts=(1, -1), dims=(0, 1)))
print(img.roll(-5, 1))
print(torch.rot90(img), torch.rot90(img, -1), torch.rot90(img, 2, dims=(1, 0)))
print(img.flip(0, 1), torch.fliplr(img), torch.flipud(img))
try:
    torch.rot90(img, 1, dims=(0, 0))
except Exception as e:
    print(type(e).__name__, e)

# reorder features by their ranking along the last dim
feats = torch.tensor([[0.3, 0.1, 0.9], [0.5, 0.7, 0.2]], requires_grad=True)
order = feats.argsort(dim=-1, descending=True)
sorted_feats = torch.take_along_dim(feats, order, dim=-1)
print(sorted_feats, torch.take_along_dim(feats, torch.tensor([5, 0])))
print(torch.gather(feats, -1, order[:, :1]), feats.gather(-2, torch.tensor([[1, 0, 1]])))
(sorted_feats[:, 0].sum() + feats.gather(-1, order[:, -1:]).sum() * 2).backward()
print(feats.grad)
onehot = torch.zeros(4, 5).scatter_(1, torch.tensor([[0], [4], [2], [4]]), 1.0)
print(onehot, onehot.argmax(-1))

# range of each window before scaling, and guarding empty windows
lo, hi = torch.aminmax(price)
print(lo, hi, torch.aminmax(price.view(2, 3), dim=-1))
for window in (price[:0], price.view(2, 3)[:, :0]):
    try:
        torch.aminmax(window, dim=-1) if window.dim() > 1 else torch.aminmax(window)
    except Exception as e:
        print(type(e).__name__, e)
try:
    (price > 12).cumsum(0, dtype=torch.bool)
except Exception as e:
    print(type(e).__name__, e)
print((price > 12).cumsum(0), (price > 12).int().cumprod(0))
