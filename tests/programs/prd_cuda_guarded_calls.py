# Logging/utility helpers that guard CUDA calls on a CPU-only box: memory stats, synchronize, device names.
import torch

def log_env():
    info = {"cuda": torch.cuda.is_available(), "n_gpu": torch.cuda.device_count(),
            "mps": torch.backends.mps.is_available(), "mps_built": isinstance(torch.backends.mps.is_built(), bool),
            "cudnn": torch.backends.cudnn.is_available(), "mkldnn": isinstance(torch.backends.mkldnn.is_available(), bool),
            "openmp": isinstance(torch.backends.openmp.is_available(), bool),
            "version_str": isinstance(torch.__version__, str), "cuda_version": torch.version.cuda}
    for k, v in info.items():
        print(f"{k:>12}: {v}")

log_env()
if torch.cuda.is_available():
    print(torch.cuda.get_device_name(0))
else:
    print("running on CPU")
print(torch.cuda.is_initialized())
for fn in (lambda: torch.cuda.synchronize(), lambda: torch.cuda.current_device(),
           lambda: torch.cuda.get_device_name(0), lambda: torch.cuda.memory_allocated(),
           lambda: torch.cuda.max_memory_allocated(), lambda: torch.cuda.get_device_properties(0),
           lambda: torch.cuda.empty_cache(), lambda: torch.cuda.manual_seed_all(0),
           lambda: torch.zeros(1, device="cuda"), lambda: torch.ones(2).cuda(),
           lambda: torch.ones(2).to("cuda:0"),
           lambda: torch.cuda.get_device_capability()):
    try:
        r = fn()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0][:70])

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
x = torch.arange(6.0).reshape(2, 3).to(device)
print(x.is_cuda, x.device, x.is_cpu if hasattr(x, "is_cpu") else None)
print(torch.cuda.is_bf16_supported() if torch.cuda.is_available() else "no bf16 check")
amp_dtype = torch.bfloat16 if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else torch.float32
print(amp_dtype)
print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled(), torch.backends.cuda.math_sdp_enabled())
print(torch.backends.cudnn.enabled, torch.backends.cuda.is_built())
print(torch.cuda.amp.autocast is not None, torch.cuda.Stream is not None)
