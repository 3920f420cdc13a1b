# pytorch/examples word_language_model, scaled down: Dictionary/Corpus tokenising a tiny text,
# batchify into (nbatch, bsz) columns, get_batch with bptt, RNNModel (Embedding -> Dropout ->
# LSTM or GRU -> Dropout -> Linear) with tied weights (decoder.weight = encoder.weight),
# repackage_hidden, clip_grad_norm_ and the manual SGD update p.data.add_(p.grad, alpha=-lr),
# evaluate() with perplexity, and the tie-weights size check.
import math
import torch
import torch.nn as nn

text = "the cat sat on the mat <eos> the dog sat on the log <eos> a cat and a dog <eos>"


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


dictionary = Dictionary()
ids = torch.tensor([dictionary.add_word(w) for w in text.split()]).type(torch.int64)
ntokens = len(dictionary)
print(ntokens, ids[:8], ids.dtype)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


bptt = 4


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers

    def init_weights(self):
        with torch.no_grad():
            self.encoder.weight.copy_(torch.linspace(-0.1, 0.1, self.encoder.weight.numel()).view_as(self.encoder.weight))
            self.decoder.bias.zero_()
            for i, p in enumerate(self.rnn.parameters()):
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view(p.shape) * 0.3)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.ntoken)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


train_data = batchify(ids, 3)
print(train_data.shape, train_data[:, 0], get_batch(train_data, 4))
criterion = nn.NLLLoss()
for rnn_type in ('LSTM', 'GRU'):
    model = RNNModel(rnn_type, ntokens, 6, 6, 2, dropout=0.0, tie_weights=True)
    print(model.decoder.weight is model.encoder.weight, len(list(model.parameters())), len(model.state_dict()))
    lr = 5.0
    for epoch in range(2):
        model.train()
        hidden = model.init_hidden(3)
        total_loss = 0.
        for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
            data, targets = get_batch(train_data, i)
            model.zero_grad()
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
            loss = criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)
            total_loss += loss.item()
        cur_loss = total_loss / (batch + 1)
        print('| {} epoch {:3d} | {:2d} batches | lr {:02.2f} | loss {:5.3f} | ppl {:8.3f}'.format(
            rnn_type, epoch, batch + 1, lr, cur_loss, math.exp(cur_loss)))
        lr /= 4.0
    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(3)
    with torch.no_grad():
        for i in range(0, train_data.size(0) - 1, bptt):
            data, targets = get_batch(train_data, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    val_loss = total_loss / (len(train_data) - 1)
    print(f"| end | valid loss {val_loss:5.3f} | valid ppl {math.exp(val_loss):8.3f}")
    print(model.encoder.weight[1], model.decoder.bias[:4])
try:
    RNNModel('GRU', ntokens, 4, 6, 1, tie_weights=True)
except ValueError as e:
    print(type(e).__name__, e)
print(model)
