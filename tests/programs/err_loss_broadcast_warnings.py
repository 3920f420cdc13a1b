# Forum question: "UserWarning: Using a target size (torch.Size([8])) that is different to the
# input size (torch.Size([8, 1]))" — MSELoss silently broadcasting, and other loss shape mistakes.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "->", out)
        except Exception as e:  # noqa: BLE001
            print(label, "->", type(e).__name__, e)
    for w in caught:
        print("   ", w.category.__name__, str(w.message))


pred = torch.linspace(0, 1, 8).view(8, 1)
target = torch.linspace(0.1, 0.8, 8)
attempt("MSE (8,1) vs (8,)", lambda: f"{nn.MSELoss()(pred, target).item():.4f}")
attempt("MSE fixed squeeze", lambda: f"{nn.MSELoss()(pred.squeeze(1), target).item():.4f}")
attempt("MSE fixed view_as", lambda: f"{nn.MSELoss()(pred, target.view_as(pred)).item():.4f}")
attempt("L1 (8,1) vs (8,)", lambda: f"{nn.L1Loss()(pred, target).item():.4f}")
attempt("SmoothL1 broadcast", lambda: f"{nn.SmoothL1Loss()(pred, target).item():.4f}")
attempt("Huber broadcast", lambda: f"{nn.HuberLoss()(pred, target).item():.4f}")
attempt("MSE not broadcastable", lambda: nn.MSELoss()(torch.ones(3, 2), torch.ones(4)))
attempt("L1 not broadcastable", lambda: F.l1_loss(torch.ones(3), torch.ones(2)))
attempt("MSE reduction none shape", lambda: nn.MSELoss(reduction="none")(pred, target).shape)
attempt("MSE reduction sum", lambda: f"{nn.MSELoss(reduction='sum')(pred, target).item():.4f}")
attempt("MSE size_average legacy", lambda: nn.MSELoss(size_average=False).reduction)
attempt("MSE reduce=False legacy", lambda: nn.MSELoss(reduce=False).reduction)
attempt("MSE bad reduction", lambda: F.mse_loss(pred, pred, reduction="avg"))
attempt("MSE scalar target", lambda: f"{F.mse_loss(pred, torch.tensor(0.5)).item():.4f}")
attempt("MSE python float target", lambda: F.mse_loss(pred, 0.5))
attempt("MSE target requires grad", lambda: F.mse_loss(pred, target.view(8, 1).requires_grad_()).requires_grad)

# BCE / KL / others with mismatched shapes
prob = torch.sigmoid(pred)
attempt("BCE (8,1) vs (8,)", lambda: F.binary_cross_entropy(prob, target))
attempt("BCE weight broadcast", lambda: f"{F.binary_cross_entropy(prob, target.view(8, 1), weight=torch.ones(8)).item():.4f}")
attempt("BCEWithLogits pos_weight", lambda: f"{F.binary_cross_entropy_with_logits(pred, target.view(8, 1), pos_weight=torch.ones(1) * 2).item():.4f}")
attempt("BCEWithLogits pos_weight bad", lambda: F.binary_cross_entropy_with_logits(pred, target.view(8, 1), pos_weight=torch.ones(3)))
logp = F.log_softmax(torch.arange(6.).view(2, 3), dim=1)
q = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
attempt("KLDiv default mean", lambda: f"{F.kl_div(logp, q).item():.4f}")
attempt("KLDiv batchmean", lambda: f"{F.kl_div(logp, q, reduction='batchmean').item():.4f}")
attempt("KLDiv shape mismatch", lambda: F.kl_div(logp, q[:, :2], reduction="batchmean"))
attempt("KLDiv log_target", lambda: f"{F.kl_div(logp, q.log(), reduction='sum', log_target=True).item():.4f}")
attempt("Poisson NLL", lambda: f"{F.poisson_nll_loss(pred, target.view(8, 1)).item():.4f}")
attempt("GaussianNLL var shape", lambda: F.gaussian_nll_loss(pred, target.view(8, 1), torch.ones(3)))
attempt("GaussianNLL negative var", lambda: F.gaussian_nll_loss(pred, target.view(8, 1), -torch.ones(8, 1)))
attempt("GaussianNLL ok", lambda: f"{F.gaussian_nll_loss(pred, target.view(8, 1), torch.ones(8, 1)).item():.4f}")
attempt("CosineEmbedding bad target", lambda: F.cosine_embedding_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3)))
attempt("CosineEmbedding ok", lambda: f"{F.cosine_embedding_loss(torch.eye(2, 3), torch.ones(2, 3), torch.tensor([1, -1])).item():.4f}")
attempt("MarginRanking mismatch", lambda: F.margin_ranking_loss(torch.ones(3), torch.ones(2), torch.ones(3)))
attempt("Triplet dims", lambda: F.triplet_margin_loss(torch.ones(2, 3), torch.ones(2, 4), torch.ones(2, 3)))
attempt("HingeEmbedding", lambda: f"{F.hinge_embedding_loss(pred, torch.ones(8, 1)).item():.4f}")
attempt("SoftMargin mismatch", lambda: F.soft_margin_loss(pred, target))
attempt("MultiLabelSoftMargin", lambda: f"{F.multilabel_soft_margin_loss(torch.arange(6.).view(2, 3), q.round()).item():.4f}")
attempt("MultiMargin float target", lambda: F.multi_margin_loss(torch.arange(6.).view(2, 3), torch.tensor([0., 2.])))
attempt("MultiMargin oob", lambda: F.multi_margin_loss(torch.arange(6.).view(2, 3), torch.tensor([0, 3])))
attempt("MultiLabelMargin", lambda: f"{F.multilabel_margin_loss(torch.arange(6.).view(2, 3), torch.tensor([[2, -1, 0], [0, 1, -1]])).item():.4f}")
