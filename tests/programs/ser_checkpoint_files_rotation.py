# A training script that writes a checkpoint file every few epochs into a run directory, keeps
# only the newest ones, resumes from the latest by globbing, and copes with a corrupt or missing file.
import glob
import os
import pathlib
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.7, p.numel()).view_as(p) + 0.05 * i)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
x = torch.linspace(-1, 1, 16).view(8, 2)
y = x[:, :1] * x[:, 1:]

with tempfile.TemporaryDirectory() as run_dir:
    keep = 2
    for epoch in range(1, 9):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if epoch % 2 == 0:
            path = os.path.join(run_dir, f"ckpt_epoch{epoch:03d}.pt")
            torch.save({"epoch": epoch, "loss": loss.item(), "model": model.state_dict(),
                        "opt": opt.state_dict()}, path)
            old = sorted(glob.glob(os.path.join(run_dir, "ckpt_epoch*.pt")))[:-keep]
            for f in old:
                os.remove(f)
            print(epoch, f"{loss.item():.5f}", sorted(os.path.basename(p) for p in os.listdir(run_dir)))

    latest = sorted(pathlib.Path(run_dir).glob("*.pt"))[-1]
    ck = torch.load(latest, map_location=torch.device("cpu"), weights_only=True)
    print(latest.name, ck["epoch"], f"{ck['loss']:.5f}", sorted(ck["opt"]["state"][0]))
    resumed = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    resumed.load_state_dict(ck["model"])
    print(torch.equal(resumed(x), model(x)))

    ck2 = torch.load(str(latest), map_location={"cuda:0": "cpu"}, weights_only=True)
    print(ck2["epoch"], torch.equal(ck2["model"]["2.bias"], ck["model"]["2.bias"]))

    with open(latest, "rb") as fh:
        data = fh.read()
    broken = os.path.join(run_dir, "broken.pt")
    with open(broken, "wb") as fh:
        fh.write(data[: len(data) // 2])
    try:
        torch.load(broken, weights_only=True)
    except Exception as e:
        print(type(e).__name__, e)
    empty = os.path.join(run_dir, "empty.pt")
    open(empty, "wb").close()
    try:
        torch.load(empty, weights_only=True)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        torch.load(os.path.join(run_dir, "nope.pt"))
    except FileNotFoundError as e:
        print(type(e).__name__, e.errno, os.path.basename(e.filename))
    try:
        torch.save(model.state_dict(), os.path.join(run_dir, "missing_dir", "x.pt"))
    except Exception as e:
        print(type(e).__name__, str(e).replace(run_dir, "<run>"))
    try:
        torch.load(run_dir)
    except Exception as e:
        print(type(e).__name__, str(e).replace(run_dir, "<run>"))
print("cleaned up:", not os.path.exists(run_dir))
