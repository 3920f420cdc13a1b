# The "NLP From Scratch: Translation with a Sequence to Sequence Network and Attention"
# tutorial, scaled down: batch_first GRU encoder, a Bahdanau (additive) attention decoder
# and a Luong dot-attention variant, teacher forcing, NLLLoss over log_softmax outputs.
import torch
import torch.nn as nn
import torch.nn.functional as F

SOS_token, EOS_token = 0, 1
V_IN, V_OUT, H, MAX_LEN = 7, 6, 5, 4


def det_init(module, shift=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape) * torch.cos(torch.arange(p.numel()).reshape(p.shape) + i + shift))


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super().__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dot=False):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dot = dot

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs, attentions = [], []
        for i in range(MAX_LEN):
            embedded = self.embedding(decoder_input)
            query = decoder_hidden.permute(1, 0, 2)
            if self.dot:
                attn_weights = F.softmax(torch.bmm(query, encoder_outputs.transpose(1, 2)), dim=-1)
                context = torch.bmm(attn_weights, encoder_outputs)
            else:
                context, attn_weights = self.attention(query, encoder_outputs)
            input_gru = torch.cat((embedded, context), dim=2)
            output, decoder_hidden = self.gru(input_gru, decoder_hidden)
            decoder_outputs.append(self.out(output))
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)  # teacher forcing
            else:
                _, topi = decoder_outputs[-1].topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = F.log_softmax(torch.cat(decoder_outputs, dim=1), dim=-1)
        return decoder_outputs, decoder_hidden, torch.cat(attentions, dim=1)


src = torch.tensor([[2, 3, 4, 1], [5, 6, 2, 1]])
tgt = torch.tensor([[2, 3, 4, 1], [4, 5, 2, 1]])
for dot in (False, True):
    encoder, decoder = EncoderRNN(V_IN, H, dropout_p=0.0), AttnDecoderRNN(H, V_OUT, dot=dot)
    det_init(encoder), det_init(decoder, 1.0)
    enc_opt = torch.optim.Adam(encoder.parameters(), lr=0.05)
    dec_opt = torch.optim.Adam(decoder.parameters(), lr=0.05)
    criterion = nn.NLLLoss()
    for epoch in range(4):
        enc_opt.zero_grad(), dec_opt.zero_grad()
        encoder_outputs, encoder_hidden = encoder(src)
        decoder_outputs, _, attn = decoder(encoder_outputs, encoder_hidden, tgt)
        loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), tgt.view(-1))
        loss.backward()
        enc_opt.step(), dec_opt.step()
        print(f"dot={dot} epoch {epoch} loss {loss.item():.4f}")
    print(encoder_outputs.shape, encoder_hidden.shape, decoder_outputs.shape, attn.shape)
    print(attn[0].detach(), torch.allclose(attn.sum(-1), torch.ones(attn.shape[:-1])))
    print(encoder.gru.weight_hh_l0.grad[:2, :3], decoder.embedding.weight.grad[0])
    encoder.eval(), decoder.eval()
    with torch.no_grad():
        eo, eh = encoder(src)
        dout, _, _ = decoder(eo, eh)
        _, topi = dout.topk(1)
    print(topi.squeeze(-1), dout.requires_grad, dout.exp().sum(-1)[0])
print(encoder, decoder)
