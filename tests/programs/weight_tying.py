# Weight tying as in the word-language-model example: decoder.weight = encoder.weight.
# One Parameter, two uses: parameters() lists it once, state_dict() under both names,
# its gradient is the sum of both uses, and an optimizer step keeps the two tied.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedLM(nn.Module):
    def __init__(self, ntoken=6, ninp=4, tie_weights=True):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.hidden = nn.Linear(ninp, ninp)
        self.decoder = nn.Linear(ninp, ntoken)
        with torch.no_grad():
            self.encoder.weight.copy_(torch.cos(torch.arange(ntoken * ninp, dtype=torch.float32) * 0.7).view(ntoken, ninp))
            self.hidden.weight.copy_(torch.eye(ninp) * 0.5 + 0.1)
            self.hidden.bias.fill_(0.05)
            self.decoder.weight.copy_(torch.sin(torch.arange(ntoken * ninp, dtype=torch.float32)).view(ntoken, ninp))
            self.decoder.bias.zero_()
        if tie_weights:
            self.decoder.weight = self.encoder.weight

    def forward(self, tokens):
        emb = self.encoder(tokens)
        return self.decoder(torch.tanh(self.hidden(emb)))


model = TiedLM()
print(model.decoder.weight is model.encoder.weight, type(model.decoder.weight).__name__)
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_parameters(remove_duplicate=False)])
print(len(list(model.parameters())), sum(p.numel() for p in model.parameters()))
print(list(model.state_dict().keys()))
sd = model.state_dict()
print(sd["encoder.weight"].data_ptr() == sd["decoder.weight"].data_ptr())

untied = TiedLM(tie_weights=False)
print(len(list(untied.parameters())), sum(p.numel() for p in untied.parameters()))

tokens = torch.tensor([[0, 1, 2], [3, 4, 5]])
targets = torch.tensor([[1, 2, 3], [4, 5, 0]])
logits = model(tokens)
loss = F.cross_entropy(logits.view(-1, 6), targets.view(-1))
loss.backward()
print(logits.shape, loss)
print(model.encoder.weight.grad)

# The tied gradient is the sum of the embedding part and the decoder part
emb_part = torch.zeros(6, 4)
w = model.encoder.weight.detach().clone().requires_grad_()
w2 = model.encoder.weight.detach().clone().requires_grad_()
emb = F.embedding(tokens, w)
out = F.linear(torch.tanh(model.hidden(emb)), w2, model.decoder.bias)
F.cross_entropy(out.view(-1, 6), targets.view(-1)).backward()
print(torch.allclose(w.grad + w2.grad, model.encoder.weight.grad))
print(w.grad[0], w2.grad[0])

# One optimizer step updates the shared tensor once, and the tie survives
opt = torch.optim.SGD(model.parameters(), lr=0.5)
opt.step()
print(model.decoder.weight is model.encoder.weight, len(opt.param_groups[0]["params"]))
print(model.encoder.weight[0])

# Loading a state_dict keeps the tie
fresh = TiedLM()
fresh.load_state_dict(model.state_dict())
print(fresh.decoder.weight is fresh.encoder.weight, torch.equal(fresh.decoder.weight, model.decoder.weight))

# Tying by copying values (a common mistake) does not tie
copied = TiedLM(tie_weights=False)
copied.decoder.weight.data = copied.encoder.weight.data.clone()
print(copied.decoder.weight is copied.encoder.weight, len(list(copied.parameters())))

# Assigning a plain tensor instead of a Parameter is refused
try:
    model.decoder.weight = model.encoder.weight * 1.0
except TypeError as e:
    print("TypeError:", e)

# Tying through a shared module
shared = nn.Linear(4, 4, bias=False)
seq = nn.Sequential(shared, nn.ReLU(), shared)
print(seq)
print([n for n, _ in seq.named_parameters()], [n for n, _ in seq.named_modules()])
print(list(seq.state_dict().keys()))
