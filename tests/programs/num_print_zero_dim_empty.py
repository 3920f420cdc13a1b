# Printing the small things: 0-d tensors of every dtype and magnitude, empty tensors of every shape
# and dtype, negative integers' column alignment, and the dtype / requires_grad / grad_fn suffixes.
import torch

for v in [0.0, -0.0, 1.0, -1.5, 1e-4, 1e-5, 123456.0, 1e8, 1e10, -1e-10, 3.14159265, float("nan"),
          float("inf"), -float("inf"), 2.0 ** 24, 0.1 + 0.2]:
    print(repr(torch.tensor(v)), torch.tensor(v, dtype=torch.float64))
for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool, torch.float64]:
    print(torch.tensor(1, dtype=dt), torch.tensor([0, 1], dtype=dt), torch.zeros(0, dtype=dt), torch.zeros(2, 0, dtype=dt))
print(torch.tensor(-5), torch.tensor(-128, dtype=torch.int8), torch.tensor(255, dtype=torch.uint8))
print(torch.tensor([], size=(0,)) if False else torch.empty(0), torch.empty(0, 3), torch.empty(3, 0), torch.empty(1, 0, 2))
print(torch.arange(0), torch.arange(0.0), torch.tensor([[]]), torch.tensor([[], []]), torch.ones(0, 0))
print(torch.zeros(0, 3).sum(0), torch.zeros(0, 3).sum(1), torch.zeros(0).sum(), torch.zeros(0).prod(), torch.zeros(0).mean())
print(torch.zeros(0, 2).max(dim=1), torch.tensor([], dtype=torch.long).sum(), torch.zeros(0, dtype=torch.bool).all(), torch.zeros(0, dtype=torch.bool).any())
try:
    torch.zeros(0).max()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(0, 3).argmax(0)
except Exception as e:  # noqa: BLE001
    print(type(e).__name__ + ":", e)
print(torch.tensor([-1, 10, -100]), torch.tensor([[-1], [10], [-100]]), torch.tensor([0, -0, 7]))
print(torch.tensor([-1.0, 10.0, -100.0]), torch.tensor([[-1.5], [10.25], [-100.0]]))
print(torch.tensor([-1, 2], dtype=torch.int16), torch.tensor([[1, 2], [3, 4]], dtype=torch.int32))
print(torch.tensor([1e-3, -1e3]), torch.tensor([1e5, -1e-5]), torch.tensor([-1e-5]), torch.tensor([-12345.0, 1.0]))
w = torch.tensor(2.0, requires_grad=True)
w64 = torch.tensor([1.5, 2.5], dtype=torch.float64, requires_grad=True)
print(w, w * 3, w64, w64 * 2, w64.sum(), w64.mean(), (w64 ** 2).sum().sqrt())
print(torch.nn.Parameter(torch.tensor(0.5)), torch.nn.Parameter(torch.tensor([1.0], dtype=torch.float64)))
print(torch.nn.Parameter(torch.zeros(0)), torch.nn.Parameter(torch.zeros(0, 2)), torch.zeros(0, requires_grad=True) * 2)
print(w64.detach(), w64.data, w64.double(), w64.float(), w64.to(torch.int32), w64.long())
print(torch.tensor([1, 2]).float().requires_grad_(), torch.tensor([[1.0]], requires_grad=True).t())
print(torch.tensor([True, False]) & torch.tensor([True, True]), torch.tensor(True) | torch.tensor(False), ~torch.tensor([True]))
print(str(torch.tensor([1, 2])) == repr(torch.tensor([1, 2])), len(repr(torch.zeros(0, 3))), repr(torch.zeros(0, 3, dtype=torch.int64)))
