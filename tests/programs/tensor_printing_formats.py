# When does print(tensor) switch to scientific notation, how wide are the columns, and what do
# linewidth / threshold / edgeitems / precision change: the formatter's corner cases.
import torch

for values in [[1000.0, 0.1], [1000.5, 1.0], [9999.0, 0.5], [10000.0, 0.5], [1e-4, 1.0], [1e-5, 1.0],
               [0.01, 10.0], [12345678.0, 1.0], [123456789.0], [1e8, 1.0], [0.1, 0.2, 0.3],
               [1.0, 2.0, 3.0], [1e10, 2e10], [-1e-3, 5.0], [1e-10], [-0.0], [2.5e-8, -3.0e-7],
               [100.0, -0.25], [float("inf"), 0.001], [float("nan"), 1e9], [1e20, -1e-20]]:
    print(torch.tensor(values))
print(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), torch.tensor([0.1], dtype=torch.float64))
print(torch.tensor([1 / 3, 2 / 3], dtype=torch.float64), torch.tensor([1e-12, 1.0], dtype=torch.float64))
print(torch.tensor([0.5, 1.5], dtype=torch.float16), torch.tensor([65504.0, 0.001], dtype=torch.float16))
print(torch.tensor([-1, 10, -100, 1000]), torch.tensor([2 ** 40, -1]), torch.tensor([[1, -2], [-30, 4]], dtype=torch.int8))
print(torch.tensor([[True], [False]]), torch.tensor(False), torch.tensor([], dtype=torch.bool))
print(torch.zeros(0, 3), torch.zeros(2, 0, 1), torch.ones(1, 1, 1), torch.tensor([[[]]]))
print(torch.arange(24.).view(2, 3, 4) / 7)
print(torch.arange(8).view(2, 2, 2) - 3)
print(torch.arange(16.).view(2, 2, 2, 2))
print(torch.arange(3000).view(3, 1000))
print(torch.arange(10000.).view(100, 100) / 3)
print(torch.arange(2000).view(10, 10, 20).shape, torch.arange(2000).view(10, 10, 20)[0, :2])
print(torch.arange(5000.).view(10, 5, 100))
w = torch.tensor([[0.5, -1.25]], requires_grad=True)
print(w, w * 2, w.sum(), w.detach(), torch.nn.Parameter(torch.tensor([1.0, 2.0])))
print([torch.tensor(1.5), torch.tensor([2])], {"x": torch.tensor([0.25])}, (torch.tensor(True),))

torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 1234.5678]), torch.tensor([1e-5, 1.0]), torch.tensor(3.14159, dtype=torch.float64))
torch.set_printoptions(precision=6)
print(torch.tensor([1.23456789, 2.0]), torch.tensor([0.1]))
torch.set_printoptions(precision=4, sci_mode=True)
print(torch.tensor([1.5, 200.0]), torch.tensor([3, 4]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-6, 1e6]), torch.tensor([123456789.0]))
torch.set_printoptions(sci_mode=None, linewidth=40)
print(torch.arange(20.) / 4)
print(torch.arange(30))
torch.set_printoptions(threshold=10, edgeitems=2, linewidth=80)
print(torch.arange(11), torch.arange(10), torch.arange(36.).view(6, 6))
print(torch.arange(60).view(3, 4, 5))
torch.set_printoptions(profile="short")
print(torch.tensor([1.23456, 2.0]), torch.arange(1500))
torch.set_printoptions(profile="full")
print(torch.arange(1001)[-5:], len(str(torch.arange(1200))))
torch.set_printoptions(profile="default")
print(torch.arange(1200.))
