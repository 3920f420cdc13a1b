# DQN code from the PyTorch 0.3/0.4 era that still circulates in blog posts and course repos:
# FloatTensor/LongTensor/ByteTensor aliases picked by use_cuda, Variable(..., volatile=True),
# a ByteTensor non-final mask used for indexing, .data[0]-style access, and q.max(1)[1].view(1, 1).
# The deprecation warnings those idioms trigger are printed (build-path suffix stripped).
import warnings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()
FloatTensor = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if use_cuda else torch.LongTensor
ByteTensor = torch.cuda.ByteTensor if use_cuda else torch.ByteTensor
Tensor = FloatTensor
print(use_cuda, FloatTensor, LongTensor([[1]]), ByteTensor([1, 0]), Tensor([0.5]).type())


def caught_messages(caught):
    return [(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in caught]


model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.5)


def select_action(state, eps_threshold, sample):
    if sample > eps_threshold:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            var = Variable(state, volatile=True).type(FloatTensor)
        print("volatile:", caught_messages(caught), var.requires_grad)
        return model(var).data.max(1)[1].view(1, 1)
    return LongTensor([[1]])


state = torch.from_numpy(np.array([0.3, -0.6])).unsqueeze(0)
print(state.dtype, select_action(state, 0.1, 0.5), select_action(state, 0.9, 0.5))

states = [FloatTensor([[0.1, 0.2]]), FloatTensor([[0.5, -0.5]]), FloatTensor([[1.0, 0.0]])]
next_states = [FloatTensor([[0.2, 0.2]]), None, FloatTensor([[0.9, 0.1]])]
actions = [LongTensor([[0]]), LongTensor([[1]]), LongTensor([[1]])]
rewards = [Tensor([1.0]), Tensor([0.0]), Tensor([-1.0])]
non_final_mask = ByteTensor(tuple(map(lambda s: s is not None, next_states)))
non_final_next_states = Variable(torch.cat([s for s in next_states if s is not None]), volatile=True)
state_batch = Variable(torch.cat(states))
action_batch = Variable(torch.cat(actions))
reward_batch = Variable(torch.cat(rewards))
print(non_final_mask, non_final_mask.dtype, non_final_next_states.shape, state_batch.requires_grad)

state_action_values = model(state_batch).gather(1, action_batch)
next_state_values = Variable(torch.zeros(3).type(Tensor))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    next_state_values[non_final_mask] = model(non_final_next_states).max(1)[0]
    picked = state_action_values[non_final_mask]
print("mask:", caught_messages(caught))
next_state_values.volatile = False
expected_state_action_values = (next_state_values * 0.999) + reward_batch
loss = F.smooth_l1_loss(state_action_values, expected_state_action_values.detach().unsqueeze(1))
print(next_state_values, picked.shape, loss)
optimizer = torch.optim.RMSprop(model.parameters())
optimizer.zero_grad()
loss.backward()
for param in model.parameters():
    param.grad.data.clamp_(-1, 1)
optimizer.step()
print(model[2].bias.grad, model[2].bias)
print(loss.data, loss.item(), loss.data.item(), loss.data.numpy().shape)
try:
    print(loss.data[0])
except IndexError as e:
    print("IndexError", e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(hasattr(state_batch, "volatile") and state_batch.volatile)
print("volatile attr:", caught_messages(caught))
