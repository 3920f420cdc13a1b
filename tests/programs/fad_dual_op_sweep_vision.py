# Forward-mode sanity sweep a research codebase runs before trusting jvp-based regularisers:
# for image/signal ops (interpolate, grid_sample, conv_transpose, fold/unfold, pixel_shuffle,
# pad modes, fft) and special functions, compare the dual-number tangent with central differences.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

img = torch.sin(torch.arange(1 * 2 * 5 * 5, dtype=torch.float64) * 0.37).view(1, 2, 5, 5)
timg = torch.cos(torch.arange(img.numel(), dtype=torch.float64) * 0.11).view_as(img)
w_t = torch.cos(torch.arange(2 * 3 * 3 * 3, dtype=torch.float64)).view(2, 3, 3, 3) * 0.2
theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.1, 0.8, 0.0]]])
vec = torch.linspace(0.2, 1.8, 8)
tvec = torch.sin(torch.arange(8.0))

ops = {
    "interp bilinear": (lambda t: F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False), img, timg),
    "interp bicubic": (lambda t: F.interpolate(t, size=(7, 6), mode="bicubic", align_corners=True), img, timg),
    "interp nearest": (lambda t: F.interpolate(t, scale_factor=1.5, mode="nearest"), img, timg),
    "grid_sample": (lambda t: F.grid_sample(t, F.affine_grid(theta, (1, 2, 4, 4), align_corners=False),
                                            align_corners=False), img, timg),
    "conv_transpose2d": (lambda t: F.conv_transpose2d(t, w_t, stride=2, padding=1), img, timg),
    "unfold": (lambda t: F.unfold(t, 3, padding=1, stride=2), img, timg),
    "fold(unfold)": (lambda t: F.fold(F.unfold(t, 2), (5, 5), 2), img, timg),
    "pixel_shuffle": (lambda t: F.pixel_shuffle(t.repeat(1, 2, 1, 1), 2), img, timg),
    "pad reflect": (lambda t: F.pad(t, (2, 1, 1, 2), mode="reflect"), img, timg),
    "pad replicate": (lambda t: F.pad(t, (1, 1, 1, 1), mode="replicate"), img, timg),
    "pad circular": (lambda t: F.pad(t, (1, 2, 0, 1), mode="circular"), img, timg),
    "avg_pool ceil": (lambda t: F.avg_pool2d(t, 2, ceil_mode=True, count_include_pad=False), img, timg),
    "adaptive_max": (lambda t: F.adaptive_max_pool2d(t, 3), img, timg),
    "lp_pool": (lambda t: F.lp_pool2d(t.abs() + 0.1, 2, 2), img, timg),
    "rfft abs": (lambda v: torch.fft.rfft(v).abs(), vec, tvec),
    "fft real": (lambda v: torch.view_as_real(torch.fft.fft(v * 1j + v)), vec, tvec),
    "irfft": (lambda v: torch.fft.irfft(torch.fft.rfft(v) * torch.linspace(1, 0, 5)), vec, tvec),
    "cumprod": (lambda v: torch.cumprod(v, 0), vec, tvec),
    "logcumsumexp": (lambda v: torch.logcumsumexp(v, 0), vec, tvec),
    "lgamma digamma": (lambda v: torch.lgamma(v) + torch.digamma(v), vec, tvec),
    "erfinv": (lambda v: torch.erfinv(v / 2), vec, tvec),
    "xlogy": (lambda v: torch.xlogy(v, v + 1), vec, tvec),
    "hypot lerp": (lambda v: torch.hypot(v, v.flip(0)) + torch.lerp(v, v ** 2, 0.3), vec, tvec),
    "topk sort": (lambda v: torch.topk(v * tvec, 3).values + torch.sort(v.sin()).values[:3], vec, tvec),
    "renorm": (lambda v: torch.renorm(v.view(2, 4), 2, 0, 1.0), vec, tvec),
    "polar": (lambda v: torch.view_as_real(torch.polar(v, v * 0.5)), vec, tvec),
    "cdist": (lambda v: torch.cdist(v.view(4, 2), v.view(2, 4).T), vec, tvec),
    "kl_div": (lambda v: F.kl_div(F.log_softmax(v, 0), F.softmax(v.flip(0), 0), reduction="batchmean"), vec, tvec),
    "smooth_l1": (lambda v: F.smooth_l1_loss(v, torch.ones(8), beta=0.5), vec, tvec),
    "embedding_bag": (lambda v: F.embedding_bag(torch.tensor([[0, 2], [1, 3]]), v.view(4, 2)), vec, tvec),
    "multi_margin": (lambda v: F.multi_margin_loss(v.view(2, 4), torch.tensor([1, 3])), vec, tvec),
    "segment_reduce": (lambda v: torch.segment_reduce(v, "sum", lengths=torch.tensor([3, 5])), vec, tvec),
    "sdpa": (lambda v: F.scaled_dot_product_attention(v.view(1, 4, 2), v.view(1, 4, 2), v.view(1, 4, 2)), vec, tvec),
    "zeta": (lambda v: torch.special.zeta(v + 1, torch.tensor(2.0)), vec, tvec),
    "eigvals (real)": (lambda v: torch.linalg.eigvals(v.view(2, 2, 2) + 2 * torch.eye(2)).real, vec, tvec),
}

h = 1e-6
for name, (fn, primal, tangent) in ops.items():
    with fwAD.dual_level():
        try:
            out = fn(fwAD.make_dual(primal, tangent))
        except NotImplementedError as e:
            print(f"{name:17s} not supported: {str(e).splitlines()[0][:70]}")
            continue
        jvp = fwAD.unpack_dual(out).tangent
    fd = (fn(primal + h * tangent) - fn(primal - h * tangent)) / (2 * h)
    ok = jvp is not None and jvp.shape == out.shape and torch.allclose(jvp, fd, atol=1e-6)
    print(f"{name:17s} {str(tuple(out.shape)):15s} ok={ok} |jvp|={jvp.norm().item():.5f}")
