# bentrevett-style "Sequence to Sequence Learning with Neural Networks": a 2-layer LSTM
# encoder/decoder (seq-first), a decoder stepping one token at a time with teacher forcing,
# outputs[1:] flattened into CrossEntropyLoss(ignore_index=PAD), clip_grad_norm_, count_parameters.
import torch
import torch.nn as nn

PAD, SOS, EOS = 0, 1, 2
IN_V, OUT_V, EMB, HID, LAYERS = 10, 9, 6, 8, 2


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(IN_V, EMB)
        self.rnn = nn.LSTM(EMB, HID, LAYERS, dropout=0.5)
        self.dropout = nn.Dropout(0.5)

    def forward(self, src):
        outputs, (hidden, cell) = self.rnn(self.dropout(self.embedding(src)))
        return hidden, cell


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.output_dim = OUT_V
        self.embedding = nn.Embedding(OUT_V, EMB)
        self.rnn = nn.LSTM(EMB, HID, LAYERS, dropout=0.5)
        self.fc_out = nn.Linear(HID, OUT_V)
        self.dropout = nn.Dropout(0.5)

    def forward(self, input, hidden, cell):
        input = input.unsqueeze(0)
        output, (hidden, cell) = self.rnn(self.dropout(self.embedding(input)), (hidden, cell))
        return self.fc_out(output.squeeze(0)), hidden, cell


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder
        assert encoder.rnn.hidden_size == decoder.rnn.hidden_size, "Hidden dimensions must be equal!"

    def forward(self, src, trg, teacher_forcing=(True,)):
        trg_len, batch_size = trg.shape
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim)
        hidden, cell = self.encoder(src)
        input = trg[0, :]
        for t in range(1, trg_len):
            output, hidden, cell = self.decoder(input, hidden, cell)
            outputs[t] = output
            top1 = output.argmax(1)
            input = trg[t] if teacher_forcing[t % len(teacher_forcing)] else top1
        return outputs


model = Seq2Seq(Encoder(), Decoder())
with torch.no_grad():
    for i, (name, param) in enumerate(model.named_parameters()):
        param.copy_(torch.sin(torch.arange(param.numel(), dtype=torch.float32) * 0.7 + i).view(param.shape) * 0.08)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


print(f"The model has {count_parameters(model):,} trainable parameters")
src = torch.tensor([[1, 1, 1], [4, 5, 9], [6, 3, 7], [8, 2, 2], [2, 0, 0]])
trg = torch.tensor([[1, 1, 1], [5, 7, 3], [4, 6, 2], [8, 2, 0], [2, 0, 0]])
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)
model.encoder.dropout.p = model.decoder.dropout.p = 0.0
model.encoder.rnn.dropout = model.decoder.rnn.dropout = 0.0
for epoch in range(20):
    model.train()
    optimizer.zero_grad()
    output = model(src, trg, teacher_forcing=(True, False, True))
    output_dim = output.shape[-1]
    output = output[1:].view(-1, output_dim)
    loss = criterion(output, trg[1:].view(-1))
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if epoch % 4 == 0 or epoch == 19:
        print(f"Epoch: {epoch + 1:02} | Train Loss: {loss.item():.3f} | grad norm {gn:.3f}")

model.eval()
with torch.no_grad():
    out = model(src, trg, teacher_forcing=(False,))
print(out.shape, out[0].abs().sum().item(), out[1:].argmax(-1).T)
print(model.encoder.rnn, model.decoder.rnn.dropout, model.training, model.encoder.dropout)
print(output.grad_fn.name(), outputs_req := out.requires_grad)
try:
    Seq2Seq(Encoder(), nn.Module())
except AttributeError as e:
    print(type(e).__name__, e)
