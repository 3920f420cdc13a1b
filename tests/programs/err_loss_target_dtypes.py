# Forum question: "expected scalar type Long but found Float" when training a classifier,
# plus BCE/MSE target dtype mix-ups (Long labels into BCEWithLogits, int targets into MSELoss).
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.linspace(-1, 1, 12).view(3, 4))
    net.fc.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))

x = torch.linspace(-2, 2, 20).view(5, 4)
labels_float = torch.tensor([0., 2., 1., 1., 0.])
labels_int32 = torch.tensor([0, 2, 1, 1, 0], dtype=torch.int32)
labels_uint8 = torch.tensor([0, 2, 1, 1, 0], dtype=torch.uint8)
out = net(x)

ce = nn.CrossEntropyLoss()
attempt("CE float labels", lambda: ce(out, labels_float))
attempt("CE int32 labels", lambda: ce(out, labels_int32))
attempt("CE uint8 labels", lambda: ce(out, labels_uint8))
attempt("CE fixed .long()", lambda: f"{ce(out, labels_float.long()).item():.4f}")
attempt("CE bool labels", lambda: ce(out, labels_float.bool()))
attempt("NLL int32", lambda: F.nll_loss(F.log_softmax(out, 1), labels_int32))
attempt("NLL float", lambda: F.nll_loss(F.log_softmax(out, 1), labels_float))
attempt("CE half logits", lambda: ce(out.half(), labels_float.long()))
attempt("CE double logits", lambda: f"{ce(out.double(), labels_float.long()).item():.4f}")
attempt("CE int logits", lambda: ce(out.long(), labels_float.long()))

# binary head
head = nn.Linear(4, 1)
with torch.no_grad():
    head.weight.copy_(torch.tensor([[0.5, -0.5, 0.25, 0.0]]))
    head.bias.zero_()
logit = head(x)
y01 = torch.tensor([1, 0, 1, 0, 1])
bce = nn.BCEWithLogitsLoss()
attempt("BCEWithLogits long target", lambda: bce(logit.squeeze(1), y01))
attempt("BCEWithLogits shape (5,1) vs (5,)", lambda: bce(logit, y01.float()))
attempt("BCEWithLogits fixed", lambda: f"{bce(logit.squeeze(1), y01.float()).item():.4f}")
attempt("BCE no sigmoid (out of range)", lambda: F.binary_cross_entropy(logit.squeeze(1), y01.float()))
attempt("BCE long target", lambda: F.binary_cross_entropy(torch.sigmoid(logit).squeeze(1), y01))
attempt("BCE double target", lambda: F.binary_cross_entropy(torch.sigmoid(logit).squeeze(1), y01.double()))
attempt("BCE shape mismatch", lambda: F.binary_cross_entropy(torch.sigmoid(logit), y01.float()))
attempt("BCE fixed", lambda: f"{F.binary_cross_entropy(torch.sigmoid(logit).squeeze(1), y01.float()).item():.4f}")

# regression head with integer targets
mse = nn.MSELoss()
attempt("MSE long target", lambda: mse(logit.squeeze(1), y01))
attempt("MSE double target", lambda: mse(logit.squeeze(1), y01.double()))
attempt("L1 long target", lambda: F.l1_loss(logit.squeeze(1), y01))
attempt("SmoothL1 long target", lambda: F.smooth_l1_loss(logit.squeeze(1), y01))
attempt("Huber int target", lambda: F.huber_loss(logit.squeeze(1), y01.int()))
attempt("MSE both long", lambda: mse(y01, y01))

# backward through the mixed-dtype loss
loss = mse(logit.squeeze(1), y01.double())
print("mixed loss dtype:", loss.dtype)
try:
    loss.backward()
    print("backward ok, grad dtype:", head.weight.grad.dtype)
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, e)
