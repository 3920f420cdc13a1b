# A simple torch.Tensor subclass carrying metadata through __torch_function__ (from the
# "Extending torch Python API" notes), created with as_subclass.
import torch


class TaggedTensor(torch.Tensor):
    @staticmethod
    def __new__(cls, data, tag=None):
        t = torch.as_tensor(data).as_subclass(cls)
        t.tag = tag
        return t

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        tags = [a.tag for a in args if isinstance(a, TaggedTensor)]
        out = super().__torch_function__(func, types, args, kwargs)
        if isinstance(out, TaggedTensor):
            out.tag = tags[0] if tags else None
        return out


t = TaggedTensor([1.0, 2.0, 3.0], tag="meters")
print(type(t).__name__, t.tag)
u = t * 2
print(type(u).__name__, u.tag)
s = torch.add(t, 1)
print(type(s).__name__, s.tag, s.tolist())
print(type(t.sum()).__name__)
plain = torch.tensor([1.0]).as_subclass(TaggedTensor)
print(type(plain).__name__, getattr(plain, "tag", "missing"))
