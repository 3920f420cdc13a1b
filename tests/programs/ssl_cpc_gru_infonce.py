# Contrastive Predictive Coding: a strided Conv1d encoder, a GRU autoregressive context, one Linear
# predictor per future step (nn.ModuleList), InfoNCE over the batch via torch.mm and log_softmax with
# the diagonal as positives, and accuracy via argmax == arange; a few Adam steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CPC(nn.Module):
    def __init__(self, timestep=2, z_dim=6, c_dim=5):
        super().__init__()
        self.timestep = timestep
        self.encoder = nn.Sequential(nn.Conv1d(1, z_dim, kernel_size=4, stride=2, padding=1, bias=False),
                                     nn.BatchNorm1d(z_dim), nn.ReLU(inplace=True))
        self.gru = nn.GRU(z_dim, c_dim, num_layers=1, bidirectional=False, batch_first=True)
        self.Wk = nn.ModuleList([nn.Linear(c_dim, z_dim) for _ in range(timestep)])
        self.lsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, x, t_samples, hidden):
        batch = x.size(0)
        z = self.encoder(x).transpose(1, 2)
        encode_samples = torch.empty((self.timestep, batch, z.size(2))).float()
        for i in range(1, self.timestep + 1):
            encode_samples[i - 1] = z[:, t_samples + i, :].view(batch, -1)
        forward_seq = z[:, :t_samples + 1, :]
        output, hidden = self.gru(forward_seq, hidden)
        c_t = output[:, t_samples, :].view(batch, -1)
        pred = torch.empty((self.timestep, batch, z.size(2))).float()
        for i in range(self.timestep):
            pred[i] = self.Wk[i](c_t)
        nce, correct = 0, 0
        for i in range(self.timestep):
            total = torch.mm(encode_samples[i], torch.transpose(pred[i], 0, 1))
            correct += torch.sum(torch.eq(torch.argmax(F.softmax(total, dim=0), dim=0), torch.arange(0, batch)))
            nce += torch.sum(torch.diag(self.lsoftmax(total)))
        nce /= -1.0 * batch * self.timestep
        accuracy = 1.0 * correct.item() / (batch * self.timestep)
        return accuracy, nce, hidden


model = CPC()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p) * 0.4)
print([(n, tuple(p.shape)) for n, p in model.named_parameters()][:6])

x = torch.sin(torch.linspace(0, 12, 4 * 32)).view(4, 1, 32) * torch.linspace(0.5, 1.5, 4).view(4, 1, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.9, 0.98), eps=1e-9, amsgrad=True)
for step in range(6):
    hidden = torch.zeros(1, 4, 5)
    acc, nce, hidden = model(x, t_samples=8, hidden=hidden)
    opt.zero_grad()
    nce.backward()
    opt.step()
    print(step, f"nce={nce.item():.4f}", f"acc={acc:.2f}", tuple(hidden.shape), nce.grad_fn.name())
print("gru grad", model.gru.weight_hh_l0.grad[:2, :3].round(decimals=4))
print("Wk[1] grad", model.Wk[1].bias.grad.round(decimals=4))
