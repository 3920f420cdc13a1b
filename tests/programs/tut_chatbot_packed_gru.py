# The "Chatbot Tutorial", scaled down: zero-padded batches built with itertools.zip_longest and
# transposed to (max_len, batch), a bidirectional GRU encoder over pack_padded_sequence /
# pad_packed_sequence with the two directions summed, Luong attention ('dot', 'general',
# 'concat'), a one-step decoder, maskNLLLoss via torch.gather + masked_select, and
# clip_grad_norm_ on encoder and decoder.
import itertools
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_token, SOS_token, EOS_token = 0, 1, 2
voc_size, hidden_size = 9, 4


def zeroPadding(l, fillvalue=PAD_token):
    return list(itertools.zip_longest(*l, fillvalue=fillvalue))


def binaryMatrix(l):
    return [[0 if token == PAD_token else 1 for token in seq] for seq in l]


def det(module, k):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view(p.shape) * 0.5)
    return module


inputs = [[3, 4, 5, 6, EOS_token], [7, 8, EOS_token], [5, 3, 4, EOS_token]]
inputs.sort(key=len, reverse=True)
lengths = torch.tensor([len(s) for s in inputs])
padVar = torch.LongTensor(zeroPadding(inputs))
targets = [[4, 5, EOS_token], [8, 7, 6, EOS_token], [3, EOS_token]]
padList = zeroPadding(targets)
mask = torch.BoolTensor(binaryMatrix(padList))
target_variable = torch.LongTensor(padList)
max_target_len = max(len(t) for t in targets)
print(padVar.t(), lengths, mask.t(), target_variable.shape, max_target_len)


class EncoderRNN(nn.Module):
    def __init__(self, hidden_size, embedding, n_layers=1):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = embedding
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, bidirectional=True)

    def forward(self, input_seq, input_lengths, hidden=None):
        embedded = self.embedding(input_seq)
        packed = nn.utils.rnn.pack_padded_sequence(embedded, input_lengths)
        outputs, hidden = self.gru(packed, hidden)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs)
        outputs = outputs[:, :, :self.hidden_size] + outputs[:, :, self.hidden_size:]
        return outputs, hidden


class Attn(nn.Module):
    def __init__(self, method, hidden_size):
        super().__init__()
        self.method = method
        if self.method == 'general':
            self.attn = nn.Linear(hidden_size, hidden_size)
        elif self.method == 'concat':
            self.attn = nn.Linear(hidden_size * 2, hidden_size)
            self.v = nn.Parameter(torch.linspace(-0.5, 0.5, hidden_size))

    def forward(self, hidden, encoder_outputs):
        if self.method == 'general':
            attn_energies = torch.sum(hidden * self.attn(encoder_outputs), dim=2)
        elif self.method == 'concat':
            energy = self.attn(torch.cat((hidden.expand(encoder_outputs.size(0), -1, -1), encoder_outputs), 2)).tanh()
            attn_energies = torch.sum(self.v * energy, dim=2)
        else:
            attn_energies = torch.sum(hidden * encoder_outputs, dim=2)
        attn_energies = attn_energies.t()
        return F.softmax(attn_energies, dim=1).unsqueeze(1)


class LuongAttnDecoderRNN(nn.Module):
    def __init__(self, attn_model, embedding, hidden_size, output_size):
        super().__init__()
        self.embedding = embedding
        self.gru = nn.GRU(hidden_size, hidden_size, 1)
        self.concat = nn.Linear(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)
        self.attn = Attn(attn_model, hidden_size)

    def forward(self, input_step, last_hidden, encoder_outputs):
        embedded = self.embedding(input_step)
        rnn_output, hidden = self.gru(embedded, last_hidden)
        attn_weights = self.attn(rnn_output, encoder_outputs)
        context = attn_weights.bmm(encoder_outputs.transpose(0, 1))
        rnn_output, context = rnn_output.squeeze(0), context.squeeze(1)
        concat_output = torch.tanh(self.concat(torch.cat((rnn_output, context), 1)))
        output = F.softmax(self.out(concat_output), dim=1)
        return output, hidden


def maskNLLLoss(inp, target, mask):
    nTotal = mask.sum()
    crossEntropy = -torch.log(torch.gather(inp, 1, target.view(-1, 1)).squeeze(1))
    loss = crossEntropy.masked_select(mask).mean()
    return loss, nTotal.item()


for attn_model in ('dot', 'general', 'concat'):
    embedding = det(nn.Embedding(voc_size, hidden_size), 0.9)
    encoder = det(EncoderRNN(hidden_size, embedding), 0.45)
    decoder = det(LuongAttnDecoderRNN(attn_model, embedding, hidden_size, voc_size), 0.33)
    encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=0.01)
    decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=0.01 * 5.0)
    for it in range(2):
        encoder_optimizer.zero_grad()
        decoder_optimizer.zero_grad()
        encoder_outputs, encoder_hidden = encoder(padVar, lengths)
        decoder_input = torch.LongTensor([[SOS_token for _ in range(len(inputs))]])
        decoder_hidden = encoder_hidden[:decoder.gru.num_layers]
        loss, print_losses, n_totals = 0, [], 0
        for t in range(max_target_len):
            decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
            decoder_input = target_variable[t].view(1, -1)
            mask_loss, nTotal = maskNLLLoss(decoder_output, target_variable[t], mask[t])
            loss += mask_loss
            print_losses.append(mask_loss.item() * nTotal)
            n_totals += nTotal
        loss.backward()
        enorm = nn.utils.clip_grad_norm_(encoder.parameters(), 1.0)
        dnorm = nn.utils.clip_grad_norm_(decoder.parameters(), 1.0)
        encoder_optimizer.step()
        decoder_optimizer.step()
        print(f"{attn_model} it {it} loss {sum(print_losses) / n_totals:.4f} norms {enorm.item():.4f} {dnorm.item():.4f}")
    print(encoder_outputs.shape, encoder_hidden.shape, encoder_outputs[3:, 1], embedding.weight.grad[PAD_token])
print(encoder, decoder)

# one optimizer over both modules lists the shared embedding twice: PyTorch only warns
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    try:
        opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=0.01)
        print(len(opt.param_groups[0]['params']), [str(x.message)[:52] for x in w])
    except ValueError as e:
        print(type(e).__name__, e)
