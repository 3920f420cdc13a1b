# Madry-style adversarial training of a tiny CNN with BatchNorm: the attack runs with model.eval() and
# parameters frozen via requires_grad_(False), then training resumes on the adversarial batch;
# reports clean vs robust accuracy and checks no parameter gradients leaked from the attack.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p) * 0.5)

# two classes of 6x6 images: horizontal vs vertical stripes with varying phase
imgs, labels = [], []
grid = torch.arange(6.0)
for k in range(8):
    phase = k * 0.4
    imgs.append(((torch.sin(grid * 1.5 + phase) + 1) / 2).view(6, 1).expand(6, 6))
    labels.append(0)
    imgs.append(((torch.sin(grid * 1.5 + phase) + 1) / 2).view(1, 6).expand(6, 6))
    labels.append(1)
X = torch.stack(imgs).unsqueeze(1)
Y = torch.tensor(labels)


def pgd(model, x, y, eps=0.1, alpha=0.04, steps=5):
    was_training = model.training
    model.eval()
    model.requires_grad_(False)
    x_adv = x.clone()
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        grad, = torch.autograd.grad(loss, x_adv)
        with torch.no_grad():
            x_adv = x_adv + alpha * grad.sign()
            x_adv = torch.min(torch.max(x_adv, x - eps), x + eps).clamp(0, 1)
    model.requires_grad_(True)
    model.train(was_training)
    return x_adv.detach()


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
bn = net.features[1]
for epoch in range(12):
    opt.zero_grad(set_to_none=False)
    x_adv = pgd(net, X, Y)
    assert all(p.grad is None or p.grad.abs().sum() == 0 for p in net.parameters())
    loss = 0.5 * F.cross_entropy(net(X), Y) + 0.5 * F.cross_entropy(net(x_adv), Y)
    loss.backward()
    opt.step()
    if epoch % 3 == 0 or epoch == 11:
        print(f"epoch {epoch:2d} loss {loss.item():.3f} clean {accuracy(net, X, Y):.3f} "
              f"robust {accuracy(net, pgd(net, X, Y), Y):.3f} bn_batches {bn.num_batches_tracked.item()}")

print(net.training, bn.training, all(p.requires_grad for p in net.parameters()))
print(torch.round(bn.running_mean, decimals=2))
x_adv = pgd(net, X[:2], Y[:2])
print(f"{(x_adv - X[:2]).abs().max().item():.3f}", x_adv.requires_grad, x_adv.shape)
print([n for n, p in net.named_parameters() if p.grad is not None][:3])
