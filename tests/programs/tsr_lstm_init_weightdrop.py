# Recurrent-weight initialisation and AWD-LSTM style weight drop as in language-model / forecasting
# repos: loops over lstm._all_weights and _flat_weights_names to set forget-gate biases to 1 and
# scale weight_hh, a WeightDrop wrapper that replaces weight_hh_l0 with a derived plain tensor
# (delattr + setattr) before each forward, and the resulting parameters and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

lstm = nn.LSTM(2, 3, num_layers=2)
print(lstm._flat_weights_names)
print(lstm._all_weights)
print(len(lstm._flat_weights), all(w is getattr(lstm, n) for w, n in zip(lstm._flat_weights, lstm._flat_weights_names)))
for names in lstm._all_weights:
    for name in filter(lambda n: "bias" in n, names):
        bias = getattr(lstm, name)
        n = bias.size(0)
        with torch.no_grad():
            bias.zero_()
            bias[n // 4:n // 2].fill_(1.0)
    for name in filter(lambda n: "weight" in n, names):
        w = getattr(lstm, name)
        with torch.no_grad():
            w.copy_(torch.linspace(-0.5, 0.5, w.numel()).reshape(w.shape) * (0.5 if "hh" in name else 1.0))
print(lstm.bias_ih_l1, lstm.bias_hh_l0[:6])
print([len(w) for w in lstm.all_weights], lstm.all_weights[1][0] is lstm.weight_ih_l1)


class WeightDrop(nn.Module):
    def __init__(self, module, weights, dropout=0.5):
        super().__init__()
        self.module, self.weights, self.dropout = module, weights, dropout
        for name_w in weights:
            w = getattr(module, name_w)
            delattr(module, name_w)
            self.register_parameter(name_w + "_raw", nn.Parameter(w.data.clone()))
            setattr(module, name_w, w.data.clone())
        module.flatten_parameters = lambda *args, **kwargs: None

    def _setweights(self):
        for name_w in self.weights:
            raw_w = getattr(self, name_w + "_raw")
            w = F.dropout(raw_w, p=self.dropout, training=self.training)
            setattr(self.module, name_w, w)

    def forward(self, *args):
        self._setweights()
        return self.module(*args)


wd = WeightDrop(lstm, ["weight_hh_l0"], dropout=0.3)
print(sorted(n for n, _ in wd.named_parameters()))
print(type(lstm.weight_hh_l0).__name__, "weight_hh_l0" in dict(lstm.named_parameters()))
wd.eval()
x = torch.sin(torch.arange(12, dtype=torch.float32)).reshape(3, 2, 2)
out, (h, c) = wd(x)
print(out[-1])
print(lstm._flat_weights[1] is lstm.weight_hh_l0, lstm._flat_weights[1].requires_grad)
out.sum().backward()
print(wd.module.weight_ih_l0.grad.shape, wd.weight_hh_l0_raw.grad[0])
print(lstm.weight_hh_l0.grad_fn.name() if lstm.weight_hh_l0.grad_fn else None)

with torch.no_grad():
    wd.weight_hh_l0_raw.mul_(2.0)
out2, _ = wd(x)
print(torch.allclose(out, out2), out2[-1, 0])
print(list(wd.state_dict().keys()))

gru = nn.GRU(2, 3, bias=False, bidirectional=True).double()
print(gru._flat_weights_names, gru._flat_weights[0].dtype)
gru.weight_ih_l0 = nn.Parameter(torch.zeros(9, 2, dtype=torch.float64))
print(gru._flat_weights[0].abs().sum(), gru.all_weights[0][0] is gru.weight_ih_l0)
proj = nn.LSTM(2, 4, proj_size=2)
print(proj._all_weights)
