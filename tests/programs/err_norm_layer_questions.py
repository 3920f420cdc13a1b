# Forum question: BatchNorm/LayerNorm/GroupNorm confusion — wrong num_features, running stats that
# "don't update", track_running_stats=False in eval, momentum=None, and normalizing the wrong dim.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


x = torch.linspace(-1, 2, 24).view(4, 6)
bn = nn.BatchNorm1d(6)
print(bn)
print("before:", bn.running_mean, bn.num_batches_tracked)
bn(x)
print("after 1:", bn.running_mean, bn.running_var, bn.num_batches_tracked)
with torch.no_grad():
    bn(x)
print("no_grad still updates:", bn.num_batches_tracked)
bn.eval()
bn(x)
print("eval doesn't update:", bn.num_batches_tracked)

cma = nn.BatchNorm1d(6, momentum=None)
for k in range(3):
    cma(x * (k + 1))
print("momentum=None running_mean:", cma.running_mean)

nostats = nn.BatchNorm1d(6, track_running_stats=False)
print(nostats, nostats.running_mean, nostats.state_dict().keys())
nostats.eval()
attempt("no stats eval batch 1", lambda: nostats(x[:1]))
attempt("no stats eval batch 2", lambda: nostats(x[:2]))
noaffine = nn.BatchNorm1d(6, affine=False)
print("affine=False params:", list(noaffine.parameters()), list(noaffine.state_dict().keys()))

# normalizing along the wrong dim: sequence data (N, L, C) into BatchNorm1d(C)
seq = torch.linspace(0, 1, 2 * 5 * 6).view(2, 5, 6)
attempt("BN1d on (N,L,C)", lambda: nn.BatchNorm1d(6)(seq))
attempt("BN1d transpose fix", lambda: nn.BatchNorm1d(6)(seq.transpose(1, 2)).transpose(1, 2).shape)
attempt("LayerNorm(6) on (N,L,C)", lambda: nn.LayerNorm(6)(seq)[0, 0])
attempt("LayerNorm wrong last dim", lambda: nn.LayerNorm(5)(seq))
attempt("LayerNorm tuple mismatch", lambda: nn.LayerNorm((6, 5))(seq))
attempt("F.layer_norm int shape", lambda: F.layer_norm(seq, 6).shape)
attempt("F.layer_norm weight shape", lambda: F.layer_norm(seq, (6,), weight=torch.ones(5)))
attempt("LayerNorm no affine", lambda: list(nn.LayerNorm(6, elementwise_affine=False).state_dict().keys()))
attempt("LayerNorm no bias", lambda: list(nn.LayerNorm(6, bias=False).state_dict().keys()))
attempt("GroupNorm wrong C", lambda: nn.GroupNorm(2, 4)(seq))
attempt("GroupNorm 2-D input", lambda: nn.GroupNorm(2, 6)(x).shape)
attempt("GroupNorm 1-D input", lambda: nn.GroupNorm(2, 6)(torch.ones(6)))
attempt("F.group_norm not divisible", lambda: F.group_norm(seq, 4))
attempt("F.group_norm weight size", lambda: F.group_norm(seq, 5, weight=torch.ones(6)))
attempt("InstanceNorm1d wrong C warn", lambda: nn.InstanceNorm1d(4, affine=True)(seq))
attempt("InstanceNorm2d 2-D", lambda: nn.InstanceNorm2d(3)(x))
attempt("BN2d on 2-D", lambda: nn.BatchNorm2d(6)(x))
attempt("BN3d on 4-D", lambda: nn.BatchNorm3d(6)(torch.ones(2, 6, 3, 3)))
attempt("F.batch_norm mean size", lambda: F.batch_norm(x, torch.zeros(5), torch.ones(5)))
attempt("F.batch_norm weight size", lambda: F.batch_norm(x, torch.zeros(6), torch.ones(6), weight=torch.ones(3)))
attempt("F.batch_norm int input", lambda: F.batch_norm(torch.ones(2, 3, dtype=torch.long), torch.zeros(3), torch.ones(3)))
attempt("LocalResponseNorm 2-D", lambda: nn.LocalResponseNorm(2)(x))
attempt("RMSNorm wrong shape", lambda: nn.RMSNorm(5)(seq))
attempt("RMSNorm ok", lambda: nn.RMSNorm(6)(seq).shape)
attempt("BN half input float stats", lambda: nn.BatchNorm1d(6)(x.half()).dtype)
attempt("BN double input float module", lambda: nn.BatchNorm1d(6)(x.double()))
attempt("LayerNorm double input", lambda: nn.LayerNorm(6)(x.double()))
attempt("SyncBatchNorm cpu", lambda: nn.SyncBatchNorm(6)(x))
