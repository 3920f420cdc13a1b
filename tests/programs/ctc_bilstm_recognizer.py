# A CTC-trained toy sequence recognizer, as in speech/OCR tutorials: a BiLSTM over feature frames,
# log_softmax over (blank + labels), nn.CTCLoss with padded targets and per-sample lengths,
# Adam for a few dozen steps, then greedy (best-path) decoding: argmax, collapse repeats, drop blanks.
import torch
import torch.nn as nn
import torch.nn.functional as F

BLANK, N_CLASSES, FEATS, FRAMES = 0, 5, 6, 12


class Recognizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(FEATS, 8, bidirectional=True)
        self.fc = nn.Linear(16, N_CLASSES)

    def forward(self, x):  # x: (T, N, F)
        out, _ = self.rnn(x)
        return self.fc(out).log_softmax(2)


def make_frames(labels, frames):
    """Each label is 'spoken' for 2-3 frames of a label-dependent waveform, blanks between."""
    t = torch.arange(frames, dtype=torch.float32)
    x = torch.zeros(frames, FEATS)
    pos = 1
    for i, lab in enumerate(labels):
        width = 2 + (i % 2)
        for k in range(width):
            x[pos + k] = torch.cos(torch.arange(FEATS) * 0.7 * lab + t[pos + k] * 0.1) * lab / 4
        pos += width + 1
    return x


model = Recognizer()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).mul(i + 3).sin() * 0.4)

targets_list = [[1, 2, 3], [4, 4], [2, 1], [3, 4, 1]]
target_lengths = torch.tensor([len(t) for t in targets_list])
targets = torch.zeros(len(targets_list), max(target_lengths), dtype=torch.long)
for b, t in enumerate(targets_list):
    targets[b, :len(t)] = torch.tensor(t)
x = torch.stack([make_frames(t, FRAMES) for t in targets_list], dim=1)
input_lengths = torch.tensor([12, 10, 9, 12])
print(x.shape, targets, target_lengths, input_lengths)

ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
print(ctc, ctc.blank, ctc.reduction, ctc.zero_infinity)
opt = torch.optim.Adam(model.parameters(), lr=0.05)

first = None
for step in range(50):
    opt.zero_grad()
    log_probs = model(x)
    loss = ctc(log_probs, targets, input_lengths, target_lengths)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    first = loss.item() if first is None else first
    if step % 10 == 0:
        print(f"step {step:2d} loss {loss.item():.3f}")
print("loss decreased:", loss.item() < first, loss.grad_fn.name())


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(2).T  # (N, T)
    out = []
    for seq, n in zip(best.tolist(), lengths.tolist()):
        collapsed = [k for i, k in enumerate(seq[:n]) if i == 0 or k != seq[i - 1]]
        out.append([k for k in collapsed if k != BLANK])
    return out


model.eval()
with torch.no_grad():
    lp = model(x)
    per_sample = F.ctc_loss(lp, targets, input_lengths, target_lengths, reduction="none")
    print("per-sample loss", [round(v, 2) for v in per_sample.tolist()])
decoded = greedy_decode(lp, input_lengths)
print("decoded", decoded)
print("exact matches", sum(d == t for d, t in zip(decoded, targets_list)), "of", len(targets_list))
