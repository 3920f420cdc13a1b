# Looking at big activations in a log: summarized 3-D/4-D tensors with "...", tiny thresholds,
# edgeitems 0/1/5, wrapping of wide float/int/complex/bool rows at several linewidths, restored after.
import torch

feat = torch.arange(2 * 3 * 40 * 30, dtype=torch.float32).view(2, 3, 40, 30) / 100
print(feat)
print(feat[0, 0, :2])
print(feat.long())
wide = torch.linspace(-3, 3, 31)
print(wide)
print(wide * 1000)
print(torch.arange(40, dtype=torch.int64) * 997 - 20000)
print(torch.arange(26) % 3 == 0)
print(torch.complex(torch.linspace(0, 1, 9), torch.linspace(1, 0, 9)))

torch.set_printoptions(threshold=20, edgeitems=2)
print(torch.arange(30).view(5, 6))
print(torch.arange(60.).view(3, 4, 5) / 3)
print(torch.arange(21) > 10)
print(torch.complex(torch.arange(25.), -torch.arange(25.)))
print(torch.arange(25, dtype=torch.float16) * 1.5)
print(torch.arange(25.).requires_grad_() * 2)

torch.set_printoptions(threshold=0, edgeitems=1)
print(torch.arange(3), torch.tensor([5.5]), torch.tensor(7))
print(torch.arange(16.).view(4, 4))
torch.set_printoptions(edgeitems=5, threshold=10)
print(torch.arange(12.), torch.arange(11))
print(torch.arange(200).view(20, 10))
torch.set_printoptions(edgeitems=3, threshold=1000)

for lw in (20, 45, 60, 120):
    torch.set_printoptions(linewidth=lw)
    print("lw", lw)
    print(torch.arange(14.) * 1.25 - 4)
    print(torch.arange(24).view(2, 12) * 11)
    print(torch.arange(12.).view(1, 12).requires_grad_())
torch.set_printoptions(linewidth=80)
print(torch.arange(1001).float())
print(torch.arange(1000).float().view(10, 100).shape, str(torch.arange(1000.).view(10, 100)).count("..."))
print(torch.ones(1, 1, 1, 1001))
print(torch.zeros(1002, 1, dtype=torch.bool))
print(torch.arange(3000).view(10, 10, 30)[..., :2].sum())
