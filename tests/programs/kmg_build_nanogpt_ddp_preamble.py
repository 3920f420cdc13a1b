# build-nanogpt train_gpt2.py as most people run it: `python train_gpt2.py` on one CPU process.
# The DDP imports are at the top, RANK is unset so ddp is False, and the rest of the loop only
# touches torch.distributed behind `if ddp:`. Gradient accumulation sized from total_batch_size.
import math
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed import destroy_process_group, init_process_group
from torch.nn import functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

ddp = int(os.environ.get('RANK', -1)) != -1
if ddp:
    assert torch.cuda.is_available(), "for now i think we need CUDA for DDP"
    init_process_group(backend='nccl')
    ddp_rank = int(os.environ['RANK'])
    ddp_local_rank = int(os.environ['LOCAL_RANK'])
    ddp_world_size = int(os.environ['WORLD_SIZE'])
    device = f'cuda:{ddp_local_rank}'
    master_process = ddp_rank == 0
else:
    ddp_rank, ddp_local_rank, ddp_world_size = 0, 0, 1
    master_process = True
    device = "cpu"
    if torch.cuda.is_available():
        device = "cuda"
    print(f"using device: {device}")
device_type = "cuda" if device.startswith("cuda") else "cpu"
print(ddp, master_process, device_type, dist.is_initialized())

torch.manual_seed(1337)
if torch.cuda.is_available():
    torch.cuda.manual_seed(1337)

total_batch_size, B, T = 24, 2, 3
assert total_batch_size % (B * T * ddp_world_size) == 0, "make sure total_batch_size is divisible by B * T * ddp_world_size"
grad_accum_steps = total_batch_size // (B * T * ddp_world_size)
if master_process:
    print(f"total desired batch size: {total_batch_size}")
    print(f"=> calculated gradient accumulation steps: {grad_accum_steps}")

tokens = torch.tensor([(7 * i) % 11 for i in range(100)])
model = nn.Sequential(nn.Embedding(11, 6), nn.Linear(6, 11))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view(p.shape) * 0.3)
model.to(device)
if ddp:
    model = DDP(model, device_ids=[ddp_local_rank])
raw_model = model.module if ddp else model
print(raw_model is model, isinstance(model, DDP))
optimizer = torch.optim.AdamW(raw_model.parameters(), lr=3e-3, betas=(0.9, 0.95), eps=1e-8, fused=False)

pos = 0
for step in range(3):
    t0 = time.time()
    last_step = (step == 2)
    model.train()
    optimizer.zero_grad()
    loss_accum = 0.0
    for micro_step in range(grad_accum_steps):
        buf = tokens[pos:pos + B * T + 1]
        x, y = buf[:-1].view(B, T).to(device), buf[1:].view(B, T).to(device)
        pos = (pos + B * T) % (len(tokens) - B * T - 1)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        loss = loss / grad_accum_steps
        loss_accum += loss.detach()
        if ddp:
            model.require_backward_grad_sync = (micro_step == grad_accum_steps - 1)
        loss.backward()
    if ddp:
        dist.all_reduce(loss_accum, op=dist.ReduceOp.AVG)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if device_type == "cuda":
        torch.cuda.synchronize()
    dt = time.time() - t0
    tokens_processed = B * T * grad_accum_steps * ddp_world_size
    if master_process:
        print(f"step {step:5d} | loss: {loss_accum.item():.6f} | norm: {norm:.4f} | tokens {tokens_processed} | last {last_step}")
print(loss_accum.dtype, loss_accum.requires_grad, isinstance(dt, float))
if ddp:
    destroy_process_group()
