# SB3 VecNormalize-style observation/reward normalization as an nn.Module with float64 buffers:
# parallel-variance (Chan) update from batch mean/var(unbiased=False), clipping, a discounted
# return tracker for reward scaling, and a state_dict round trip through io.BytesIO.
import io
import torch
import torch.nn as nn


class RunningMeanStd(nn.Module):
    def __init__(self, shape, epsilon=1e-4):
        super().__init__()
        self.register_buffer("mean", torch.zeros(shape, dtype=torch.float64))
        self.register_buffer("var", torch.ones(shape, dtype=torch.float64))
        self.register_buffer("count", torch.tensor(epsilon, dtype=torch.float64))

    @torch.no_grad()
    def update(self, x):
        batch_mean = x.mean(dim=0).double()
        batch_var = x.var(dim=0, unbiased=False).double()
        batch_count = x.shape[0]
        delta = batch_mean - self.mean
        tot = self.count + batch_count
        new_mean = self.mean + delta * batch_count / tot
        m2 = self.var * self.count + batch_var * batch_count + delta.pow(2) * self.count * batch_count / tot
        self.mean.copy_(new_mean)
        self.var.copy_(m2 / tot)
        self.count.fill_(tot)

    def normalize(self, x, clip=5.0):
        return torch.clamp((x - self.mean.float()) / torch.sqrt(self.var.float() + 1e-8), -clip, clip)


obs_rms = RunningMeanStd((3,))
ret_rms = RunningMeanStd(())
print(obs_rms, list(obs_rms.state_dict()), obs_rms.count.dtype, ret_rms.mean.shape)
returns = torch.zeros(4)
gamma = 0.99
all_obs = []
for step in range(5):
    obs = torch.stack([torch.sin(torch.arange(3) * 0.8 + step + 0.3 * e) * (1 + step) for e in range(4)])
    rew = torch.cos(torch.arange(4, dtype=torch.float32) + step) * 2
    done = torch.tensor([step == 2, False, step == 4, False])
    obs_rms.update(obs)
    all_obs.append(obs)
    returns = returns * gamma + rew
    ret_rms.update(returns)
    scaled = torch.clamp(rew / torch.sqrt(ret_rms.var.float() + 1e-8), -10, 10)
    returns[done] = 0.0
    print(step, obs_rms.mean.round(decimals=4).tolist(), f"{ret_rms.var.item():.4f}", scaled.round(decimals=3),
          obs_rms.normalize(obs).abs().max().round(decimals=3).item())

stacked = torch.cat(all_obs)
print(torch.allclose(obs_rms.mean, stacked.double().mean(0), atol=1e-4),
      torch.allclose(obs_rms.var, stacked.double().var(0, unbiased=False), atol=1e-3))
print(obs_rms.count, stacked.var(0, correction=0).round(decimals=3), torch.var_mean(stacked, 0, correction=1)[0].round(decimals=3))

buf = io.BytesIO()
torch.save({"obs_rms": obs_rms.state_dict(), "ret_rms": ret_rms.state_dict()}, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
fresh = RunningMeanStd((3,))
print(fresh.load_state_dict(loaded["obs_rms"]), torch.equal(fresh.var, obs_rms.var), fresh.count.item())
fresh_ret = RunningMeanStd(())
print(fresh_ret.load_state_dict(loaded["ret_rms"]), loaded["ret_rms"]["mean"].dtype, fresh_ret.var.shape)
print(fresh.float().mean.dtype, fresh.double().count.dtype, fresh.normalize(torch.ones(2, 3)).dtype)
try:
    RunningMeanStd((4,)).load_state_dict(loaded["obs_rms"])
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0], len(str(e).splitlines()))
