# Floating point gotchas from the forums: arange with float steps (how many elements?),
# linspace/logspace endpoints and integer dtypes, machine epsilon, round-half-to-even, pow rules.
import torch

for args in [(0, 1, 0.1), (1, 2.2, 0.1), (0, 0.3, 0.1), (0.0, 1.0, 1 / 3), (-1, 1, 0.5), (0, 10, 2.5),
             (5, 0, -1.5), (0, 1e-3, 1e-4), (1, 1.5, 0.1)]:
    r = torch.arange(*args)
    print(args, len(r), r[-1].item(), r.dtype)
print(torch.arange(0, 1, 0.1, dtype=torch.float64)[-1].item(), torch.arange(0, 5, 1.5, dtype=torch.int64))
print(torch.arange(-3, 3).float() / 2, torch.arange(10, dtype=torch.uint8)[-3:], torch.arange(0.0, 2.0, 0.5).tolist())
print(torch.linspace(0, 1, 11)[[0, 3, 10]].tolist(), torch.linspace(-1, 1, 3).tolist(), torch.linspace(0, 1, 7)[-1].item())
print(torch.linspace(0, 10, 4, dtype=torch.int64), torch.linspace(0, 1, 5, dtype=torch.float64))
print(torch.linspace(-5, 5, 6, dtype=torch.int32), torch.linspace(10, 0, 4), torch.linspace(0, 1, 1), torch.linspace(2, 3, 2))
print(torch.logspace(0, 3, 4), torch.logspace(-2, 2, 5), torch.logspace(0, 4, 5, base=2), torch.logspace(0, 1, 3, base=10))
print(torch.logspace(0, 2, 3, dtype=torch.int64), torch.logspace(0, 2, 3, dtype=torch.float64).tolist(), torch.logspace(1, 0, 2))

eps = torch.finfo(torch.float32).eps
one = torch.tensor(1.0)
print(eps, one + eps == one, one + eps / 2 == one, one + eps * 0.75 == one, (one + eps).item())
print(torch.tensor(1.0, dtype=torch.float64) + eps / 2 == 1, torch.finfo(torch.float64).eps, torch.finfo(torch.float32).tiny)
print(torch.tensor(0.1) + torch.tensor(0.2) == torch.tensor(0.3), 0.1 + 0.2 == 0.3, (torch.tensor(0.1) * 3).item())
print(torch.tensor(0.1) == torch.tensor(0.1, dtype=torch.float64), torch.tensor(0.1) == 0.1, torch.tensor([0.1]).double() == 0.1)
print(torch.tensor(0.5) == torch.tensor(0.5, dtype=torch.float64), torch.tensor([1, 2]) == torch.tensor([1.0, 2.0]))
print(torch.tensor(16777217.0) == 16777216, torch.tensor(16777217) == torch.tensor(16777217.0), torch.tensor(2 ** 24 + 1).float())
print(torch.full((10,), 0.1, dtype=torch.float64).sum(), torch.full((10,), 0.1, dtype=torch.float64).sum().item(), torch.full((4,), 0.25).sum().item())
print(torch.tensor(1e-45), torch.tensor(1e-46), torch.tensor(3.5e38) * 2, torch.tensor(-3.5e38) * 2, torch.tensor(1e38) * 10)
print(torch.tensor([1e-30]) * 1e-30, torch.tensor(1e30) * torch.tensor(1e30, dtype=torch.float64), torch.exp(torch.tensor([88.0, 89.0, -104.0])))
print(torch.log(torch.tensor([0.0, -1.0, 1e-45])), torch.sqrt(torch.tensor([-1.0, -0.0])), 0.0 / torch.tensor([0.0, 1.0]))

x = torch.tensor([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49999997, 2.5000002])
print(torch.round(x), x.round().long(), torch.round(x * 10) / 10)
print(torch.round(torch.tensor([0.125, 0.375, 1.005, 2.675]), decimals=2), torch.round(torch.tensor([15.0, 25.0, 35.0]), decimals=-1))
print(torch.round(torch.tensor([0.5, 1.5], dtype=torch.float64)), [round(v) for v in [0.5, 1.5, 2.5]], torch.tensor(2.5).round().item())
print(torch.tensor([2, 3]) ** 2, torch.tensor([2, 3]) ** 2.0, torch.tensor([2, 3]) ** 0.5, 2 ** torch.tensor([0, 1, 10]), 2.0 ** torch.tensor([0, 1]))
print(torch.tensor(-8.0) ** (1 / 3), torch.tensor([-2.0]) ** 2, torch.tensor([-2.0]) ** 0.5, torch.tensor([0.0]) ** 0, torch.tensor([0.0]) ** -1)
print(torch.tensor([2]) ** 62, torch.tensor([2]) ** 63, torch.tensor([3], dtype=torch.int32) ** 21, torch.tensor([10], dtype=torch.uint8) ** 3)
for base, exponent in [(torch.tensor([2, 3]), -1), (torch.tensor([2, 3]), torch.tensor([-1, 2])), (torch.tensor([1, -1]), -2)]:
    try:
        print(base ** exponent)
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.pow(torch.tensor([4, 9]), 0.5), torch.pow(2, torch.tensor([3.0])), torch.float_power(torch.tensor([2]), 3), torch.float_power(torch.tensor([2.0]), -1))
print(torch.tensor(3) / 2, (torch.tensor(3) / 2).dtype, torch.tensor([1, 2]) * 1.5, torch.tensor(7) * 0.1, torch.tensor([1, 2], dtype=torch.int32) * 1.5)
print(torch.tensor([1, 2]) + True, torch.tensor([1.5]) * False, torch.tensor([True]) + 2.5, torch.tensor([1, 2]) - torch.tensor(1.0, dtype=torch.float64))
print(torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1, torch.nextafter(torch.tensor(0.0), torch.tensor(1.0)))
