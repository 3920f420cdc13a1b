# Hand-written exact GP regression as in tutorials: RBF kernel via torch.cdist, softplus-constrained
# hyperparameters (raw_lengthscale, raw_outputscale, raw_noise), exact marginal log likelihood with
# cholesky + cholesky_solve, trained with Adam; posterior mean / variance on a test grid.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


class ExactGP(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.raw_lengthscale = nn.Parameter(torch.tensor(0.0))
        self.raw_outputscale = nn.Parameter(torch.tensor(0.0))
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))

    @property
    def lengthscale(self):
        return F.softplus(self.raw_lengthscale)

    @property
    def outputscale(self):
        return F.softplus(self.raw_outputscale)

    @property
    def noise(self):
        return F.softplus(self.raw_noise) + 1e-4

    def kernel(self, a, b):
        dist = torch.cdist(a / self.lengthscale, b / self.lengthscale)
        return self.outputscale * torch.exp(-0.5 * dist.pow(2))

    def mll(self):
        n = self.train_x.size(0)
        K = self.kernel(self.train_x, self.train_x) + self.noise * torch.eye(n)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(self.train_y.unsqueeze(-1), L)
        data_fit = -0.5 * (self.train_y.unsqueeze(-1) * alpha).sum()
        complexity = -torch.log(torch.diagonal(L)).sum()
        return (data_fit + complexity - 0.5 * n * math.log(2 * math.pi)) / n

    def predict(self, x):
        n = self.train_x.size(0)
        K = self.kernel(self.train_x, self.train_x) + self.noise * torch.eye(n)
        L = torch.linalg.cholesky(K)
        Ks = self.kernel(self.train_x, x)
        alpha = torch.cholesky_solve(self.train_y.unsqueeze(-1), L)
        mean = (Ks.transpose(-1, -2) @ alpha).squeeze(-1)
        v = torch.linalg.solve_triangular(L, Ks, upper=False)
        var = self.outputscale - v.pow(2).sum(0)
        return mean, var


train_x = torch.linspace(0, 1, 15).unsqueeze(-1)
train_y = torch.sin(train_x * (2 * math.pi)).squeeze(-1) + 0.1 * torch.cos(train_x * 23).squeeze(-1)
model = ExactGP(train_x, train_y)
print([n for n, _ in model.named_parameters()])
print(model.state_dict().keys())

optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
for i in range(50):
    optimizer.zero_grad()
    loss = -model.mll()
    loss.backward()
    if i % 10 == 0:
        print(f"Iter {i + 1:2d}/50 - Loss: {loss.item():.3f}  lengthscale: {model.lengthscale.item():.3f}"
              f"  noise: {model.noise.item():.4f}")
    optimizer.step()

print("raw grads", [round(p.grad.item(), 4) for p in model.parameters()])
model.eval()
with torch.no_grad():
    test_x = torch.linspace(0, 1, 6).unsqueeze(-1)
    mean, var = model.predict(test_x)
    lower, upper = mean - 2 * var.sqrt(), mean + 2 * var.sqrt()
print("mean ", mean)
print("var  ", var)
print("lower", lower)
print("upper", upper)
print("truth", torch.sin(test_x * 2 * math.pi).squeeze(-1))
print(mean.requires_grad, var.dtype, mean.shape)
