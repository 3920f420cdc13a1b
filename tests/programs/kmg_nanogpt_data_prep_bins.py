# nanoGPT data/shakespeare_char/prepare.py + train.py get_batch, build-nanogpt's fineweb shards and
# llm.c's write_model: tokens stored as uint16 .bin files, read back with np.memmap, turned into
# int64 batches, and model weights dumped as float32 bytes behind an int32 header.
import os
import pickle
import struct
import tempfile

import numpy as np
import torch

data = "first citizen:\nbefore we proceed any further, hear me speak.\n"
chars = sorted(list(set(data)))
vocab_size = len(chars)
print("all the unique characters:", repr(''.join(chars)))
print(f"vocab size: {vocab_size:,}")
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
n = len(data)
train_ids, val_ids = encode(data[:int(n * 0.9)]), encode(data[int(n * 0.9):])
print(f"train has {len(train_ids):,} tokens", f"val has {len(val_ids):,} tokens")

with tempfile.TemporaryDirectory() as data_dir:
    train_ids = np.array(train_ids, dtype=np.uint16)
    val_ids = np.array(val_ids, dtype=np.uint16)
    train_ids.tofile(os.path.join(data_dir, 'train.bin'))
    val_ids.tofile(os.path.join(data_dir, 'val.bin'))
    with open(os.path.join(data_dir, 'meta.pkl'), 'wb') as f:
        pickle.dump({'vocab_size': vocab_size, 'itos': itos, 'stoi': stoi}, f)
    with open(os.path.join(data_dir, 'meta.pkl'), 'rb') as f:
        meta = pickle.load(f)
    print(meta['vocab_size'], os.path.getsize(os.path.join(data_dir, 'train.bin')))

    block_size, batch_size = 8, 3
    def get_batch(split, ix):
        data = np.memmap(os.path.join(data_dir, f'{split}.bin'), dtype=np.uint16, mode='r')
        ix = torch.tensor(ix)
        x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
        return x, y
    x, y = get_batch('train', [0, 5, 20])
    print(x.shape, x.dtype, y[0], torch.equal(x[:, 1:], y[:, :-1]))
    print(''.join(itos[i] for i in x[0].tolist()))

    # build-nanogpt fineweb.py: shards as uint16, load_tokens converts back
    tokens = np.array([50256] + encode("hear me"), dtype=np.int64)
    assert (0 <= tokens).all() and (tokens < 2**16).all(), "token dictionary too large for uint16"
    tokens_np_uint16 = tokens.astype(np.uint16)
    np.save(os.path.join(data_dir, 'shard_000000.npy'), tokens_np_uint16)
    npt = np.load(os.path.join(data_dir, 'shard_000000.npy'))
    npt = npt.astype(np.int32)
    ptt = torch.tensor(npt, dtype=torch.long)
    print(ptt, ptt.dtype, npt.dtype)

    # llm.c write_model: a 256-int32 header, then float32 parameters
    model = torch.nn.Linear(3, 2)
    with torch.no_grad():
        model.weight.copy_(torch.arange(6.).view(2, 3) / 4)
        model.bias.fill_(-1.0)
    header = torch.zeros(256, dtype=torch.int32)
    header[0] = 20240326
    header[1] = 3
    header[2] = 2
    params = {name: param.cpu() for name, param in model.named_parameters()}
    path = os.path.join(data_dir, 'model.bin')
    with open(path, 'wb') as file:
        file.write(header.numpy().tobytes())
        for name in ['weight', 'bias']:
            file.write(params[name].detach().cpu().to(torch.float32).numpy().tobytes())
    raw = open(path, 'rb').read()
    print(len(raw), struct.unpack('3i', raw[:12]))
    back = torch.from_numpy(np.frombuffer(raw[1024:], dtype=np.float32).copy())
    print(back, back.view(-1)[:6].view(2, 3).equal(model.weight.detach()))
    weights = torch.frombuffer(bytearray(raw[1024:1024 + 24]), dtype=torch.float32)
    print(weights.view(2, 3), weights.dtype)

    # the shard tokens used directly as uint16 tensors (PyTorch >= 2.3 has unsigned dtypes)
    u16 = torch.from_numpy(tokens_np_uint16)
    print(u16.dtype, u16[:3], u16.to(torch.long).sum())
    print(torch.tensor(np.array([1, 2, 65535], dtype=np.uint16)), torch.uint16.itemsize, torch.uint32.is_signed)
