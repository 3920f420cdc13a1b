# Pruning recurrent and embedding layers for a compressed student: l1_unstructured on an
# LSTM's weight_hh_l0 (reparametrized weights still used by the cuDNN-free path) and
# ln_structured row pruning of an Embedding table (dropping whole token vectors).
import warnings
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.set_printoptions(precision=4)
lstm = nn.LSTM(3, 4, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.5)
x = torch.cos(torch.arange(2 * 5 * 3, dtype=torch.float32)).reshape(2, 5, 3)
_, (h_dense, _) = lstm(x)
prune.l1_unstructured(lstm, "weight_hh_l0", amount=0.5)
print([n for n, _ in lstm.named_parameters()], [n for n, _ in lstm.named_buffers()])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out, (h, c) = lstm(x)
    print("warnings:", len(w))
print(h)
print("changed by pruning:", not torch.allclose(h, h_dense))
opt = torch.optim.SGD(lstm.parameters(), lr=0.1)
for step in range(5):
    out, (h, c) = lstm(x)
    loss = (out - 0.1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print("masked grads zero:", bool((lstm.weight_hh_l0_orig.grad[lstm.weight_hh_l0_mask == 0] == 0).all()))
prune.remove(lstm, "weight_hh_l0")
print(sorted(lstm.state_dict().keys()))
print("zeros kept:", int((lstm.weight_hh_l0 == 0).sum()), "of", lstm.weight_hh_l0.numel())

emb = nn.Embedding(6, 3, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(18.0).reshape(6, 3) - 9)
prune.ln_structured(emb, "weight", amount=2, n=1, dim=0)
print(emb(torch.tensor([[0, 4, 5], [1, 2, 3]])))
print("rows kept:", emb.weight_mask[:, 0].tolist())
emb(torch.tensor([1, 1, 4])).sum().backward()
print(emb.weight_orig.grad)
print(emb)
