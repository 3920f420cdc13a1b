# A Mixtral-style sparse MoE block from scratch: router logits -> softmax -> topk experts,
# renormalised routing weights, one_hot expert mask with permute, torch.where to find tokens,
# index_add_ to scatter expert outputs back, and the Switch-Transformer load-balancing loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    def __init__(self, dim=4, hidden=6, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)
        final = torch.zeros((batch_size * sequence_length, hidden_dim), dtype=hidden_states.dtype)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)
            current_hidden_states = self.experts[expert_idx](current_state) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, current_hidden_states.to(hidden_states.dtype))
        return final.reshape(batch_size, sequence_length, hidden_dim), router_logits


def load_balancing_loss(router_logits, num_experts, top_k):
    routing_weights = F.softmax(router_logits, dim=-1)
    _, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
    expert_mask = F.one_hot(selected_experts, num_experts)
    tokens_per_expert = torch.mean(expert_mask.float(), dim=0)
    router_prob_per_expert = torch.mean(routing_weights, dim=0)
    return torch.sum(tokens_per_expert * router_prob_per_expert.unsqueeze(0)) * num_experts


moe = SparseMoeBlock()
for i, p in enumerate(moe.parameters()):
    with torch.no_grad():
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.7 + 0.3 * i)).view_as(p))
print(moe.experts[0], len(moe.experts), sum(p.numel() for p in moe.parameters()))

x = torch.linspace(-1, 1, 2 * 3 * 4).view(2, 3, 4).requires_grad_(True)
out, router_logits = moe(x)
print(out, out.grad_fn.name())
print(router_logits.shape, router_logits.grad_fn.name())

rw = F.softmax(router_logits, dim=1, dtype=torch.float)
w, sel = torch.topk(rw, 2, dim=-1)
print(sel, torch.allclose((w / w.sum(-1, keepdim=True)).sum(-1), torch.ones(6)))
mask = F.one_hot(sel, num_classes=4)
print(mask.shape, mask.dtype, mask.permute(2, 1, 0).shape, mask.permute(2, 1, 0)[1])
idx, top_x = torch.where(mask.permute(2, 1, 0)[1])
print(idx, top_x, torch.nonzero(mask.permute(2, 1, 0)[1], as_tuple=True))
print(mask.sum(dim=(0, 1)), torch.bincount(sel.flatten(), minlength=4))

aux = load_balancing_loss(router_logits, 4, 2)
print(aux, aux.grad_fn.name())
(out.pow(2).mean() + 0.01 * aux).backward()
print(x.grad[0])
print(moe.gate.weight.grad)
print([None if e.w1.weight.grad is None else round(e.w1.weight.grad.abs().sum().item(), 4) for e in moe.experts])

# an expert that receives no tokens gets no gradient: empty index tensors
empty = torch.zeros(0, dtype=torch.long)
print(x.detach().view(-1, 4)[empty].shape, torch.zeros(3, 4).index_add_(0, empty, torch.zeros(0, 4)).sum())
print(F.one_hot(torch.tensor([0, 2]), -1), F.one_hot(torch.tensor([[1], [0]]), 3).shape)
try:
    F.one_hot(torch.tensor([0, 4]), num_classes=4)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([0.0, 1.0]), num_classes=2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, 4).index_add_(0, torch.tensor([0, 1]), torch.ones(3, 4))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
