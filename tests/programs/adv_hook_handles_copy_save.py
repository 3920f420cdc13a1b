# An interpretability wrapper that keeps its hook handles as attributes (self.handles = [...]),
# then gets deep-copied (a frozen teacher copy for distillation / an attack target) and saved
# whole with torch.save: each copy's handles must remove that copy's hooks only.
import copy
import io
import torch
import torch.nn as nn


class Inspected(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
        self.acts = {}
        self.handles = [
            self.body[0].register_forward_hook(self._keep("fc1")),
            self.body[1].register_forward_hook(self._keep("relu")),
        ]

    def _keep(self, name):
        return _Recorder(self.acts, name)

    def forward(self, x):
        return self.body(x)

    def detach_hooks(self):
        for h in self.handles:
            h.remove()
        self.handles = []


class _Recorder:
    """A picklable hook (lambdas and closures cannot be saved)."""

    def __init__(self, store, name):
        self.store, self.name = store, name

    def __call__(self, module, inputs, output):
        self.store[self.name] = output.detach()


student = Inspected()
with torch.no_grad():
    for i, p in enumerate(student.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))
x = torch.linspace(-1, 1, 6).view(2, 3)
student(x)
print(sorted(student.acts), student.acts["relu"])

teacher = copy.deepcopy(student)
teacher.requires_grad_(False)
teacher.acts.clear()
teacher(x * 2)
print(sorted(teacher.acts), sorted(student.acts))
print(torch.equal(student.acts["fc1"], teacher.acts["fc1"]))
print([h.id for h in teacher.handles] == [h.id for h in student.handles])

teacher.detach_hooks()
print(len(teacher.body[0]._forward_hooks), len(student.body[0]._forward_hooks))
student.acts.clear(); teacher.acts.clear()
student(x); teacher(x)
print(sorted(student.acts), sorted(teacher.acts))

buf = io.BytesIO()
torch.save(student, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=False)
loaded.acts.clear()
loaded(x)
print(sorted(loaded.acts), torch.equal(loaded.acts["relu"], student.acts["relu"]))
loaded.handles[0].remove()
loaded.acts.clear(); student.acts.clear()
loaded(x); student(x)
print(sorted(loaded.acts), sorted(student.acts))
with loaded.handles[1]:
    pass
print(len(loaded.body[1]._forward_hooks), len(student.body[1]._forward_hooks))
new = nn.Linear(1, 1).register_forward_hook(lambda *a: None)
print(new.id > max(h.id for h in student.handles))
