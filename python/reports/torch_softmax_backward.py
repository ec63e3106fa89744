"""torch's softmax and log-softmax backward (torch.ops.aten._softmax_backward_data and
_log_softmax_backward_data, float32 and bfloat16) on the GPU under osvs's row-wise laws, through
osvs.check_softmax_backward: the kernels get CUDA tensors (``to_input``) and return CUDA tensors,
read back through DLPack.

    python3 python/reports/torch_softmax_backward.py OUT [--max-cases 100] [--seed 20261130]

The contract is one declared for any binary32 backward kernel (not measured here, derived):
|dx^_i - dx_i| <= 2 ulp(dx_i) + (8 + 1.01 n) 2^-24 cond_i (docs/semantics.md §11). Softmax
backward: the products y_j dy_j rounded and summed in binary32 in any order err by at most
gamma_n sum_j |y_j dy_j| <= 1.01 n 2^-24 sum_j |y_j dy_j| (n <= 2^16); dy_i - s and y_i t are two
more roundings, below 2 ulp of an f32 dx (u |x| < ulp(x)) and below 1.5 + 2^-15 ulp of a bf16 one
(rounded once more from binary32). Log-softmax backward: exp(z_i) within 2 ulp of binary32 (CUDA's
expf), 2^-22 relative, and the product and the difference rounded: e B (2^-22 + 2^-24 + 1.01 (n - 1)
2^-24) <= (5 + 1.01 n) 2^-24 e B; 8 leaves room for an exp within 3.5 ulp. A law that fails is a
finding, printed and saved with its shrunk case.
"""

import sys
from pathlib import Path

try:
    import numpy as np  # noqa: F401 (the adapters hand NumPy arrays to torch)
    import torch
except ImportError as e:  # torch is not installed where the CPU tests run
    sys.exit(f"torch_softmax_backward.py needs torch and numpy: {e}")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, cuda_machine, run  # noqa: E402
from torch_triton_gpu import to_cuda  # noqa: E402

import osvs  # noqa: E402

#: (ulps, cond_rel, cond_rel_per_element): the binary32 kernel's contract above.
BINARY32_BACKWARD = (2.0, 8 * 2.0 ** -24, 1.01 * 2.0 ** -24)


def softmax_backward(y, dy):
    return torch.ops.aten._softmax_backward_data(dy, y, 1, y.dtype)


def log_softmax_backward(z, dy):
    return torch.ops.aten._log_softmax_backward_data(dy, z, 1, z.dtype)


def kernels():
    """(name, check keywords): the whole adapter of each kernel."""
    out = []
    for dtype, suffix in (("float32", ""), ("bfloat16", ".bf16")):
        common = dict(accuracy=BINARY32_BACKWARD, to_input=to_cuda, dtype=dtype,
                      bound_derivation="python/reports/torch_softmax_backward.py")
        out.append((f"torch.softmax_backward{suffix}", dict(fn=softmax_backward, **common)))
        out.append((f"torch.log_softmax_backward{suffix}",
                    dict(fn=log_softmax_backward, log=True, **common)))
    return out


def main():
    args = arguments(__doc__.splitlines()[0])
    machine = cuda_machine(torch, contract="2 ulp + (8 + 1.01 n) 2^-24 cond (declared for a "
                                           "binary32 kernel, derived in this script's docstring)")
    run("torch softmax and log-softmax backward under osvs (Python bindings, GPU)", kernels(),
        args, machine, check=osvs.check_softmax_backward)


if __name__ == "__main__":
    main()
