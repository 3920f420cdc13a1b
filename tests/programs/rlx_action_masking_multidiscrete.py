# Invalid action masking (CleanRL's CategoricalMasked, "A Closer Look at Invalid Action Masking")
# and MultiDiscrete action spaces: logits split with torch.split(logits, nvec.tolist(), dim=1),
# one Categorical per sub-action, log_probs stacked and summed; masked entropy via torch.where.
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


class CategoricalMasked(Categorical):
    def __init__(self, probs=None, logits=None, validate_args=None, masks=[]):
        self.masks = masks
        if len(self.masks) == 0:
            super(CategoricalMasked, self).__init__(probs, logits, validate_args)
        else:
            self.masks = masks.type(torch.BoolTensor)
            logits = torch.where(self.masks, logits, torch.tensor(-1e8))
            super(CategoricalMasked, self).__init__(probs, logits, validate_args)

    def entropy(self):
        if len(self.masks) == 0:
            return super(CategoricalMasked, self).entropy()
        p_log_p = self.logits * self.probs
        p_log_p = torch.where(self.masks, p_log_p, torch.tensor(0.0))
        return -p_log_p.sum(-1)


logits = torch.tensor([[1.0, 2.0, 3.0, 0.5], [0.0, 0.0, 0.0, 0.0]], requires_grad=True)
masks = torch.tensor([[1, 0, 1, 1], [0, 0, 1, 1]])
print(masks.type(torch.BoolTensor), masks.type(torch.BoolTensor).dtype, masks.type(torch.FloatTensor).dtype)
print(masks.type(), masks.bool().type(), logits.type(), masks.type("torch.DoubleTensor").dtype)
dist = CategoricalMasked(logits=logits, masks=masks)
print(dist.probs, dist.logits, sep="\n")
print(dist.entropy(), Categorical(logits=logits).entropy())
lp = dist.log_prob(torch.tensor([2, 3]))
print(lp, lp.grad_fn.name())
(lp.sum() + dist.entropy().sum()).backward()
print(logits.grad)
print(isinstance(dist, Categorical), type(dist).__name__, dist.batch_shape)

# masking with -inf instead: probs are exact zeros, entropy from the base class
inf_logits = torch.tensor([[1.0, 2.0, 3.0, 0.5]]).masked_fill(~masks[:1].bool(), float("-inf"))
d_inf = Categorical(logits=inf_logits)
print(inf_logits, d_inf.probs, d_inf.entropy(), d_inf.log_prob(torch.tensor([1])))
print(torch.softmax(inf_logits, -1), torch.log_softmax(inf_logits, -1))

# MultiDiscrete([3, 2]) head
nvec = np.array([3, 2])
head = nn.Linear(2, int(nvec.sum()))
with torch.no_grad():
    head.weight.copy_(torch.arange(10, dtype=torch.float32).view(5, 2) * 0.1 - 0.4)
    head.bias.zero_()
obs = torch.tensor([[1.0, 0.5], [-1.0, 2.0], [0.0, 0.0]])
out = head(obs)
split_logits = torch.split(out, nvec.tolist(), dim=1)
print(type(split_logits).__name__, [t.shape for t in split_logits], split_logits[1].grad_fn.name())
multi_categoricals = [Categorical(logits=l) for l in split_logits]
action = torch.tensor([[2, 0], [0, 1], [1, 1]]).T
logprob = torch.stack([c.log_prob(a) for a, c in zip(action, multi_categoricals)])
entropy = torch.stack([c.entropy() for c in multi_categoricals])
print(action.shape, logprob, logprob.sum(0), entropy.sum(0), sep="\n")
logprob.sum(0).mean().backward()
print(head.weight.grad, head.bias.grad)
print(torch.split(out, [3, 2], 1)[0].is_contiguous(), out.split(2, dim=1)[-1].shape, torch.tensor_split(out, [3], dim=1)[1].shape)
try:
    torch.split(out, [3, 3], dim=1)
except RuntimeError as e:
    print("RuntimeError", e)

# a per-sub-action mask: reshape the flat mask and split it the same way
flat_mask = torch.tensor([[True, False, True, True, False], [True, True, True, True, True], [False, True, True, False, True]])
split_masks = torch.split(flat_mask, nvec.tolist(), dim=1)
mc = [CategoricalMasked(logits=l.detach(), masks=m) for l, m in zip(split_logits, split_masks)]
print([c.probs for c in mc])
print(torch.stack([c.entropy() for c in mc]).T)
