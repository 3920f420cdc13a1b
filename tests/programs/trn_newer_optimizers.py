# The newer built-in optimizers in a small regression loop: Adafactor (factored second
# moments for matrices) and Muon for 2-D weights paired with AdamW for biases, the documented
# recipe; printed losses, weights and the per-parameter state they keep.
import torch
import torch.nn as nn

X = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0], [2.0, 0.5, -0.5], [-1.0, 1.0, 1.0]])
Y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0], [-1.0, 0.5]])


def make_model():
    m = nn.Linear(3, 2)
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-0.5, 0.5, 6).view(2, 3))
        m.bias.copy_(torch.tensor([0.1, -0.1]))
    return m


model = make_model()
opt = torch.optim.Adafactor(model.parameters(), lr=0.05)
print(opt)
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(model.weight.data, model.bias.data)
for name, p in model.named_parameters():
    st = opt.state[p]
    print(name, sorted(st), [tuple(v.shape) for k, v in sorted(st.items()) if torch.is_tensor(v) and v.dim() > 0])

model = make_model()
muon = torch.optim.Muon([model.weight], lr=0.02)
adamw = torch.optim.AdamW([model.bias], lr=0.01)
for step in range(4):
    muon.zero_grad()
    adamw.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    muon.step()
    adamw.step()
    print(step, round(loss.item(), 5))
print(model.weight.data, model.bias.data)
print(sorted(muon.state[model.weight]), sorted(muon.param_groups[0].keys()))
try:
    torch.optim.Muon(model.parameters(), lr=0.02)
except ValueError as e:
    print(type(e).__name__, e)
