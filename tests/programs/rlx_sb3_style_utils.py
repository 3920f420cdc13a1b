# Helpers in the style of Stable-Baselines3's common/ modules: polyak_update with out= arithmetic
# under th.no_grad(), obs preprocessing (one_hot for Discrete, /255 for uint8 images, float for
# Box), sum_independent_dims, TanhBijector with finfo eps clamping, explained_variance in torch,
# and freezing a target network with requires_grad_(False).
import copy
import numpy as np
import torch as th
import torch.nn as nn
import torch.nn.functional as F


def polyak_update(params, target_params, tau):
    with th.no_grad():
        for param, target_param in zip(params, target_params):
            target_param.data.mul_(1 - tau)
            th.add(target_param.data, param.data, alpha=tau, out=target_param.data)


def polyak_update_out(params, target_params, tau):
    with th.no_grad():
        for param, target_param in zip(params, target_params):
            th.mul(target_param, 1 - tau, out=target_param)
            th.add(target_param, param, alpha=tau, out=target_param)


def preprocess_obs(obs, space, n=None):
    if space == "box":
        return obs.float()
    if space == "image":
        return obs.float() / 255.0
    if space == "discrete":
        return F.one_hot(obs.long(), num_classes=n).float()
    if space == "multibinary":
        return obs.float()
    raise NotImplementedError(f"Preprocessing not implemented for {space}")


def sum_independent_dims(tensor):
    if len(tensor.shape) > 1:
        tensor = tensor.sum(dim=1)
    else:
        tensor = tensor.sum()
    return tensor


class TanhBijector:
    def __init__(self, epsilon=1e-6):
        self.epsilon = epsilon

    @staticmethod
    def forward(x):
        return th.tanh(x)

    @staticmethod
    def atanh(x):
        return 0.5 * (x.log1p() - (-x).log1p())

    @staticmethod
    def inverse(y):
        eps = th.finfo(y.dtype).eps
        return TanhBijector.atanh(y.clamp(min=-1.0 + eps, max=1.0 - eps))

    def log_prob_correction(self, x):
        return th.log(1.0 - th.tanh(x) ** 2 + self.epsilon)


def explained_variance(y_pred, y_true):
    var_y = th.var(y_true)
    return th.nan if var_y == 0 else 1 - th.var(y_true - y_pred) / var_y


net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with th.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(th.linspace(-1, 1, p.numel()).view(p.shape) + 0.1 * i)
target = copy.deepcopy(net)
target.requires_grad_(False)
print([p.requires_grad for p in target.parameters()], target[0].weight.grad_fn, target.training)
target.eval()
print(target.training, target[0].training)
with th.no_grad():
    for p in net.parameters():
        p.add_(1.0)
t2 = copy.deepcopy(target)
polyak_update(net.parameters(), target.parameters(), 0.05)
polyak_update_out(net.parameters(), t2.parameters(), 0.05)
print(target[2].bias, t2[2].bias, th.equal(target[0].weight, t2[0].weight), sep="\n")
try:
    th.add(net[2].bias, net[2].bias, alpha=0.5, out=net[2].bias)
except RuntimeError as e:
    print("RuntimeError", e)

print(preprocess_obs(th.tensor([0, 2, 1]), "discrete", n=3))
img = th.as_tensor(np.array([[[0, 128], [255, 64]]], dtype=np.uint8))
print(img.dtype, preprocess_obs(img, "image"), preprocess_obs(th.tensor([[1, 0, 1]], dtype=th.int8), "multibinary"))
print(preprocess_obs(th.from_numpy(np.array([[0.5, 1.5]])), "box").dtype)
try:
    preprocess_obs(th.tensor([1]), "dict")
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    F.one_hot(th.tensor([0, 3]), num_classes=3)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    F.one_hot(th.tensor([0.0, 1.0]), num_classes=3)
except RuntimeError as e:
    print("RuntimeError", e)

print(sum_independent_dims(th.tensor([[1.0, 2.0], [3.0, 4.0]])), sum_independent_dims(th.tensor([1.0, 2.0])))
print(th.finfo(th.float32).eps, th.finfo(th.float32).tiny, th.finfo(th.float32).max, th.finfo(th.float64).eps)
print(th.finfo(th.float32), th.iinfo(th.int64).max, th.finfo().bits)
y = th.tensor([-1.0, -0.5, 0.0, 0.999, 1.0])
print(TanhBijector.inverse(y), th.atanh(y))
x = th.tensor([0.0, 1.0, 5.0, 20.0])
print(TanhBijector().log_prob_correction(x), 2.0 * (np.log(2.0) - x - F.softplus(-2.0 * x)))
values = th.tensor([0.5, 1.0, 1.5, 2.0])
returns = th.tensor([0.7, 0.9, 1.8, 2.2])
print(explained_variance(values, returns), explained_variance(values, th.ones(4)), type(th.nan).__name__)
print(th.isnan(th.tensor(th.nan)), th.inf, -th.inf < th.tensor(0.0))
