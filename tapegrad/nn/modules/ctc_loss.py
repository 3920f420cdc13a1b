"""``nn.CTCLoss``: the options of ``F.ctc_loss`` held by a module (a loss module like those of
``loss.py``, kept in a file of its own)."""
from .. import functional as F
from .loss import _Loss

__all__ = ["CTCLoss"]


class CTCLoss(_Loss):
    """Connectionist temporal classification: the loss of aligning each target sequence with
    its frames of log-probabilities, over every alignment (see ``tapegrad.ops.ctc``)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)
