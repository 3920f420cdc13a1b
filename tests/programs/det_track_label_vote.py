# Tracking-by-detection bookkeeping: per-track class by majority vote over frames (torch.mode over
# a long history, ties included), score-weighted voting with bincount, confidence medians, and
# top-scoring frames per track with topk on empty/short histories.
import torch

torch.set_printoptions(precision=3)

frames, tracks, num_classes = 40, 5, 4
t = torch.arange(frames * tracks).view(frames, tracks)
cls_hist = (t * 7 + t // 11) % num_classes
cls_hist[:, 4] = (torch.arange(frames) // 3) % 2  # a track flipping between two classes
score_hist = (torch.sin(t.float() * 0.3) + 1.2) / 2.5
print(cls_hist.shape, cls_hist[:3])
vote = torch.mode(cls_hist, dim=0)
print(vote)
print(cls_hist.T.mode(dim=1, keepdim=True))
# votes over the last 12 frames only (short rows keep the last occurrence)
print(cls_hist[-12:].mode(0).indices)
# score-weighted vote
for k in range(tracks):
    w = torch.bincount(cls_hist[:, k], weights=score_hist[:, k], minlength=num_classes)
    print(k, w.argmax().item(), [round(v, 2) for v in w.tolist()])
med = score_hist.median(dim=0)
print(med.values, med.indices)
print(score_hist.round(decimals=1).median(dim=0).indices)
print(score_hist.round(decimals=1).T.kthvalue(20, dim=1).indices)
best = score_hist.topk(3, dim=0)
print(best.indices)
alive = torch.tensor([40, 0, 2, 40, 17])
for k in range(tracks):
    hist = score_hist[: alive[k], k]
    kk = min(3, hist.numel())
    v, i = hist.topk(kk)
    print(k, kk, i.tolist())
# rounded scores: the mode value and where torch reports it
q = (score_hist * 4).floor()
print(q.mode(dim=0), q.view(-1).mode())
