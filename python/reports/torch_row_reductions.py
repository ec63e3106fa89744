"""torch's logsumexp, layer_norm, rms_norm, var_mean, cross_entropy (reduction none, mean and
sum), argmax and topk (f32, bf16) on the GPU, row-wise laws.

Through osvs.check_row_reduction: the kernels get CUDA tensors (``to_input``) and return CUDA
tensors, read back through DLPack.

    python3 python/reports/torch_row_reductions.py OUT [--max-cases 100] [--seed 20261130]
    OSVS_TORCH_OPS=cross_entropy_mean,cross_entropy_sum python3 ...  (those ops alone)

The contracts are ones declared for any binary32 kernel (not measured here, derived), u = 2^-24,
in the form of docs/semantics.md §11.1:
- logsumexp, cond = 1: x_j - m rounded (u |e| exp(e) <= 0.37 u a term), exp within 2 ulp (CUDA's
  expf: 4 u relative), n - 1 additions (gamma_(n-1) of d >= 1), log within 1 ulp (2 u ln d <= 2 u
  n) and m + log d rounded (under an ulp of lse, as is a bf16 output's rounding from binary32):
  2 ulp + (4 + 3.4 n) u; declared 2 ulp + (8 + 4 n) u for the second-order terms.
- layer_norm: a two-pass or Welford binary32 mean errs by about n u a (a = mean |x|), the
  variance relatively by about n u a r: with cond_i = |w_i| r (|x_i| + a)(1 + |x^_i|) + |b_i|,
  2 ulp + (8 + 2 n) u cond. This is first order: where n u a r nears 1 (a mean 2^20 times the
  spread of a row of 600) a two-pass variance's squared mean error is no longer small, and a
  failure there says that the kernel's statistics lost the row, not only that it rounded.
- rms_norm: the sum of squares gamma_n relative, eps, sqrt and reciprocal (n/2 + 3) u, two
  products: 2 ulp + (8 + 1.01 n) u cond with cond_i = |x_i w_i| r.
- var_mean (mean_var, mean_var_unbiased): a binary32 mean errs by about n u a (cond a), a
  two-pass or Welford variance by n u sigma^2 and the mean's error against the deviations, n u a
  sigma (cond sigma (sigma + a)): 2 ulp + (8 + 2 n) u cond, first order as layer_norm's.
- cross_entropy (reduction 'none'), cond = 1 + loss = 1 + sum_j w_j (lse - x_j): torch takes
  log_softmax (x_j - m rounded, u |x_j - m|; log d as logsumexp's, (4 + 3.4 n) u absolute; the
  difference rounded, u |log p_j|) and sums w_j (-log p_j) (n non-negative terms, gamma_n of
  the sum): 2 ulp + (8 + 4 n) u cond. A bf16 input gets bf16 log-probabilities (half a bf16 ulp
  of each -log p_j, i.e. of the loss where eps = 0): inside the 2 ulp of the bf16 output.
- cross_entropy_mean and cross_entropy_sum (reduction 'mean' and 'sum', no class weights; the
  mean over the rows not ignored, NaN where none is: torch's convention since 1.11,
  mean_of_none="nan"), cond_B = sum_(counted) (1 + loss_i) (over their number c for the mean),
  the contract's n the batch's N = rows * cols: each counted row's loss as above without its
  output rounding, (8 + 4 n) u cond_i, and u cond_i more where a kernel rounds it to binary32;
  the rows' sum in binary32 in any order, gamma_(rows-1) of the sum, (rows - 1) u cond_B; the
  mean's division u; the output rounding (and a bf16 output's double rounding through
  binary32) within 2 ulp. So (10 + 4 n + rows - 1) u cond_B, and 4 n + rows <= 5 N (rows, n
  >= 1): 2 ulp + (10 + 5 N) u cond_B. A kernel that rounds its intermediates to bf16 (per-row
  sums, the sum over the rows, the division, the smoothing's product) adds half a bf16 ulp of
  each: more than the 2 ulp of one binary32 computation, a finding as bf16 logsumexp's was. The
  batch is summed in an order torch does not promise: batch_invariant=False (a reordering of
  the rows judged within the contract, not bit for bit).
- argmax and topk compare and copy: exact, no contract. torch.argmax documents the first index
  of a tie (ties="lowest"); torch.topk documents no order among equal elements (ties="any"),
  its values sorted (sorted=True).
A law that fails is a finding, printed and saved with its shrunk case.
"""

import os
import sys
from pathlib import Path

try:
    import numpy as np  # noqa: F401 (the adapters hand NumPy arrays to torch)
    import torch
