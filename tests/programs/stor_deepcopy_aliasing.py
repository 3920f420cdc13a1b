# Tied-weights blog: copy.deepcopy / state_dict keep (or lose) memory sharing between tensors
# and views; checking with data_ptr() and untyped_storage().data_ptr().
import copy
import torch
import torch.nn as nn

base = torch.arange(6.0)
pack = {"base": base, "view": base.view(2, 3), "tail": base[3:]}
dup = copy.deepcopy(pack)
print(dup["view"]._base is dup["base"], dup["tail"].storage_offset())
print(dup["base"].untyped_storage().data_ptr() == dup["view"].untyped_storage().data_ptr())
print(dup["base"].untyped_storage().data_ptr() == base.untyped_storage().data_ptr())
dup["base"][4] = -1
print(dup["tail"], pack["tail"])
solo = copy.deepcopy(base[3:])
print(solo.storage_offset(), solo.untyped_storage().nbytes(), solo)

emb = nn.Embedding(4, 3)
head = nn.Linear(3, 4, bias=False)
head.weight = emb.weight
with torch.no_grad():
    emb.weight.copy_(torch.arange(12.0).view(4, 3) / 10)
model = nn.ModuleDict({"emb": emb, "head": head})
print(model.emb.weight.data_ptr() == model.head.weight.data_ptr())
m2 = copy.deepcopy(model)
print(m2.emb.weight is m2.head.weight, m2.emb.weight.data_ptr() == model.emb.weight.data_ptr())
sd = model.state_dict()
print(list(sd.keys()), sd["emb.weight"].data_ptr() == sd["head.weight"].data_ptr())
print(sd["emb.weight"]._base is None, sd["emb.weight"].requires_grad)
print(len(list(model.parameters())), len(list(m2.parameters())))
det = emb.weight.detach()
det[0, 0] = 9.0
print(emb.weight[0])
cl = emb.weight.clone()
cl[0, 1] = 8.0
print(emb.weight[0, 1].item())
w = torch.arange(4.0)
t = w.t() if w.dim() == 2 else w.unsqueeze(0).t()
d2 = copy.deepcopy(t)
print(d2.stride(), d2.storage_offset(), d2.untyped_storage().nbytes(), d2.is_contiguous())
