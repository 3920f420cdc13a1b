# CRNN-style line OCR with CTC: a Conv1d feature extractor over a "text strip" (N, C, W), output
# permuted to (T, N, classes) for F.ctc_loss with concatenated 1-D targets and tuple lengths, SGD
# with momentum, best-path decoding, plus the checks users hit: impossible alignments
# (inf / zero_infinity), the unbatched (T, C) form, the 'mean' graph, and length errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

ALPHABET = "-abc"  # index 0 is the CTC blank
torch.set_printoptions(precision=4)


def render(text, width=16):
    """Draw each character as a 3-column glyph with a 1-column gap; 4 'pixel rows'."""
    strip = torch.zeros(4, width)
    for i, ch in enumerate(text):
        k = ALPHABET.index(ch)
        col = 1 + 4 * i
        rows = torch.arange(4, dtype=torch.float32)
        for j in range(3):
            strip[:, col + j] = torch.sin(rows * k + j * 0.5 + k) * 0.8 + 0.2 * k
    return strip


words = ["abc", "ca", "bb", "cab"]
images = torch.stack([render(w) for w in words])  # (N, 4, 16)
targets = torch.tensor([ALPHABET.index(c) for w in words for c in w])  # concatenated
target_lengths = tuple(len(w) for w in words)
input_lengths = (16, 16, 16, 16)
print(images.shape, targets, target_lengths)

model = nn.Sequential(
    nn.Conv1d(4, 12, kernel_size=3, padding=1), nn.Tanh(),
    nn.Conv1d(12, len(ALPHABET), kernel_size=3, padding=1),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.37 + 0.1 * i)).reshape(p.shape) * 0.3)

opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
for step in range(30):
    logits = model(images)                      # (N, classes, T)
    log_probs = logits.permute(2, 0, 1).log_softmax(2)  # (T, N, classes)
    loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="sum")
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d}  ctc(sum) {loss.item():.3f}")

print(loss.grad_fn, [type(n).__name__ for n, _ in loss.grad_fn.next_functions])
print("conv grad norm", round(model[0].weight.grad.norm().item(), 3))


def best_path(lp):
    ids = lp.argmax(-1).tolist()
    chars, prev = [], None
    for k in ids:
        if k != prev and k != 0:
            chars.append(ALPHABET[k])
        prev = k
    return "".join(chars)


with torch.no_grad():
    lp = model(images).permute(2, 0, 1).log_softmax(2)
    print([best_path(lp[:, b]) for b in range(len(words))])
    # one line on its own: (T, C) log-probs, a 1-D target
    single = F.ctc_loss(lp[:, 0], targets[:3], (16,), (3,), reduction="none")
    print("single", f"{single.item():.3f}")
    # 'mean' divides each loss by its target length before averaging
    mean = F.ctc_loss(lp, targets, input_lengths, target_lengths)
    manual = (F.ctc_loss(lp, targets, input_lengths, target_lengths, reduction="none")
              / torch.tensor(target_lengths)).mean()
    print("mean", f"{mean.item():.4f}", torch.allclose(mean, manual))
    # a 3-letter word cannot fit in 2 frames
    short = F.ctc_loss(lp, targets, (2, 16, 16, 16), target_lengths, reduction="none")
    print("impossible", short[0].item(), short[1:].isfinite().all().item())
    zi = F.ctc_loss(lp, targets, (2, 16, 16, 16), target_lengths, reduction="none", zero_infinity=True)
    print("zero_infinity", zi[0].item())

for bad in [lambda: F.ctc_loss(lp, targets, (17, 16, 16, 16), target_lengths),
            lambda: F.ctc_loss(lp, targets[:-1], input_lengths, target_lengths),
            lambda: F.ctc_loss(lp, targets, input_lengths[:3], target_lengths),
            lambda: F.ctc_loss(lp, targets, input_lengths, target_lengths, blank=len(ALPHABET))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