except ImportError as e:  # torch is not installed where the CPU tests run
    sys.exit(f"torch_row_reductions.py needs torch and numpy: {e}")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, cuda_machine, run  # noqa: E402
from torch_triton_gpu import to_cuda  # noqa: E402

import osvs  # noqa: E402

U = 2.0 ** -24
#: (ulps, cond_rel, cond_rel_per_element) of a binary32 kernel, derived above.
CONTRACTS = {"logsumexp": (2.0, 8 * U, 4 * U), "layer_norm": (2.0, 8 * U, 2 * U),
             "rms_norm": (2.0, 8 * U, 1.01 * U), "mean_var": (2.0, 8 * U, 2 * U),
             "mean_var_unbiased": (2.0, 8 * U, 2 * U), "cross_entropy": (2.0, 8 * U, 4 * U),
             "cross_entropy_mean": (2.0, 10 * U, 5 * U),
             "cross_entropy_sum": (2.0, 10 * U, 5 * U)}


def logsumexp(x):
    return torch.logsumexp(x, dim=1)


def layer_norm(x, w, b, eps):
    return torch.nn.functional.layer_norm(x, (x.shape[1],), weight=w, bias=b, eps=eps)


def rms_norm(x, w, eps):
    return torch.nn.functional.rms_norm(x, (x.shape[1],), weight=w, eps=eps)


def var_mean_biased(x):
    var, mean = torch.var_mean(x, dim=1, correction=0)
    return mean, var


def var_mean_unbiased(x):
    var, mean = torch.var_mean(x, dim=1, correction=1)
    return mean, var


def cross_entropy(x, target, ignore_index, label_smoothing):
    return torch.nn.functional.cross_entropy(x, target, ignore_index=ignore_index,
                                             label_smoothing=label_smoothing, reduction="none")


def cross_entropy_mean(x, target, ignore_index, label_smoothing):
    return torch.nn.functional.cross_entropy(x, target, ignore_index=ignore_index,
                                             label_smoothing=label_smoothing, reduction="mean")


def cross_entropy_sum(x, target, ignore_index, label_smoothing):
    return torch.nn.functional.cross_entropy(x, target, ignore_index=ignore_index,
                                             label_smoothing=label_smoothing, reduction="sum")


def argmax(x):
    return torch.argmax(x, dim=1)


def topk(x, k):
    return torch.topk(x, k, dim=1)


def kernels(ops=None):
    """(name, check keywords): the whole adapter of each kernel (of `ops`, default all)."""
    out = []
    for dtype, suffix in (("float32", ""), ("bfloat16", ".bf16")):
        for op, fn in (("logsumexp", logsumexp), ("layer_norm", layer_norm),
                       ("rms_norm", rms_norm), ("mean_var", var_mean_biased),
                       ("mean_var_unbiased", var_mean_unbiased),
                       ("cross_entropy", cross_entropy)):
            out.append((f"torch.{op}{suffix}",
                        dict(fn=fn, op=op, accuracy=CONTRACTS[op], to_input=to_cuda, dtype=dtype,
                             bound_derivation="python/reports/torch_row_reductions.py")))
        for op, fn in (("cross_entropy_mean", cross_entropy_mean),
                       ("cross_entropy_sum", cross_entropy_sum)):
            out.append((f"torch.{op}{suffix}",
                        dict(fn=fn, op=op, accuracy=CONTRACTS[op], to_input=to_cuda, dtype=dtype,
                             batch_invariant=False, mean_of_none="nan",
                             bound_derivation="python/reports/torch_row_reductions.py")))
        out.append((f"torch.argmax{suffix}",
                    dict(fn=argmax, op="argmax", ties="lowest", to_input=to_cuda, dtype=dtype)))
        out.append((f"torch.topk{suffix}",
                    dict(fn=topk, op="topk", ties="any", to_input=to_cuda, dtype=dtype)))
    return [(name, kw) for name, kw in out if ops is None or kw["op"] in ops]


def main():
    args = arguments(__doc__.splitlines()[0])
    machine = cuda_machine(torch, contract="binary32 kernels' contracts derived in this "
                                           "script's docstring")
    ops = os.environ.get("OSVS_TORCH_OPS")  # e.g. "cross_entropy,argmax,topk": those alone
    run("torch logsumexp, layer_norm, rms_norm, var_mean, cross_entropy (none, mean, sum), "
        "argmax and topk under osvs (Python bindings, GPU)", kernels(ops.split(",") if ops else None), args, machine,
        check=osvs.check_row_reduction)


if __name__ == "__main__":
    main()
