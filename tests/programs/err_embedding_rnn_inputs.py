# Forum question: NLP beginners' errors — "Expected tensor for argument #1 'indices' to have one of
# the following scalar types: Long, Int", LSTM input shapes, pack_padded_sequence lengths, fixes.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


vocab = {"<pad>": 0, "the": 1, "cat": 2, "sat": 3, "on": 4, "mat": 5}
sentences = [["the", "cat", "sat"], ["the", "mat"], ["on", "the", "mat", "cat"]]
ids = [torch.tensor([vocab[w] for w in s]) for s in sentences]
lengths = torch.tensor([len(s) for s in sentences])
batch = pad_sequence(ids, batch_first=True)
print(batch)

emb = nn.Embedding(len(vocab), 4, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.linspace(-1, 1, 24).view(6, 4))
    emb.weight[0].zero_()
attempt("float ids", lambda: emb(batch.float()))
attempt("double ids", lambda: emb(batch.double()))
attempt("word not in vocab", lambda: emb(torch.tensor([6])))
attempt("list ids", lambda: emb([1, 2]))
attempt("numpy ids", lambda: emb(batch.numpy()))
attempt("ok shape", lambda: emb(batch).shape)
attempt("padding row", lambda: emb(batch)[1, 2])

lstm = nn.LSTM(input_size=4, hidden_size=3, batch_first=True)
gru = nn.GRU(4, 3)
x = emb(batch)
attempt("LSTM wrong features", lambda: lstm(torch.zeros(3, 4, 5)))
attempt("LSTM 4-D input", lambda: lstm(x.unsqueeze(0)))
attempt("LSTM 2-D unbatched ok", lambda: lstm(x[0])[0].shape)
attempt("LSTM double input", lambda: lstm(x.double()))
attempt("LSTM bad h0 shape", lambda: lstm(x, (torch.zeros(3, 3), torch.zeros(3, 3))))
attempt("LSTM h0 only", lambda: lstm(x, torch.zeros(1, 3, 3)))
attempt("LSTM h0 batch mismatch", lambda: lstm(x, (torch.zeros(1, 2, 3), torch.zeros(1, 2, 3))))
attempt("GRU tuple hidden", lambda: gru(x.transpose(0, 1), (torch.zeros(1, 3, 3), torch.zeros(1, 3, 3))))
attempt("GRU h0 wrong size", lambda: gru(x.transpose(0, 1), torch.zeros(1, 3, 4)))
attempt("RNN bad nonlinearity", lambda: nn.RNN(4, 3, nonlinearity="sigmoid"))
attempt("LSTM dropout warn 1 layer", lambda: type(nn.LSTM(4, 3, dropout=0.5)).__name__)
attempt("LSTM proj_size too big", lambda: nn.LSTM(4, 3, proj_size=3))

attempt("pack unsorted", lambda: pack_padded_sequence(x, lengths, batch_first=True))
attempt("pack cuda lengths", lambda: pack_padded_sequence(x, lengths.float(), batch_first=True).batch_sizes)
attempt("pack zero length", lambda: pack_padded_sequence(x, torch.tensor([3, 0, 4]), batch_first=True, enforce_sorted=False))
attempt("pack wrong count", lambda: pack_padded_sequence(x, torch.tensor([3, 2]), batch_first=True, enforce_sorted=False))
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print("batch_sizes:", packed.batch_sizes, "sorted:", packed.sorted_indices)
out, (h, c) = lstm(packed)
padded, out_lengths = pad_packed_sequence(out, batch_first=True)
print("padded:", padded.shape, out_lengths, h.shape)
attempt("pad_packed total_length short", lambda: pad_packed_sequence(out, batch_first=True, total_length=2))
attempt("pad_packed total_length long", lambda: pad_packed_sequence(out, batch_first=True, total_length=6)[0].shape)
attempt("pad_sequence mixed dims", lambda: pad_sequence([torch.ones(2, 3), torch.ones(2, 4)]))
attempt("pad_sequence not list", lambda: pad_sequence(torch.ones(2, 3)).shape)
attempt("pad_sequence padding_side", lambda: pad_sequence(ids, batch_first=True, padding_side="left"))
attempt("pad_sequence bad side", lambda: pad_sequence(ids, padding_side="middle"))
attempt("unpadded lstm on packed data", lambda: nn.Linear(3, 2)(out))
