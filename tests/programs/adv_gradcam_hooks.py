# Grad-CAM on a tiny CNN: register_forward_hook captures the last conv activations,
# register_full_backward_hook captures the gradients flowing out of it, handles are removed after.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 6, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(x, 2)
        x = F.relu(self.conv2(x))
        return self.fc(self.pool(x).flatten(1))


model = SmallCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + 0.9 * i).view_as(p) * 0.5)
model.eval()


class GradCAM:
    def __init__(self, model, layer):
        self.model = model
        self.activations = None
        self.gradients = None
        self.handles = [
            layer.register_forward_hook(self._save_activation),
            layer.register_full_backward_hook(self._save_gradient),
        ]

    def _save_activation(self, module, inputs, output):
        self.activations = output.detach()

    def _save_gradient(self, module, grad_input, grad_output):
        self.gradients = grad_output[0].detach()
        print("backward hook:", type(module).__name__, len(grad_input), len(grad_output),
              tuple(grad_output[0].shape), grad_input[0] is None or tuple(grad_input[0].shape))

    def __call__(self, x, class_idx=None):
        logits = self.model(x)
        if class_idx is None:
            class_idx = logits.argmax(dim=1)
        self.model.zero_grad()
        score = logits.gather(1, class_idx.view(-1, 1)).sum()
        score.backward()
        weights = self.gradients.mean(dim=(2, 3), keepdim=True)
        cam = F.relu((weights * self.activations).sum(dim=1, keepdim=True))
        cam = F.interpolate(cam, size=x.shape[-2:], mode="bilinear", align_corners=False)
        flat = cam.flatten(1)
        lo, hi = flat.min(dim=1, keepdim=True).values, flat.max(dim=1, keepdim=True).values
        cam = ((flat - lo) / (hi - lo + 1e-8)).view_as(cam)
        return cam, class_idx

    def remove(self):
        for h in self.handles:
            h.remove()


xs = torch.stack([
    torch.outer(torch.linspace(-1, 1, 8), torch.linspace(0, 1, 8)),
    torch.outer(torch.cos(torch.linspace(0, 3, 8)), torch.sin(torch.linspace(0, 3, 8))),
]).unsqueeze(1)
cam_tool = GradCAM(model, model.conv2)
cam, cls = cam_tool(xs)
print("classes", cls.tolist(), cam.shape)
print(torch.round(cam[0, 0], decimals=2))
print(cam_tool.activations.shape, cam_tool.gradients.shape)
print(len(model.conv2._forward_hooks), len(model.conv2._backward_hooks))
cam_tool.remove()
print(len(model.conv2._forward_hooks), len(model.conv2._backward_hooks))

# after removal the hooks do not fire any more
cam_tool.activations = None
model(xs).sum().backward()
print(cam_tool.activations is None)

# hooks can modify: forward hook returning a new output, backward hook returning new grad_input
h1 = model.conv1.register_forward_hook(lambda m, i, o: o * 0.0)
print(model(xs).detach())
h1.remove()
x_in = xs.clone().requires_grad_()
h2 = model.conv1.register_full_backward_hook(lambda m, gi, go: (gi[0] * 2,))
model(x_in).sum().backward()
g_twice = x_in.grad.clone()
h2.remove()
x_in.grad = None
model(x_in).sum().backward()
print(torch.allclose(g_twice, 2 * x_in.grad))
