# CleanRL ppo_atari_lstm.py's get_states: an nn.LSTM stepped one time-step at a time over a
# rollout, with the hidden and cell states zeroed where an episode ended via
# (1.0 - d).view(1, -1, 1) * h, outputs collected with torch.cat and torch.flatten(_, 0, 1),
# and the orthogonal-free deterministic init of weight_ih / weight_hh / biases by name.
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

num_envs, hidden, feat = 2, 4, 3
lstm = nn.LSTM(feat, hidden)
for name, param in lstm.named_parameters():
    if "bias" in name:
        nn.init.constant_(param, 0)
    elif "weight" in name:
        with torch.no_grad():
            param.copy_(torch.cos(torch.arange(param.numel(), dtype=torch.float32) * 0.53).view(param.shape) * 0.5)
print(lstm, [(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
actor = nn.Linear(hidden, 2)
critic = nn.Linear(hidden, 1)
with torch.no_grad():
    actor.weight.copy_(torch.tensor([[0.3, -0.2, 0.1, 0.5], [-0.4, 0.2, 0.3, -0.1]]))
    actor.bias.zero_()
    critic.weight.fill_(0.25)
    critic.bias.fill_(0.1)


def get_states(x, lstm_state, done):
    batch_size = lstm_state[0].shape[1]
    hidden = x.reshape((-1, batch_size, lstm.input_size))
    done = done.reshape((-1, batch_size))
    new_hidden = []
    for h, d in zip(hidden, done):
        h, lstm_state = lstm(
            h.unsqueeze(0),
            ((1.0 - d).view(1, -1, 1) * lstm_state[0], (1.0 - d).view(1, -1, 1) * lstm_state[1]),
        )
        new_hidden += [h]
    new_hidden = torch.flatten(torch.cat(new_hidden), 0, 1)
    return new_hidden, lstm_state


next_lstm_state = (torch.zeros(lstm.num_layers, num_envs, lstm.hidden_size),
                   torch.zeros(lstm.num_layers, num_envs, lstm.hidden_size))
initial_lstm_state = (next_lstm_state[0].clone(), next_lstm_state[1].clone())
num_steps = 3
features = torch.sin(torch.arange(num_steps * num_envs * feat, dtype=torch.float32)).view(num_steps * num_envs, feat)
dones = torch.tensor([0.0, 0.0, 1.0, 0.0, 0.0, 1.0])
hidden_out, state = get_states(features, initial_lstm_state, dones)
print(hidden_out.shape, state[0].shape, hidden_out.grad_fn.name())
print(hidden_out, state[0], state[1], sep="\n")
print(lstm.input_size, lstm.hidden_size, lstm.num_layers, lstm.batch_first)

logits = actor(hidden_out)
dist = Categorical(logits=logits)
actions = torch.tensor([0, 1, 1, 0, 1, 1])
logprob = dist.log_prob(actions)
value = critic(hidden_out).flatten()
print(logprob, value, sep="\n")
loss = -(logprob * torch.tensor([1.0, -1.0, 0.5, 0.5, -0.5, 1.0])).mean() + 0.5 * value.pow(2).mean()
loss.backward()
print(loss, lstm.weight_hh_l0.grad.abs().sum(), lstm.bias_ih_l0.grad, lstm.bias_hh_l0.grad, sep="\n")

# minibatches over environments (envsperbatch), as the recurrent PPO update does
envinds = torch.arange(num_envs)
flatinds = torch.arange(num_steps * num_envs).reshape(num_steps, num_envs)
mbenvinds = envinds[1:]
mb_inds = flatinds[:, mbenvinds].ravel()
print(flatinds, mb_inds, (initial_lstm_state[0][:, mbenvinds].shape))
h_mb, _ = get_states(features[mb_inds], (initial_lstm_state[0][:, mbenvinds], initial_lstm_state[1][:, mbenvinds]), dones[mb_inds])
print(torch.allclose(h_mb, hidden_out[mb_inds], atol=1e-6), h_mb.shape)

# the same rollout through nn.LSTMCell with batch-first (N, H) states
cell = nn.LSTMCell(feat, hidden)
with torch.no_grad():
    cell.weight_ih.copy_(lstm.weight_ih_l0)
    cell.weight_hh.copy_(lstm.weight_hh_l0)
    cell.bias_ih.zero_()
    cell.bias_hh.zero_()
hx, cx = torch.zeros(num_envs, hidden), torch.zeros(num_envs, hidden)
outs = []
for x_t, d_t in zip(features.view(num_steps, num_envs, feat), dones.view(num_steps, num_envs)):
    mask = (1 - d_t).unsqueeze(1)
    hx, cx = cell(x_t, (hx * mask, cx * mask))
    outs.append(hx)
print(torch.allclose(torch.stack(outs).flatten(0, 1), hidden_out, atol=1e-6), torch.stack(outs).shape)
try:
    lstm(torch.zeros(1, 2, feat), (torch.zeros(1, 3, hidden), torch.zeros(1, 3, hidden)))
except RuntimeError as e:
    print("RuntimeError", e)
