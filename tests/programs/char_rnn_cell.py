# A char-level RNN cell from nn.Linear + tanh, unrolled over time, trained with BPTT.
import torch
import torch.nn as nn

text = "hello world, hello tapes"
chars = sorted(set(text))
n_letters = len(chars)
char_to_ix = {ch: i for i, ch in enumerate(chars)}
print(n_letters, chars[:5])


def letter_to_tensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][char_to_ix[letter]] = 1
    return tensor


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        hidden = torch.tanh(self.i2h(input) + self.h2h(hidden))
        output = self.softmax(self.h2o(hidden))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 32, n_letters)
with torch.no_grad():
    for i, p in enumerate(rnn.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.31 + i).view(p.shape) * 0.2)
print(letter_to_tensor("h"))

criterion = nn.NLLLoss()
optimizer = torch.optim.Adam(rnn.parameters(), lr=0.01)
inputs = torch.cat([letter_to_tensor(c) for c in text[:-1]])
targets = torch.tensor([char_to_ix[c] for c in text[1:]], dtype=torch.long)
for epoch in range(40):
    hidden = rnn.initHidden()
    optimizer.zero_grad()
    loss = 0
    for t in range(inputs.size(0)):
        output, hidden = rnn(inputs[t].unsqueeze(0), hidden)
        loss += criterion(output, targets[t:t + 1])
    loss.backward()
    torch.nn.utils.clip_grad_norm_(rnn.parameters(), 5.0)
    optimizer.step()
    if epoch % 10 == 9:
        print(epoch, f"{loss.item() / inputs.size(0):.4f}")

with torch.no_grad():
    hidden = rnn.initHidden()
    ch = "h"
    generated = ch
    for _ in range(10):
        output, hidden = rnn(letter_to_tensor(ch), hidden)
        topv, topi = output.topk(1)
        ch = chars[topi[0][0].item()]
        generated += ch
print(repr(generated))
print(hidden.shape, output.grad_fn, loss.grad_fn.name())
