# ConvLSTM for spatio-temporal forecasting (precipitation-nowcasting tutorials): a ConvLSTMCell
# whose gates come from one Conv2d over torch.cat([x, h], dim=1) split with torch.split, hidden
# state initialised with torch.zeros(..., device=...), an encoder over T frames, a Conv2d head
# predicting the next frame, and autoregressive rollout feeding predictions back in.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, bias=True):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.padding = kernel_size[0] // 2, kernel_size[1] // 2
        self.conv = nn.Conv2d(input_dim + hidden_dim, 4 * hidden_dim, kernel_size, padding=self.padding, bias=bias)

    def forward(self, input_tensor, cur_state):
        h_cur, c_cur = cur_state
        combined = torch.cat([input_tensor, h_cur], dim=1)
        combined_conv = self.conv(combined)
        cc_i, cc_f, cc_o, cc_g = torch.split(combined_conv, self.hidden_dim, dim=1)
        i, f, o = torch.sigmoid(cc_i), torch.sigmoid(cc_f), torch.sigmoid(cc_o)
        g = torch.tanh(cc_g)
        c_next = f * c_cur + i * g
        h_next = o * torch.tanh(c_next)
        return h_next, c_next

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width, device=self.conv.weight.device),
                torch.zeros(batch_size, self.hidden_dim, height, width, device=self.conv.weight.device))


class Nowcaster(nn.Module):
    def __init__(self, hidden=4):
        super().__init__()
        self.cell = ConvLSTMCell(1, hidden, (3, 3))
        self.head = nn.Conv2d(hidden, 1, 1)

    def forward(self, frames, future=0):
        b, t, _, hgt, wid = frames.size()
        h, c = self.cell.init_hidden(b, (hgt, wid))
        outputs = []
        for step in range(t):
            h, c = self.cell(frames[:, step], (h, c))
            outputs.append(self.head(h))
        for _ in range(future):
            h, c = self.cell(outputs[-1], (h, c))
            outputs.append(self.head(h))
        return torch.stack(outputs, dim=1)


def moving_blob(t, size=6):
    yy, xx = torch.meshgrid(torch.arange(size, dtype=torch.float32), torch.arange(size, dtype=torch.float32), indexing="ij")
    cx, cy = 1.0 + 0.5 * t, 2.0 + 0.3 * torch.sin(torch.tensor(t * 0.8))
    return torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 2.0)


frames = torch.stack([torch.stack([moving_blob(t + s) for t in range(7)]) for s in range(3)]).unsqueeze(2)
print("frames", tuple(frames.shape), f"{frames.sum().item():.3f}")
model = Nowcaster()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).reshape(p.shape) * 0.2)
inp, tgt = frames[:, :-1], frames[:, 1:]
opt = torch.optim.RMSprop(model.parameters(), lr=3e-3, alpha=0.9)
for step in range(20):
    opt.zero_grad()
    pred = model(inp)
    loss = F.mse_loss(pred, tgt)
    loss.backward()
    torch.nn.utils.clip_grad_value_(model.parameters(), 0.5)
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} mse {loss.item():.5f}")
with torch.no_grad():
    roll = model(frames[:1, :4], future=3)
print("rollout", tuple(roll.shape))
print(roll[0, -1, 0])
print("ssq per step", roll[0].pow(2).sum(dim=(1, 2, 3)))
