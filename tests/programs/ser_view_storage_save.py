# torch.save of tensor views: saving a slice stores the whole underlying storage (users clone()
# first to shrink the file), views saved together stay views of one storage after loading,
# and strides / storage offsets / dtypes are preserved.
import io

import torch


def size_of(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf, buf.getbuffer().nbytes


big = torch.arange(10000, dtype=torch.float32)
_, n_view = size_of(big[:10])
_, n_clone = size_of(big[:10].clone())
print("slice saves whole storage:", n_view > 20000, "clone is small:", n_clone < 5000)

base = torch.arange(12, dtype=torch.float64).view(3, 4)
views = {"base": base, "row": base[1], "col": base[:, 2], "t": base.t(), "tail": base.view(-1)[5:9]}
buf, _ = size_of(views)
buf.seek(0)
got = torch.load(buf, weights_only=True)
for k, v in got.items():
    print(k, tuple(v.shape), v.stride(), v.storage_offset(), v.is_contiguous(), v.dtype)
got["base"][1, 2] = -1.0
print(got["row"], got["col"], got["t"][2], got["tail"])
print(got["base"].untyped_storage().data_ptr() == got["col"].untyped_storage().data_ptr())

single = base[2, 1:]
buf, _ = size_of(single)
buf.seek(0)
s = torch.load(buf, weights_only=True)
print(s, s.storage_offset(), s.untyped_storage().nbytes(), s.untyped_storage().size())

mixed = {
    "bool": torch.tensor([True, False]),
    "i8": torch.tensor([-3, 4], dtype=torch.int8),
    "c64": torch.tensor([1 + 2j, -0.5j], dtype=torch.complex64),
    "empty": torch.empty(0, 3),
    "scalar": torch.tensor(7.5),
    "u8": torch.tensor([255, 0], dtype=torch.uint8),
}
buf, _ = size_of(mixed)
buf.seek(0)
back = torch.load(buf, weights_only=True)
for k, v in back.items():
    print(k, v, v.dtype, tuple(v.shape))
