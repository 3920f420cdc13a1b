# SSD MultiBoxLoss (amdegroot/ssd.pytorch style): log_sum_exp confidence loss, positives zeroed,
# hard negative mining with the double sort trick (loss_c.sort(1, descending=True), idx.sort(1))
# on many tied losses, num_neg = clamp(3 * num_pos, max=...), masks with gt(0) and expand_as.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def log_sum_exp(x):
    x_max = x.data.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


num, num_priors, num_classes = 2, 48, 4
a = torch.arange(num * num_priors * num_classes, dtype=torch.float32)
conf_data = (((a * 7) % 11 - 5) / 4).view(num, num_priors, num_classes).requires_grad_()
loc_data = torch.cos(torch.arange(num * num_priors * 4, dtype=torch.float32) * 0.21).view(num, num_priors, 4).requires_grad_()
conf_t = ((torch.arange(num * num_priors) * 5) % 13).view(num, num_priors)
conf_t[conf_t > 3] = 0
loc_t = torch.sin(torch.arange(num * num_priors * 4, dtype=torch.float32)).view(num, num_priors, 4) * 0.5

pos = conf_t > 0
num_pos = pos.sum(dim=1, keepdim=True)
print("positives", num_pos.view(-1).tolist())
pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
loc_p = loc_data[pos_idx].view(-1, 4)
loss_l = F.smooth_l1_loss(loc_p, loc_t[pos_idx].view(-1, 4), reduction="sum")

batch_conf = conf_data.view(-1, num_classes)
loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))
loss_c = loss_c.view(num, -1).detach().round(decimals=4)  # mine on a quantized copy: ties are real ties
loss_c[pos] = 0
_, loss_idx = loss_c.sort(1, descending=True)
_, idx_rank = loss_idx.sort(1)
num_neg = torch.clamp(3 * num_pos, max=pos.size(1) - 1)
neg = idx_rank < num_neg.expand_as(idx_rank)
print(loss_idx[:, :20])
print(idx_rank[:, :20])
print("negatives", neg.sum(1).tolist(), neg[0].nonzero().view(-1).tolist())

pos_idx = pos.unsqueeze(2).expand_as(conf_data)
neg_idx = neg.unsqueeze(2).expand_as(conf_data)
conf_p = conf_data[(pos_idx + neg_idx).gt(0)].view(-1, num_classes)
targets_weighted = conf_t[(pos + neg).gt(0)]
loss_c = F.cross_entropy(conf_p, targets_weighted, reduction="sum")
N = num_pos.data.sum().float()
loss_l = loss_l / N
loss_c = loss_c / N
print(f"loss_l {loss_l.item():.4f} loss_c {loss_c.item():.4f}")
(loss_l + loss_c).backward()
print(conf_data.grad[0, :6])
print(loc_data.grad.abs().sum(-1)[1, :12])
# rank ties with stable sorting for comparison
_, stable_idx = loss_idx.sort(dim=1, stable=True)
print(torch.equal(stable_idx, idx_rank))
