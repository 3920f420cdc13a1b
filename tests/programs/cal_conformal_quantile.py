# Split conformal prediction for classification (LAC / APS scores): calibrate the score
# quantile with torch.quantile ("higher" interpolation), build prediction sets, check coverage.
import math
import torch

n_cal, n_test, k = 50, 10, 4
i = torch.arange(n_cal + n_test, dtype=torch.float32)
logits = torch.stack([torch.sin(i * 0.17 * (j + 1) + j) * (1 + j) for j in range(k)], 1)
probs = logits.softmax(1)
labels = torch.remainder(torch.arange(n_cal + n_test) * 5, k)
cal_p, test_p = probs[:n_cal], probs[n_cal:]
cal_y, test_y = labels[:n_cal], labels[n_cal:]

alpha = 0.1
scores = 1 - cal_p.gather(1, cal_y.unsqueeze(1)).squeeze(1)
q_level = math.ceil((n_cal + 1) * (1 - alpha)) / n_cal
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, round(torch.quantile(scores, q_level, interpolation=mode).item(), 5))
qhat = torch.quantile(scores, q_level, interpolation="higher")
sorted_scores, _ = torch.sort(scores)
kth = torch.kthvalue(scores, math.ceil((n_cal + 1) * (1 - alpha))).values
print("qhat == kthvalue:", torch.equal(qhat, kth), torch.equal(qhat, sorted_scores[math.ceil((n_cal + 1) * (1 - alpha)) - 1]))
sets = test_p >= (1 - qhat)
print(sets.int())
print("set sizes:", sets.sum(1).tolist())
cov = sets[torch.arange(n_test), test_y].float().mean()
print(f"coverage {cov.item():.2f}")

# APS: cumulative sorted probability up to the true label
srt, order = cal_p.sort(1, descending=True)
cums = srt.cumsum(1)
rank = order.argsort(1).gather(1, cal_y[:, None]).squeeze(1)
aps = cums.gather(1, rank[:, None]).squeeze(1)
print("aps scores:", aps[:6].round(decimals=4))
qs = torch.quantile(aps, torch.tensor([0.5, 0.9, q_level]), interpolation="linear")
print(qs)
withnan = torch.cat([aps[:8], torch.tensor([float("nan")])])
print(torch.nanquantile(withnan, 0.5), torch.quantile(withnan, 0.5))
print(torch.quantile(cal_p[:5], 0.25, dim=1, keepdim=True))
print(torch.nanquantile(torch.tensor([[1.0, float("nan")], [float("nan"), float("nan")]]), 0.5, dim=1))
try:
    torch.quantile(scores, 1.5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.quantile(scores, 0.5, interpolation="cubic")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.quantile(scores.int(), 0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
