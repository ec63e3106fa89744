"""torch's attention kernels at a realistic forward shape, measured against the exact attention
(osvs.exact_attention): 4 sequences of 2048 queries and keys, 8 query heads over 2 kv heads,
head_dim 128, causal, bf16 values drawn N(0, 1). Every SDPA backend torch offers here (flash,
memory-efficient, cuDNN, math) and flex_attention (compiled, causal block mask), on the GPU; and,
as the control flash-attention's tests use, the math backend in float32 on the same bf16 values
(its output rounded to bf16). Per kernel: each o element's error in bf16 ulps of its magnitude M
(max, p99.9, p99, median), the share of elements equal to the exact value correctly rounded, the
largest |o - exact| against the control's (flash-attention's "2x the error of a same-dtype
reference" rule); the oracle's seconds and the queries MPFR decided.

    python3 python/reports/torch_attention_realistic.py OUT [--seqs 4] [--len 2048]

Writes OUT/realistic.md and OUT/realistic.json with the provenance.
"""

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import command_output  # noqa: E402

import osvs  # noqa: E402

HEADS_Q, HEADS_KV, DIM = 8, 2, 128


def sdpa(backend, dtype=torch.bfloat16):
    """(q, k, v) as (batch, heads, len, d) -> o, under one backend; GQA by enable_gqa where the
    backend takes it, else kv heads repeated (the same attention)."""
    def attend(q, k, v):
        q, k, v = (x.to(dtype) for x in (q, k, v))
        with sdpa_kernel([backend]):
            try:
                return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            except RuntimeError:
                g = q.shape[1] // k.shape[1]
                k, v = (x.repeat_interleave(g, dim=1) for x in (k, v))
                return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return attend


def flex():
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    compiled = torch.compile(flex_attention)

    def attend(q, k, v):
        mask = create_block_mask(lambda b, h, i, j: j <= i, None, None, q.shape[2], k.shape[2],
                                 device=q.device)
        return compiled(q, k, v, block_mask=mask, enable_gqa=True)
    return attend


def summary(ex, o):
    ulps = ex.ulps(o).reshape(-1)
    got = o.float().cpu().numpy().reshape(ex.o.shape).astype(np.float64)
    return {"max_ulps": float(ulps.max()), "p999_ulps": float(np.quantile(ulps, 0.999)),
            "p99_ulps": float(np.quantile(ulps, 0.99)), "median_ulps": float(np.median(ulps)),
            "correctly_rounded": ex.correctly_rounded(o),
            "max_abs_error": float(np.max(np.abs(got - ex.o)))}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--seqs", type=int, default=4)
    p.add_argument("--len", type=int, default=2048)
    p.add_argument("--seed", type=int, default=20261203)
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    gen = torch.Generator(device="cpu").manual_seed(args.seed)
    b, n = args.seqs, args.len
    q = torch.randn(b, HEADS_Q, n, DIM, generator=gen).to(torch.bfloat16)
    k = torch.randn(b, HEADS_KV, n, DIM, generator=gen).to(torch.bfloat16)
    v = torch.randn(b, HEADS_KV, n, DIM, generator=gen).to(torch.bfloat16)
    # the oracle's layout: (batch, seq, heads, d), one sequence a batch entry
    ex = osvs.exact_attention(*(x.transpose(1, 2) for x in (q, k, v)), causal=True,
                              dtype="bf16")
    provenance = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "osvs_commit": os.environ.get("OSVS_COMMIT") or command_output(
            "git", "rev-parse", "--short", "HEAD"),
        "device": torch.cuda.get_device_name(), "torch": torch.__version__,
        "cuda": torch.version.cuda, "python": platform.python_version(),
        "driver": command_output("nvidia-smi", "--query-gpu=driver_version",
                                 "--format=csv,noheader"),
        "cpu_cores": os.cpu_count(), "seed": args.seed,
        "shape": f"{b} x {n} queries and keys, heads {HEADS_Q}/{HEADS_KV}, d {DIM}, causal, bf16",
        "oracle_seconds": ex.seconds, "oracle_mpfr_queries": ex.mpfr_queries,
        "oracle_queries": int(ex.kept.size)}
    print(json.dumps(provenance, indent=1), flush=True)
    qc, kc, vc = (x.cuda() for x in (q, k, v))
    kernels = [("sdpa.flash", sdpa(SDPBackend.FLASH_ATTENTION)),
               ("sdpa.efficient", sdpa(SDPBackend.EFFICIENT_ATTENTION)),
               ("sdpa.cudnn", sdpa(SDPBackend.CUDNN_ATTENTION)),
               ("sdpa.math", sdpa(SDPBackend.MATH)),
               ("control: sdpa.math in float32, rounded to bf16",
                sdpa(SDPBackend.MATH, torch.float32)),
               ("flex_attention (compiled)", flex())]
    results = {"provenance": provenance, "kernels": {}}
    for name, attend in kernels:
        start = time.time()
        try:
            o = attend(qc, kc, vc).to(torch.bfloat16)
            torch.cuda.synchronize()
            r = summary(ex, o.transpose(1, 2).cpu())
        except Exception as e:  # noqa: BLE001 - a kernel that cannot run is reported
            r = {"error": repr(e)[:400]}
        r["seconds"] = time.time() - start
        results["kernels"][name] = r
        print(name, json.dumps(r), flush=True)
    control = results["kernels"]["control: sdpa.math in float32, rounded to bf16"]
    lines = ["# torch's attention at a realistic forward, against the exact attention", "",
             "```", json.dumps(provenance, indent=1), "```", "",
             "Errors in bf16 ulps of each element's magnitude M = sum_j p_j |v_j| (the measure of "
             "the attention laws); 'correctly rounded': the share of the 16.8M o elements equal "
             "to the exact value rounded to bf16; 'x control': max |o - exact| over the control's "
             "(flash-attention's tests accept up to 2).", "",
             "| kernel | max ulps | p99.9 | p99 | median | correctly rounded | max abs error | "
             "x control |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in results["kernels"].items():
        if "error" in r:
            lines.append(f"| {name} | could not run: {r['error']} | | | | | | |")
            continue
        ratio = r["max_abs_error"] / control["max_abs_error"] if "max_abs_error" in control \
            else float("nan")
        lines.append(f"| {name} | {r['max_ulps']:.3f} | {r['p999_ulps']:.3f} | "
                     f"{r['p99_ulps']:.3f} | {r['median_ulps']:.3f} | "
                     f"{r['correctly_rounded']:.4f} | {r['max_abs_error']:.3e} | {ratio:.2f} |")
    (out / "realistic.md").write_text("\n".join(lines) + "\n")
    (out / "realistic.json").write_text(json.dumps(results, indent=1) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
