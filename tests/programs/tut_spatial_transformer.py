# The "Spatial Transformer Networks" tutorial, scaled down to 16x16 single-channel images:
# a localization net regresses a 2x3 affine theta (its last layer initialised to the identity
# transform), F.affine_grid + F.grid_sample warp the input, and a small classifier is trained
# with F.nll_loss. Also direct affine_grid/grid_sample calls with align_corners / modes.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.fc1 = nn.Linear(4 * 7 * 7, 3)
        self.localization = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True),
            nn.Conv2d(4, 5, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(5 * 2 * 2, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.2)
        # Initialize the weights/bias with identity transformation
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 5 * 2 * 2)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x, theta

    def forward(self, x):
        x, theta = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = x.view(-1, 4 * 7 * 7)
        return F.log_softmax(self.fc1(x), dim=1)


model = Net()
data = torch.sin(torch.arange(4 * 256, dtype=torch.float32) * 0.13).view(4, 1, 16, 16)
target = torch.tensor([0, 2, 1, 2])
xs = model.localization(data)
print(xs.shape, model.fc_loc(xs.view(-1, 20)).view(-1, 2, 3)[0])

# the building blocks on their own
theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.8, -0.2, 0.1], [0.3, 0.9, -0.2]]])
img = torch.arange(2 * 16, dtype=torch.float32).view(2, 1, 4, 4)
for ac in (False, True):
    grid = F.affine_grid(theta, (2, 1, 4, 4), align_corners=ac)
    print(ac, grid.shape, grid[0, 0], grid[1, 3, 3])
    out = F.grid_sample(img, grid, align_corners=ac)
    print(out[0, 0, 0], out[1, 0])
print(torch.allclose(F.grid_sample(img, F.affine_grid(theta[:1].expand(2, 2, 3), (2, 1, 4, 4), align_corners=False), align_corners=False), img, atol=1e-5))
g = F.affine_grid(theta, (2, 1, 4, 4), align_corners=False)
print(F.grid_sample(img, g, mode='nearest', align_corners=False)[1, 0])
print(F.grid_sample(img, g * 1.5, padding_mode='border', align_corners=False)[1, 0, 0])
print(F.grid_sample(img, g * 1.5, padding_mode='zeros', align_corners=False)[1, 0, 0])
th = theta.clone().requires_grad_(True)
out = F.grid_sample(img, F.affine_grid(th, (2, 1, 4, 4), align_corners=False), align_corners=False)
out.sum().backward()
print(out.grad_fn.name(), th.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
for step in range(3):
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
with torch.no_grad():
    warped, theta_hat = model.stn(data)
print(warped.shape, theta_hat[1], model.fc_loc[2].bias)
