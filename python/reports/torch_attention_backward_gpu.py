"""torch's attention backward on the GPU under osvs's attention laws (docs/semantics.md §9.4),
through the Python bindings: the gradients of scaled_dot_product_attention under each backend it
offers (math, flash, memory-efficient, cuDNN) and of flex_attention (compiled), by autograd from
the case's dout, judged against the exact gradients.

    python3 python/reports/torch_attention_backward_gpu.py OUT [--max-cases 40] [--seed S]
        [--only NAME]

Each adapter runs the forward on leaf tensors that require grad, one sequence a call (torch's
kernels take one length a call), then out.backward(dout): dq, dk and dv are the leaves' grads,
and a sequence without queries leaves its keys' gradients at 0 (no term reaches them). SDPA's
causal mask is top-left (its is_causal), flex's mask_mod bottom-right. The backends' domains are
the forward's (torch_attention_gpu.py's DOMAIN, probed); every length at each residue of the
tiles 64 and 128 is judged too (tile_sizes). The contract is declared, not derived:
what a user of a bf16 / f32 library backward would expect (4 ulp of the type at the magnitude M,
1 ulp a term, 4 (d + 1) S 2^-24 M for the score rounding, 1 n 2^-149 for underflow); a law that
fails is a finding, printed and saved with its shrunk case.
"""

import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, cuda_machine, run  # noqa: E402
from torch_attention_gpu import (DOMAIN, FLEX_DOMAIN, HEAD_DIMS, _keep_mod, kept,  # noqa: E402
                                 only_flag)
from torch_triton_gpu import to_cuda  # noqa: E402

import osvs  # noqa: E402

GRAD_CONTRACT = (4, 1, 4, 1)
#: The tiles of keys and queries the fused backwards work in (flash-attention 2's and the
#: memory-efficient kernel's 64 and 128 for these head_dims): accuracy and determinism judge one
#: sequence of every length T + r, r < T, for each (a ragged last tile at every residue).
TILE_SIZES = (64, 128)


def per_sequence_backward(q, k, v, p, attend):
    """(dq, dk, dv) shaped like q, k, v: for each sequence with queries and keys, the leaves'
    grads of attend(q_s, k_s, v_s, lq, lk) (each (1, heads, len, d)) under out.backward(dout_s)."""
    dq, dk, dv = (torch.zeros_like(x) for x in (q, k, v))
    dout = p.dout
    cq, ck = [int(x) for x in p.cu_seqlens_q], [int(x) for x in p.cu_seqlens_k]
    for s in range(len(cq) - 1):
        q0, q1, k0, k1 = cq[s], cq[s + 1], ck[s], ck[s + 1]
        if q1 == q0 or k1 == k0:
            continue  # no (query, key) pair: every gradient of the sequence is 0
        leaves = [x.transpose(0, 1).unsqueeze(0).detach().clone().requires_grad_()
                  for x in (q[q0:q1], k[k0:k1], v[k0:k1])]
        out = attend(*leaves, q1 - q0, k1 - k0)
        if isinstance(out, tuple):
            out = out[0]
        out.backward(dout[q0:q1].transpose(0, 1).unsqueeze(0).to(out.dtype))
        for grad, leaf, (a, b) in zip((dq, dk, dv), leaves, ((q0, q1), (k0, k1), (k0, k1))):
            grad[a:b] = leaf.grad[0].transpose(0, 1)
    return dq, dk, dv


def sdpa_backward(backend):
    """SDPA's backward under `backend`, its is_causal (top-left)."""
    from torch.nn.attention import sdpa_kernel

    def fn(q, k, v, p):
        def attend(qs, ks, vs, lq, lk):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(qs, ks, vs, scale=p.scale,
                                                      is_causal=p.causal,
                                                      enable_gqa=p.heads_q != p.heads_kv)
        return per_sequence_backward(q, k, v, p, attend)
    return fn


def flex_backward():
    """flex_attention's backward (compiled), its mask bottom-right (torch_attention_gpu's)."""
    import torch_attention_gpu as forward
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    torch._dynamo.config.recompile_limit = 512
    torch._dynamo.config.accumulated_recompile_limit = 4096
    compiled = torch.compile(flex_attention, dynamic=True)

    def fn(q, k, v, p):
        def attend(qs, ks, vs, lq, lk):
            forward._KEEP = kept(p, lq, lk)
            mask = create_block_mask(_keep_mod, None, None, lq, lk, device="cuda")
            return compiled(qs, ks, vs, block_mask=mask, scale=p.scale,
                            enable_gqa=p.heads_q != p.heads_kv)
        return per_sequence_backward(q, k, v, p, attend)
    return fn


def kernels(only=None):
    """(name, check_attention keywords) of each backward: the dtypes (f32 and bf16 where taken)
    and GQA as the forwards' probes found them (reports/python/h200-attention: flash and cuDNN
    take no f32, memory-efficient no GQA)."""
    from torch.nn.attention import SDPBackend
    common = dict(backward=True, grad_accuracy=GRAD_CONTRACT, to_input=to_cuda,
                  head_dims=HEAD_DIMS, tile_sizes=TILE_SIZES)
    out = []
    for name, backend, dtypes, gqa in [
            ("math", SDPBackend.MATH, ("float32", "bfloat16"), True),
            ("flash", SDPBackend.FLASH_ATTENTION, ("bfloat16",), True),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION, ("float32", "bfloat16"), False),
            ("cudnn", SDPBackend.CUDNN_ATTENTION, ("bfloat16",), True)]:
        out.append((f"torch.sdpa.{name}.backward",
                    dict(fn=sdpa_backward(backend), dtypes=dtypes, masks=("none", "causal"),
                         mask_align="top-left", gqa=gqa, **DOMAIN[name], **common)))
    out.append(("torch.flex_attention.backward",
                dict(fn=flex_backward(), dtypes=("bfloat16",), masks=("none", "causal", "window"),
                     mask_align="bottom-right", gqa=True, **FLEX_DOMAIN,
                     **{**common, "head_dims": (16,)})))
    return [(n, spec) for n, spec in out if not only or only in n]


def main():
    only = only_flag()
    args = arguments(__doc__.splitlines()[0])
    machine = cuda_machine(torch, contract=f"declared {GRAD_CONTRACT} (AttentionGradAccuracy, "
                                           "docs/semantics.md §9.4)")
    run("torch attention backward under osvs's attention laws (Python bindings, GPU)",
        kernels(only), args, machine, check=osvs.check_attention)


if __name__ == "__main__":
    main()
