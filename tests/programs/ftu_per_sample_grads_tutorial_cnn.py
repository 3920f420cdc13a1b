# The torch.func per-sample-gradients tutorial, nearly verbatim: the MNIST-style CNN (conv, conv,
# max_pool, dropout in eval, fc), compute_grad with unsqueeze(0), the per-example loop, then
# vmap(grad(compute_loss), in_dims=(None, None, 0, 0)) over params/buffers and an allclose check.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.fc1 = nn.Linear(16 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


batch_size = 32
data = torch.sin(torch.arange(batch_size * 12 * 12, dtype=torch.float32) * 0.05).view(batch_size, 1, 12, 12)
targets = torch.arange(batch_size) % 10

model = SimpleCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.2)

predictions = model(data)
loss = loss_fn(predictions, targets)
print(f"batch loss: {loss.item():.4f}")


def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    sample_grads = [torch.stack(shards) for shards in sample_grads]
    return sample_grads


per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape)

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
print("all close:", all(torch.allclose(a, b, atol=1e-6) for a, b in zip(per_sample_grads, ft_per_sample_grads.values())))
mean_of_per_sample = {k: v.mean(0) for k, v in ft_per_sample_grads.items()}
model.zero_grad()
loss.backward()
print("mean of per-sample grads == batch grad:",
      all(torch.allclose(mean_of_per_sample[k], p.grad, atol=1e-6) for k, p in model.named_parameters()))
print("fc2.bias grad of sample 3:", ft_per_sample_grads["fc2.bias"][3].round(decimals=4))
