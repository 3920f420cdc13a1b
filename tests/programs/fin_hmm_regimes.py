# Two-regime Gaussian hidden Markov model for returns (bull/bear), as in regime-switching
# notebooks: forward algorithm in log space with logsumexp, MLE by Adam, Viterbi decoding.
import torch
import torch.nn.functional as F
from torch.distributions import Normal, Categorical

dtype = torch.float64
t = torch.arange(120, dtype=dtype)
bear = (torch.sin(t / 12.0) < -0.3).to(dtype)
returns = (0.004 - 0.01 * bear) + (0.006 + 0.014 * bear) * torch.sin(1.9 * t + 0.5)
print("bear days", int(bear.sum().item()), "of", len(t))


class HMM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.trans_logits = torch.nn.Parameter(torch.tensor([[2.0, 0.0], [0.0, 2.0]], dtype=dtype))
        self.init_logits = torch.nn.Parameter(torch.zeros(2, dtype=dtype))
        self.mu = torch.nn.Parameter(torch.tensor([0.002, -0.002], dtype=dtype))
        self.log_sigma = torch.nn.Parameter(torch.log(torch.tensor([0.008, 0.015], dtype=dtype)))

    def emissions(self, x):
        return Normal(self.mu, self.log_sigma.exp()).log_prob(x.unsqueeze(-1))  # (T, 2)

    def forward(self, x):
        log_A = F.log_softmax(self.trans_logits, dim=-1)
        log_e = self.emissions(x)
        alpha = F.log_softmax(self.init_logits, -1) + log_e[0]
        for i in range(1, x.shape[0]):
            alpha = torch.logsumexp(alpha.unsqueeze(-1) + log_A, dim=0) + log_e[i]
        return torch.logsumexp(alpha, dim=0)

    @torch.no_grad()
    def viterbi(self, x):
        log_A = F.log_softmax(self.trans_logits, dim=-1)
        log_e = self.emissions(x)
        delta = F.log_softmax(self.init_logits, -1) + log_e[0]
        back = []
        for i in range(1, x.shape[0]):
            scores = delta.unsqueeze(-1) + log_A
            best, arg = scores.max(dim=0)
            back.append(arg)
            delta = best + log_e[i]
        path = [int(delta.argmax())]
        for arg in reversed(back):
            path.append(int(arg[path[-1]]))
        return torch.tensor(path[::-1])


model = HMM()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(30):
    ll = model(returns)
    opt.zero_grad()
    (-ll).backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"loglik={ll.item():.4f}")
A = F.softmax(model.trans_logits.detach(), -1)
print("transition", A.to(torch.float32))
print("mu", model.mu.detach().to(torch.float32), "sigma", model.log_sigma.exp().detach().to(torch.float32))
states = model.viterbi(returns)
print("viterbi head", states[:20])
print("regime switches", int((states[1:] != states[:-1]).sum()))
stationary = torch.linalg.matrix_power(A, 200)[0]
print("stationary", stationary.to(torch.float32))
evals, evecs = torch.linalg.eigh(A.T @ A)
print("eigh", evals.to(torch.float32))
pi = Categorical(logits=model.init_logits.detach())
print("init probs", pi.probs.to(torch.float32), "entropy", f"{pi.entropy().item():.4f}")
durations = 1 / (1 - A.diagonal())
print("expected durations", durations.to(torch.float32))
