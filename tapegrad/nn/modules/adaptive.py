"""``nn.AdaptiveLogSoftmaxWithLoss``: the adaptive softmax of Grave et al. (2016) for large
vocabularies.

The frequent classes (below the first cutoff) and one entry per cluster of rarer classes share a
"head" linear layer; each cluster has its own small "tail" (a projection to fewer features, then
to the cluster's classes). A class's log-probability is its head entry, or its cluster's head
entry plus its log-probability within the cluster. The graph it records is PyTorch's: the rows'
values gathered into a zero tensor with ``index_copy_`` and ``+=``, the loss their negated mean.
"""
from collections import namedtuple

from ... import ops
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of ``n_classes`` classes split at ``cutoffs`` into a head shortlist
    and tail clusters whose hidden sizes shrink by ``div_value`` per cluster."""

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        _check_cutoffs(cutoffs, n_classes)
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        factory = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **factory)
        self.tail = ModuleList([self._cluster(i, factory) for i in range(self.n_clusters)])

    def _cluster(self, i, factory):
        """Tail cluster ``i``: in_features -> in_features // div_value^(i+1) -> its classes."""
        hidden = int(self.in_features // (self.div_value ** (i + 1)))
        classes = self.cutoffs[i + 1] - self.cutoffs[i]
        return Sequential(Linear(self.in_features, hidden, bias=False, **factory),
                          Linear(hidden, classes, bias=False, **factory))

    def reset_parameters(self):
        self.head.reset_parameters()
        for projection, classifier in self.tail:
            projection.reset_parameters()
            classifier.reset_parameters()

    def forward(self, input_, target_):
        """``(output, loss)``: each row's log-probability of its target, and their negated mean."""
        _check_shapes(input_, target_)
        batched = target_.dim() > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        output = input.new_zeros(target.size(0))
        head_target = target.new_empty(target.size(0))  # a row's class, or its cluster's entry
        covered = 0
        bounds = [0] + self.cutoffs
        for i, (low, high) in enumerate(zip(bounds, bounds[1:])):
            in_range = (target >= low) & (target < high)
            rows = in_range.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            if i == 0:
                head_target.index_copy_(0, rows, target[in_range])
            else:
                head_target.index_fill_(0, rows, self.shortlist_size + i - 1)
                output.index_copy_(0, rows, self._within_cluster(
                    i - 1, input.index_select(0, rows), target[in_range] - low))
            covered += rows.numel()
        if covered != target.size(0):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values "
                               f"in range [{target.min().item()}, {target.max().item()}] were "
                               "found. ")
        head_log_prob = F.log_softmax(self.head(input), dim=1)
        output += head_log_prob.gather(1, head_target.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _within_cluster(self, cluster, input, relative_target):
        """Log-probability of each row's class within its tail cluster."""
        log_probs = F.log_softmax(self.tail[cluster](input), dim=1)
        return log_probs.gather(1, relative_target.unsqueeze(1)).squeeze(1)

    def _full_log_prob(self, input, head_output):
        """(N, n_classes): the shortlist's head log-probabilities, then each cluster's classes
        offset by its head entry."""
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_log_prob = F.log_softmax(head_output, dim=1)
        out[:, :self.shortlist_size] = head_log_prob[:, :self.shortlist_size]
        for i, (start, stop) in enumerate(zip(self.cutoffs, self.cutoffs[1:])):
            cluster_log_prob = F.log_softmax(self.tail[i](input), dim=1)
            out[:, start:stop] = (cluster_log_prob
                                  + head_log_prob[:, self.shortlist_size + i].unsqueeze(1))
        return out

    def log_prob(self, input):
        """Log-probabilities (N, n_classes) of every class."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most likely class per row; the tails run only for rows whose head's best entry
        is a cluster."""
        head_output = self.head(input)
        output = ops.argmax(head_output, dim=1)
        in_tail = output >= self.shortlist_size
        if not in_tail.any():
            return output
        if in_tail.all():
            return ops.argmax(self._full_log_prob(input, head_output), dim=1)
        output[in_tail] = ops.argmax(self._full_log_prob(input[in_tail], head_output[in_tail]),
                                     dim=1)
        return output


def _check_cutoffs(cutoffs, n_classes):
    if len(cutoffs) == 0:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
        raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an "
                         "increasing order, where each value is between 1 and n_classes-1")


def _check_shapes(input, target):
    """PyTorch's messages: a 1-D target needs a 2-D input of as many rows, a 0-D one a 1-D input."""
    if target.dim() == 1:
        if input.size(0) != target.size(0):
            raise RuntimeError("Input and target should have the same size in the batch "
                               "dimension.")
        if input.dim() != 2:
            raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs "
                               f"with size {input.size()}")
    elif target.dim() == 0:
        if input.dim() != 1:
            raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs "
                               f"with size {input.size()}")
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
