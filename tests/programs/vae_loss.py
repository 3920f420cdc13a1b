# A VAE step: reparameterisation (noise fixed here), BCE(sum) reconstruction + KL divergence.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 16)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps):
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = VAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape) * 0.4)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
data = (torch.sin(torch.arange(4 * 16, dtype=torch.float32)).view(4, 1, 4, 4) + 1) / 2
eps = torch.linspace(-1, 1, 8).view(4, 2)
for epoch in range(5):
    optimizer.zero_grad()
    recon_batch, mu, logvar = model(data, eps)
    loss = loss_function(recon_batch, data, mu, logvar)
    loss.backward()
    optimizer.step()
    print('Epoch: {} Average loss: {:.4f}'.format(epoch, loss.item() / len(data)))
print(recon_batch.shape, mu.shape, recon_batch.grad_fn.name())
