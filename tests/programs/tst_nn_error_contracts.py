# A layer library's "raises" tests: invalid inputs to nn modules / functional ops must raise the
# same exception types and messages as PyTorch (checked with a pytest.raises-like helper).
import torch
import torch.nn as nn
import torch.nn.functional as F


def expect_raise(name, fn):
    try:
        fn()
        print(f"{name}: no exception")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0]}")


x4 = torch.linspace(-1, 1, 2 * 3 * 8 * 8).reshape(2, 3, 8, 8)
expect_raise("embedding index", lambda: nn.Embedding(5, 2)(torch.tensor([1, 5])))
expect_raise("embedding negative", lambda: nn.Embedding(5, 2)(torch.tensor([-1])))
expect_raise("conv same + stride", lambda: nn.Conv2d(3, 4, 3, stride=2, padding="same"))
expect_raise("conv padding tuple len", lambda: nn.Conv2d(3, 4, 3, padding=(1, 1, 1))(x4))
expect_raise("conv groups", lambda: nn.Conv2d(3, 4, 3, groups=2))
expect_raise("conv input rank", lambda: nn.Conv2d(3, 4, 3)(torch.ones(3, 8)))
expect_raise("conv kernel too big", lambda: nn.Conv2d(3, 4, 9)(x4))
expect_raise("batchnorm batch 1", lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
expect_raise("batchnorm channels", lambda: nn.BatchNorm2d(4)(x4))
expect_raise("layernorm shape", lambda: nn.LayerNorm(5)(torch.ones(2, 4)))
expect_raise("groupnorm groups", lambda: nn.GroupNorm(2, 3))
expect_raise("lstm input size", lambda: nn.LSTM(4, 8, batch_first=True)(torch.ones(2, 5, 3)))
expect_raise("lstm rank", lambda: nn.LSTM(4, 8)(torch.ones(4)))
expect_raise("gru hidden shape", lambda: nn.GRU(4, 8)(torch.ones(5, 2, 4), torch.zeros(1, 3, 8)))
expect_raise("mha embed divisible", lambda: nn.MultiheadAttention(10, 3))
expect_raise("mha query dim", lambda: nn.MultiheadAttention(8, 2)(torch.ones(3, 2, 6), torch.ones(3, 2, 6), torch.ones(3, 2, 6)))
expect_raise("cross_entropy target range", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3])))
expect_raise("cross_entropy probs shape", lambda: F.cross_entropy(torch.ones(2, 3), torch.ones(2, 4)))
expect_raise("nll 2d target batch", lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([[0, 1]])))
expect_raise("nll 2d target", lambda: F.nll_loss(torch.ones(2, 3), torch.tensor([[0], [1]])))
expect_raise("mse shape warning->broadcast", lambda: F.mse_loss(torch.ones(2, 3), torch.ones(4, 3)))
expect_raise("interpolate both", lambda: F.interpolate(x4, size=4, scale_factor=2))
expect_raise("interpolate none", lambda: F.interpolate(x4))
expect_raise("interpolate mode", lambda: F.interpolate(x4, scale_factor=2, mode="cubic"))
expect_raise("interpolate align linear 4d", lambda: F.interpolate(x4, scale_factor=2, mode="linear"))
expect_raise("pad odd", lambda: F.pad(x4, (1, 2, 3)))
expect_raise("pad reflect too big", lambda: F.pad(x4, (8, 8), mode="reflect"))
expect_raise("max_pool too big", lambda: F.max_pool2d(x4, 10))
expect_raise("avg_pool pad", lambda: F.avg_pool2d(x4, 2, padding=2))
expect_raise("linear dtype", lambda: nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.float64)))
expect_raise("dropout p", lambda: nn.Dropout(1.5))
expect_raise("flatten dims", lambda: nn.Flatten(3, 1)(x4))
expect_raise("unflatten size", lambda: nn.Unflatten(1, (2, 2))(x4))
expect_raise("softmax dim", lambda: F.softmax(x4, dim=4))
expect_raise("one_hot classes", lambda: F.one_hot(torch.tensor([0, 5]), 3))
expect_raise("one_hot float", lambda: F.one_hot(torch.tensor([0.0, 1.0])))
expect_raise("sequential index", lambda: nn.Sequential(nn.ReLU())[3])
expect_raise("moduledict key", lambda: nn.ModuleDict({"a": nn.ReLU()})["b"])
expect_raise("register bad name", lambda: nn.Module().register_buffer("a.b", torch.ones(1)))
expect_raise("param non-float", lambda: nn.Parameter(torch.ones(2, dtype=torch.long)))
expect_raise("load_state_dict", lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(3, 2)}))
