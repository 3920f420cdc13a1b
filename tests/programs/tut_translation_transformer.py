# The "Language Translation with nn.Transformer" tutorial, scaled down: TokenEmbedding (scaled
# by sqrt(emb_size)), PositionalEncoding buffer, Seq2SeqTransformer around nn.Transformer with
# src/tgt masks and padding masks from create_mask, CrossEntropyLoss(ignore_index=PAD_IDX),
# encode/decode and greedy_decode. Seq-first layout as in the tutorial; dropout=0.
import math
import torch
import torch.nn as nn
from torch import Tensor

PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3
SRC_VOCAB, TGT_VOCAB, EMB, NHEAD, FFN = 10, 9, 8, 2, 16


class PositionalEncoding(nn.Module):
    def __init__(self, emb_size: int, dropout: float, maxlen: int = 20):
        super().__init__()
        den = torch.exp(- torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pos_embedding = torch.zeros((maxlen, emb_size))
        pos_embedding[:, 0::2] = torch.sin(pos * den)
        pos_embedding[:, 1::2] = torch.cos(pos * den)
        pos_embedding = pos_embedding.unsqueeze(-2)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('pos_embedding', pos_embedding)

    def forward(self, token_embedding: Tensor):
        return self.dropout(token_embedding + self.pos_embedding[:token_embedding.size(0), :])


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size: int, emb_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.emb_size = emb_size

    def forward(self, tokens: Tensor):
        return self.embedding(tokens.long()) * math.sqrt(self.emb_size)


class Seq2SeqTransformer(nn.Module):
    def __init__(self, num_encoder_layers, num_decoder_layers, emb_size, nhead, src_vocab_size,
                 tgt_vocab_size, dim_feedforward=512, dropout=0.1):
        super().__init__()
        self.transformer = nn.Transformer(d_model=emb_size, nhead=nhead, num_encoder_layers=num_encoder_layers,
                                          num_decoder_layers=num_decoder_layers, dim_feedforward=dim_feedforward,
                                          dropout=dropout)
        self.generator = nn.Linear(emb_size, tgt_vocab_size)
        self.src_tok_emb = TokenEmbedding(src_vocab_size, emb_size)
        self.tgt_tok_emb = TokenEmbedding(tgt_vocab_size, emb_size)
        self.positional_encoding = PositionalEncoding(emb_size, dropout=dropout)

    def forward(self, src, trg, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, memory_key_padding_mask):
        src_emb = self.positional_encoding(self.src_tok_emb(src))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg))
        outs = self.transformer(src_emb, tgt_emb, src_mask, tgt_mask, None,
                                src_padding_mask, tgt_padding_mask, memory_key_padding_mask)
        return self.generator(outs)

    def encode(self, src: Tensor, src_mask: Tensor):
        return self.transformer.encoder(self.positional_encoding(self.src_tok_emb(src)), src_mask)

    def decode(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor):
        return self.transformer.decoder(self.positional_encoding(self.tgt_tok_emb(tgt)), memory, tgt_mask)


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    return mask


def create_mask(src, tgt):
    src_seq_len, tgt_seq_len = src.shape[0], tgt.shape[0]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len)).type(torch.bool)
    src_padding_mask = (src == PAD_IDX).transpose(0, 1)
    tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask


model = Seq2SeqTransformer(1, 1, EMB, NHEAD, SRC_VOCAB, TGT_VOCAB, FFN, dropout=0.0)
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        if "norm" in name and name.endswith("weight"):
            p.fill_(1.0)
        else:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.57 + i).view(p.shape) * 0.35)
print(sum(p.numel() for p in model.parameters()), len(model.state_dict()), model.transformer.decoder.layers[0].multihead_attn)
src = torch.tensor([[BOS_IDX, BOS_IDX], [4, 6], [5, 7], [EOS_IDX, 8], [PAD_IDX, EOS_IDX]])
tgt = torch.tensor([[BOS_IDX, BOS_IDX], [5, 4], [6, EOS_IDX], [EOS_IDX, PAD_IDX]])
tgt_input = tgt[:-1, :]
src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = create_mask(src, tgt_input)
print(tgt_mask, src_mask.dtype, src_padding_mask, tgt_padding_mask)
loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001, betas=(0.9, 0.98), eps=1e-9)
model.train()
for epoch in range(3):
    logits = model(src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask)
    optimizer.zero_grad()
    tgt_out = tgt[1:, :]
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
    loss.backward()
    optimizer.step()
    print(f"Epoch: {epoch}, Train loss: {loss.item():.4f}, logits {tuple(logits.shape)}")
print(model.generator.bias.grad, model.src_tok_emb.embedding.weight.grad[PAD_IDX])


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for i in range(max_len - 1):
        tgt_mask = (generate_square_subsequent_mask(ys.size(0)).type(torch.bool))
        out = model.decode(ys, memory, tgt_mask)
        out = out.transpose(0, 1)
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS_IDX:
            break
    return ys, memory


model.eval()
one = src[:, :1]
ys, memory = greedy_decode(model, one, torch.zeros(5, 5).type(torch.bool), max_len=6, start_symbol=BOS_IDX)
print(ys.flatten(), ys.dtype, memory.shape, memory[0, 0])
