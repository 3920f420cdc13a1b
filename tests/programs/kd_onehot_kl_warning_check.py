# A distillation unit test that asserts the KD loss emits no warnings (users record with
# catch_warnings + simplefilter("always")), using a one-hot "teacher" that has zero probabilities.
import warnings
import torch
import torch.nn.functional as F

s_logits = torch.tensor([[1.0, 2.0, 0.5], [0.3, -0.2, 0.9]], requires_grad=True)
onehot = F.one_hot(torch.tensor([1, 2]), 3).float()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = F.kl_div(F.log_softmax(s_logits, 1), onehot, reduction="batchmean")
    loss.backward()
print(f"{loss.item():.4f}", s_logits.grad)
print("warnings:", [str(w.message) for w in caught])
