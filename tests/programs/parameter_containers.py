# Parameters beyond attributes: ParameterList/Dict, register_parameter, freezing by filter, vectors.
import torch
import torch.nn as nn


class Mixture(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.means = nn.ParameterList([nn.Parameter(torch.full((2,), float(i))) for i in range(k)])
        self.scales = nn.ParameterDict({"a": nn.Parameter(torch.ones(1)), "b": nn.Parameter(torch.zeros(1))})
        self.register_parameter("bias", nn.Parameter(torch.tensor([0.5])))
        self.register_parameter("unused", None)
        self.plain_list = [nn.Parameter(torch.ones(1))]  # not registered: a classic bug

    def forward(self, x):
        out = sum(((x - m) ** 2).sum() for m in self.means)
        return out * self.scales["a"] + self.scales["b"] + self.bias


model = Mixture(3)
print([n for n, _ in model.named_parameters()])
print(len(list(model.parameters())), len(model.means), list(model.scales.keys()))
print(model.means)
loss = model(torch.tensor([1.0, 2.0]))
loss.backward()
print(loss, model.means[2].grad, model.scales["b"].grad, model.plain_list[0].grad)
model.means[0].requires_grad_(False)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]["params"]))
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec[:4])
nn.utils.vector_to_parameters(torch.arange(float(vec.numel())), model.parameters())
print(model.bias, model.scales["b"].item())
print(list(model.state_dict().keys()))
