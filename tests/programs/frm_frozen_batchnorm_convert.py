# detectron2/torchvision FrozenBatchNorm2d: buffers only, a _load_from_state_dict override that
# drops num_batches_tracked, and convert_frozen_batchnorm walking named_children to swap every
# BatchNorm2d in place while copying its statistics.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenBatchNorm2d(nn.Module):
    _version = 3

    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.register_buffer("weight", torch.ones(num_features))
        self.register_buffer("bias", torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features) - eps)

    def forward(self, x):
        scale = self.weight * (self.running_var + self.eps).rsqrt()
        bias = self.bias - self.running_mean * scale
        return x * scale.reshape(1, -1, 1, 1) + bias.reshape(1, -1, 1, 1)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if version is None or version < 2:
            if prefix + "running_mean" not in state_dict:
                state_dict[prefix + "running_mean"] = torch.zeros_like(self.running_mean)
            if prefix + "running_var" not in state_dict:
                state_dict[prefix + "running_var"] = torch.ones_like(self.running_var)
        num_batches_tracked_key = prefix + "num_batches_tracked"
        if num_batches_tracked_key in state_dict:
            del state_dict[num_batches_tracked_key]
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def __repr__(self):
        return f"FrozenBatchNorm2d(num_features={self.num_features}, eps={self.eps})"

    @classmethod
    def convert_frozen_batchnorm(cls, module):
        res = module
        if isinstance(module, nn.BatchNorm2d):
            res = cls(module.num_features)
            if module.affine:
                res.weight.data = module.weight.data.clone().detach()
                res.bias.data = module.bias.data.clone().detach()
            res.running_mean.data = module.running_mean.data
            res.running_var.data = module.running_var.data
            res.eps = module.eps
        else:
            for name, child in module.named_children():
                new_child = cls.convert_frozen_batchnorm(child)
                if new_child is not child:
                    res.add_module(name, new_child)
        return res


def make_net():
    return nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.ReLU(),
        nn.Sequential(nn.Conv2d(2, 2, 1), nn.BatchNorm2d(2)),
    )


net = make_net()
with torch.no_grad():
    for i, (n, t) in enumerate(net.state_dict().items()):
        if t.is_floating_point():
            t.copy_(torch.cos(torch.arange(t.numel(), dtype=torch.float32) + i).view_as(t).abs() * 0.5 + 0.1)
net.eval()
x = torch.linspace(-1, 1, 32).view(2, 1, 4, 4)
ref = net(x)

ckpt = net.state_dict()
frozen = FrozenBatchNorm2d.convert_frozen_batchnorm(make_net())
print(frozen)
print(list(frozen.state_dict().keys()))
print(frozen.load_state_dict(ckpt))
print(sum(p.numel() for p in frozen.parameters()), [n for n, _ in frozen.named_buffers()][:4])
out = frozen(x)
print(torch.allclose(out, ref, atol=1e-6), f"{out.abs().sum().item():.4f}")

plain = {k: v for k, v in ckpt.items() if not k.endswith(("running_mean", "running_var"))}
frozen2 = FrozenBatchNorm2d.convert_frozen_batchnorm(make_net())
print(frozen2.load_state_dict(plain))
print(frozen2[1].running_var, frozen2[3][1].running_mean)
frozen.train()
out = frozen(x)
out.sum().backward()
print([n for n, p in frozen.named_parameters() if p.grad is not None])
print(frozen[1].weight.requires_grad, frozen[1].running_mean)
