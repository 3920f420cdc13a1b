# Tutorial "torch.from_numpy vs torch.tensor": from_numpy/numpy() share memory, torch.tensor copies,
# as_tensor shares when dtype matches; writes are visible on the other side.
import numpy as np
import torch

a = np.arange(6, dtype=np.float32)
t = torch.from_numpy(a)
a[0] = 100
print(t)
t.add_(1)
print(a)
c = torch.tensor(a)
a[1] = -5
print(c[1].item(), t[1].item())
s = torch.as_tensor(a)
s[2] = 42
print(a[2])
d = torch.as_tensor(a, dtype=torch.float64)
d[3] = 7
print(a[3], d.dtype)
n = t.numpy()
n[4] = 0.5
print(t[4].item(), np.shares_memory(n, a))
v = t.view(2, 3)
nv = v.numpy()
print(nv.shape, nv.strides, np.shares_memory(nv, a))
tt = v.t()
ntt = tt.numpy()
print(ntt.strides, ntt.flags["C_CONTIGUOUS"], np.shares_memory(ntt, a))
print(tt.stride(), tt.is_contiguous())

b = np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::2]
tb = torch.from_numpy(b)
print(tb.stride(), tb.is_contiguous(), tb.storage_offset(), tb.dtype)
tb[0, 1] = -1
print(b)
f = np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3))
tf = torch.from_numpy(f)
print(tf.stride(), tf.is_contiguous(), tf.t().is_contiguous())

w = torch.ones(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as e:
    print(type(e).__name__, e)
wn = w.detach().numpy()
wn[0] = 9
print(w)
x = torch.arange(4.0)
y = x.clone().numpy()
y[0] = -1
print(x)
neg = np.arange(5)[::-1]
try:
    torch.from_numpy(neg)
except ValueError as e:
    print(type(e).__name__, e)
print(torch.from_numpy(neg.copy()))
ro = np.arange(3.0)
ro.flags.writeable = True
print(torch.from_numpy(ro).dtype, torch.from_numpy(np.array(5)).shape)
