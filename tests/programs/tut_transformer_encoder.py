# The "Language Modeling with nn.Transformer" tutorial, scaled down: sinusoidal PositionalEncoding
# buffer, TransformerEncoderLayer/TransformerEncoder (batch_first, eval mode so dropout is off),
# a causal mask from Transformer.generate_square_subsequent_mask, src_key_padding_mask, and a
# tiny nn.Transformer forward pass. Every parameter is set by a deterministic formula.
import math
import torch
import torch.nn as nn


def fill_(module):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            if name.endswith("norm1.weight") or name.endswith("norm2.weight") or name.endswith("norm3.weight") or name.endswith("norm.weight"):
                p.fill_(1.0)
            else:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape) * 0.3)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=16):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x):  # x: [seq_len, batch, d_model]
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout=0.1)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


model = TransformerModel(ntoken=11, d_model=8, nhead=2, d_hid=12, nlayers=2)
fill_(model)
print(model.pos_encoder.pe[:3, 0], [k for k, _ in model.named_buffers()])
print(model.transformer_encoder.layers[0])
print(sorted(k for k in model.state_dict() if k.startswith('transformer_encoder.layers.1')))
data = torch.arange(12).remainder(11).view(6, 2)  # [seq_len=6, batch=2]
targets = (data + 1).remainder(11).view(-1)
src_mask = nn.Transformer.generate_square_subsequent_mask(6)
print(src_mask)
model.eval()
criterion = nn.CrossEntropyLoss()
with torch.no_grad():
    output = model(data, src_mask)
print(output.shape, output[0, 0], criterion(output.view(-1, 11), targets))
model.train()
for mod in model.modules():
    if isinstance(mod, nn.Dropout):
        mod.p = 0.0
    elif isinstance(mod, nn.MultiheadAttention):
        mod.dropout = 0.0  # attention dropout is a float attribute, not a module
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(3):
    optimizer.zero_grad()
    output = model(data, src_mask)
    loss = criterion(output.view(-1, 11), targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} ppl {math.exp(loss.item()):.3f}")
print(model.transformer_encoder.layers[0].self_attn.in_proj_weight.grad[:2, :4])

# batch_first encoder with a key padding mask
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=6, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
fill_(enc)
enc.eval()
x = torch.linspace(-1, 1, 2 * 3 * 4).view(2, 3, 4)
pad = torch.tensor([[False, False, True], [False, False, False]])
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
    y2 = enc(x[:1, :2])
print(y.shape, y[0], torch.allclose(y[0, :2], y2[0], atol=1e-6))

tr = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                    dim_feedforward=6, dropout=0.0, batch_first=True)
fill_(tr)
tgt = torch.linspace(1, -1, 2 * 2 * 4).view(2, 2, 4)
out = tr(x, tgt, tgt_mask=tr.generate_square_subsequent_mask(2))
print(out.shape, out.grad_fn.name(), out[1])
(out * torch.arange(16.).view(2, 2, 4)).sum().backward()
print(tr.decoder.layers[0].multihead_attn.out_proj.weight.grad[0])
