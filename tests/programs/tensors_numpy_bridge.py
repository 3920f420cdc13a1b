# "Tensors" tutorial: initialising, attributes, operations, and the bridge with NumPy
# (tensors from numpy and numpy views of tensors share memory, so in-place changes show through).
import numpy as np
import torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
print(x_data, x_np, x_np.dtype)

x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(x_rand.shape, x_rand.dtype, bool(((x_rand >= 0) & (x_rand < 1)).all()))

shape = (2, 3,)
print(f"Ones Tensor: \n {torch.ones(shape)} \n")
print(f"Zeros Tensor: \n {torch.zeros(shape)}")

tensor = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)

t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)

tensor = torch.arange(16, dtype=torch.float32).reshape(4, 4) / 4
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1, torch.equal(y1, y2), torch.equal(y1, y3))

z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(z1, torch.equal(z1, z2), torch.equal(z1, z3))

agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))

print(f"{tensor} \n")
tensor.add_(5)
print(tensor)

# Tensor to NumPy array
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")

# NumPy array to Tensor
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
t.mul_(3)
print(n, t.dtype)
n[0] = -1
print(t)

# torch.tensor copies, torch.as_tensor shares, .clone() breaks the link
a = np.arange(4.0)
copied, shared = torch.tensor(a), torch.as_tensor(a)
a[1] = 100
print(copied, shared)
view = shared.numpy()
view[2] = -7
print(a, shared.clone().numpy() is view)

# dtypes follow numpy's
for arr in (np.zeros(2, dtype=np.float32), np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int64),
            np.zeros(2, dtype=np.bool_), np.zeros(2, dtype=np.uint8), np.zeros(2)):
    print(arr.dtype, torch.from_numpy(arr).dtype, torch.tensor(arr).dtype, torch.from_numpy(arr).numpy().dtype)

# Slices are views on both sides
m = np.arange(6.0).reshape(2, 3)
tm = torch.from_numpy(m)
tm[:, 0] = 0
col = tm[:, 1]
col += 10
print(m)
print(tm.t().numpy().flags["C_CONTIGUOUS"], tm.numpy().shape)

# Results of operations are new memory
r = t + 1
r[0] = 123
print(t, r)

# A tensor that requires grad must be detached first
w = torch.tensor([1.0, 2.0], requires_grad=True)
w_np = w.detach().numpy()
with torch.no_grad():
    w.mul_(2)
print(w_np, w)
print(np.asarray(torch.arange(3)), torch.arange(3).tolist(), torch.tensor(np.float64(2.5)))
