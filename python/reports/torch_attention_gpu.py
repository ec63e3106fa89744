"""torch's attention kernels on the GPU under osvs's attention laws, through the Python bindings:
scaled_dot_product_attention under each backend it offers (math, flash, memory-efficient, cuDNN)
and flex_attention (compiled, with causal and sliding-window mask_mods), each given CUDA tensors
(``to_input``) and returning CUDA tensors, read back through DLPack.

    python3 python/reports/torch_attention_gpu.py OUT [--max-cases 100] [--seed 20261130]
        [--only NAME] [--device-path]

The adapters loop over the varlen batch's sequences (torch's kernels take one length a call, so
batch_invariance is the adapter's, not a padded batch's), SDPA's causal mask is top-left (its
is_causal) and, as `torch.sdpa.<backend>.bottom_right`, a boolean attn_mask of the bottom-right
causal mask or window (the chunked-prefill and prefill/decode laws need it; flash takes none),
flex's mask_mods are bottom-right (as docs/semantics.md §9 states them); `torch.sdpa.<backend>.padded`
runs the whole batch in one call, padded to its longest sequences with a boolean mask, so that
batch_invariance judges the backend itself; `torch.sdpa.<backend>.lse` calls a fused backend's
aten entry point, which returns the lse, so that the cascade law (two calls' partials merged)
judges it. With --device-path the kernels take osvs's device path (``device="cuda"``) instead of
``to_input``; results.json then counts its copies (each law's transfers). Each kernel's laws
across calls make its determinism certificate (OUT/certificate.json). Each backend's dtypes and GQA support are probed on a tiny
problem first and declared as found (reported). The contract is declared, not derived: what a
user of a bf16 / f32 library kernel would expect (2 ulp of the type at the magnitude M, 1 ulp a
key, 4 (d + 1) S 2^-24 M for the score rounding; lse 8 ulp + 1 a key); a law that fails is a
finding, printed and saved with its shrunk case.
"""

import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, cuda_machine, run  # noqa: E402
from torch_triton_gpu import to_cuda  # noqa: E402

import osvs  # noqa: E402

CONTRACT = (2, 1, 4, 8, 1, 4)
#: The merge of the cascade law's partials (flex_attention and the fused backends' aten entry
#: points return their lse): osvs's own.
CASCADE_MERGE = "osvs.merge_states.cpu_model"
HEAD_DIMS = (8, 16, 32)
TORCH_TYPE = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def per_sequence(q, k, v, p, attend):
    """o (total_q, heads_q, d_v) from attend(q_s, k_s, v_s, lq, lk) on (1, heads, len, d)."""
    o = torch.zeros(q.shape[0], p.heads_q, p.head_dim_v, dtype=q.dtype, device=q.device)
    lse = torch.full((p.heads_q, q.shape[0]), float("-inf"), device=q.device)
    cq, ck = p.cu_seqlens_q, p.cu_seqlens_k
    for s in range(len(cq) - 1):
        q0, q1, k0, k1 = int(cq[s]), int(cq[s + 1]), int(ck[s]), int(ck[s + 1])
        if q1 == q0:
            continue
        qs, ks, vs = (x.transpose(0, 1).unsqueeze(0) for x in (q[q0:q1], k[k0:k1], v[k0:k1]))
        out = attend(qs, ks, vs, q1 - q0, k1 - k0)
        if isinstance(out, tuple):
            out, l = out
            lse[:, q0:q1] = l[0].float()
        o[q0:q1] = out[0].transpose(0, 1)
    return o, lse


def kept(p, lq, lk):
    """The (lq, lk) bool mask of the pairs a sequence keeps: causal or the window, bottom-right
    (docs/semantics.md §9), on the GPU."""
    left, right = p.window
    i = torch.arange(lq, device="cuda")[:, None]
    j = torch.arange(lk, device="cuda")[None, :]
    d = i + (lk - lq)  # bottom-right
    keep = torch.ones(lq, lk, dtype=torch.bool, device="cuda")
    if p.mask == "causal":
        keep = j <= d
    elif p.mask == "window":
        if right >= 0:
            keep = keep & (j <= d + right)
        if left >= 0:
            keep = keep & (j >= d - left)
    return keep


def sdpa(backend, bottom_right=False):
    """SDPA under `backend`: its is_causal (top-left), or with bottom_right an explicit boolean
    attn_mask of the bottom-right causal mask or window (what a prefill chunk or a decode step
    over a KV cache needs; the flash backend takes no attn_mask)."""
    from torch.nn.attention import sdpa_kernel

    def fn(q, k, v, p):
        def attend(qs, ks, vs, lq, lk):
            masking = dict(attn_mask=kept(p, lq, lk)) if bottom_right and p.mask != "none" \
                else dict(is_causal=p.causal and not bottom_right)
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(qs, ks, vs, scale=p.scale,
                                                      enable_gqa=p.heads_q != p.heads_kv,
                                                      **masking)
        return per_sequence(q, k, v, p, attend)[0]
    return fn


def sdpa_padded(backend):
    """SDPA under `backend` in ONE call over the whole varlen batch padded to its longest query
    and key lengths, as a serving engine without varlen support batches requests: q (B, heads_q,
    Lq, d), k and v (B, heads_kv, Lk, d) zero-padded, and a boolean attn_mask (B, 1, Lq, Lk) that
    keeps each sequence's own keys (its bottom-right causal mask or window, or all of them). The
    padded queries' rows are computed and dropped. The backend sees every sequence at once, so
    batch_invariance judges the kernel itself: a sequence's bits must not depend on what is
    padded beside it (the per-sequence adapters make that law the adapter's)."""
    from torch.nn.attention import sdpa_kernel

    def fn(q, k, v, p):
        cq, ck = [int(x) for x in p.cu_seqlens_q], [int(x) for x in p.cu_seqlens_k]
        seqs = [(cq[s], cq[s + 1], ck[s], ck[s + 1]) for s in range(len(cq) - 1)]
        o = torch.zeros(q.shape[0], p.heads_q, p.head_dim_v, dtype=q.dtype, device=q.device)
        lq = max((q1 - q0 for q0, q1, _, _ in seqs), default=0)
        lk = max(max((k1 - k0 for _, _, k0, k1 in seqs), default=0), 1)
        if lq == 0:
            return o
        b = len(seqs)
        qp = torch.zeros(b, p.heads_q, lq, q.shape[2], dtype=q.dtype, device=q.device)
        kp = torch.zeros(b, p.heads_kv, lk, k.shape[2], dtype=k.dtype, device=k.device)
        vp = torch.zeros(b, p.heads_kv, lk, v.shape[2], dtype=v.dtype, device=v.device)
        mask = torch.zeros(b, 1, lq, lk, dtype=torch.bool, device=q.device)
        for s, (q0, q1, k0, k1) in enumerate(seqs):
            qp[s, :, :q1 - q0] = q[q0:q1].transpose(0, 1)
            kp[s, :, :k1 - k0] = k[k0:k1].transpose(0, 1)
            vp[s, :, :k1 - k0] = v[k0:k1].transpose(0, 1)
            mask[s, 0, :q1 - q0, :k1 - k0] = kept(p, q1 - q0, k1 - k0)
        with sdpa_kernel(backend):
            out = F.scaled_dot_product_attention(qp, kp, vp, attn_mask=mask, scale=p.scale,
                                                 enable_gqa=p.heads_q != p.heads_kv)
        for s, (q0, q1, _, _) in enumerate(seqs):
            o[q0:q1] = out[s, :, :q1 - q0].transpose(0, 1)
        return o
    return fn


def sdpa_lse(backend):
    """SDPA's fused backend `backend` through its aten entry point, which returns the lse too
    (torch.sdpa.<backend>.lse; the cascade law merges two calls' (o, lse) partials): flash
    (`_scaled_dot_product_flash_attention`, no mask), memory-efficient and cuDNN
    (`_scaled_dot_product_{efficient,cudnn}_attention`) with the bottom-right causal mask or
    window as an additive bias (0 kept, -inf masked; its last dimension allocated to a multiple of
    16 and sliced, as SDPA pads it). These entry points take as many K/V heads as query heads: the
    variants are declared without GQA (the backends' own GQA is judged by their SDPA variants)
    and in the dtypes the SDPA backend itself takes.
    The lse comes back (1, heads, >= lq[, 1]): its first lq values a head are the rows'."""
    from torch.nn.attention import SDPBackend
    aten = torch.ops.aten

    def fn(q, k, v, p):
        def attend(qs, ks, vs, lq, lk):
            if backend == SDPBackend.FLASH_ATTENTION:
                out = aten._scaled_dot_product_flash_attention(qs, ks, vs, 0.0, False, False,
                                                               scale=p.scale)
            else:
                bias = None
                if p.mask != "none":
                    padded = torch.zeros(1, 1, lq, (lk + 15) // 16 * 16, dtype=qs.dtype,
                                         device=qs.device)
                    bias = padded[..., :lk]
                    bias.masked_fill_(~kept(p, lq, lk), float("-inf"))
                    bias = bias.expand(1, qs.shape[1], lq, lk)  # a bias a head, as SDPA gives
                op = aten._scaled_dot_product_efficient_attention \
                    if backend == SDPBackend.EFFICIENT_ATTENTION \
                    else aten._scaled_dot_product_cudnn_attention
                extra = () if backend == SDPBackend.EFFICIENT_ATTENTION else (False,)
                out = op(qs, ks, vs, bias, True, 0.0, False, *extra, scale=p.scale)
            o, lse = out[0], out[1]
            return o, lse.reshape(1, lse.shape[1], -1)[:, :, :lq]
        return per_sequence(q, k, v, p, attend)
    return fn


_KEEP = None  # the kept (query, key) pairs of flex's current call: (lq, lk) bool on the GPU


def _keep_mod(b, h, i, j):
    """flex's mask_mod: one function for every call (so the compiled kernel is reused), reading
    the current sequence's mask from _KEEP."""
    return _KEEP[i, j]


_CAP = _SLOPES = _OFFSET = None  # the score_mod's softcap, ALiBi slopes and k_len - q_len


def _score_mod(score, b, h, i, j):
    """flex's score_mod for softcap then ALiBi (docs/semantics.md §9's order), one function for
    every call, reading the current problem's values from tensors (no recompilation)."""
    capped = torch.where(_CAP > 0, _CAP * torch.tanh(score / _CAP), score)
    return capped - _SLOPES[h] * torch.abs(i + _OFFSET - j)


def flex(score_mod=False):
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    # Each new scale, dtype or GQA flag compiles again; past dynamo's recompile limit (8) it
    # would run flex_attention eagerly, its unfused reference path, not the kernel under test.
    torch._dynamo.config.recompile_limit = 512
    torch._dynamo.config.accumulated_recompile_limit = 4096
    compiled = torch.compile(flex_attention, dynamic=True)

    def fn(q, k, v, p):
        def attend(qs, ks, vs, lq, lk):
            global _KEEP
            _KEEP = kept(p, lq, lk)  # bottom-right, as the kernel is declared
            mask = create_block_mask(_keep_mod, None, None, lq, lk, device="cuda")
            extra = {}
            if score_mod:
                global _CAP, _SLOPES, _OFFSET
                _CAP = torch.tensor(p.softcap, device="cuda")
                _SLOPES = torch.zeros(p.heads_q, device="cuda") if p.alibi_slopes is None \
                    else torch.tensor(p.alibi_slopes, device="cuda")
                _OFFSET = torch.tensor(lk - lq, device="cuda")
                extra["score_mod"] = _score_mod
            return compiled(qs, ks, vs, block_mask=mask, scale=p.scale,
                            enable_gqa=p.heads_q != p.heads_kv, return_lse=True, **extra)
        return per_sequence(q, k, v, p, attend)
    return fn


def probe(fn, dtypes, gqa=True):
    """The dtypes (and whether GQA) fn runs on a 2-query, 3-key problem of head_dim 16: what it is declared to
    take. A dtype it refuses is left out (reported), not a finding."""
    p = osvs.AttentionProblem(cu_seqlens_q=np.array([0, 2], np.int32),
                              cu_seqlens_k=np.array([0, 3], np.int32), block_table=None,
                              scale=0.5, softcap=0.0, sinks=None, alibi_slopes=None,
                              mask="none", mask_align="top-left", window=(-1, -1),
                              base="e", page_size=0, heads_q=2, heads_kv=1 if gqa else 2,
                              head_dim_qk=16, head_dim_v=16, dtype="float32")
    ok = []
    for d in dtypes:
        try:
            t = TORCH_TYPE[d]
            q = torch.ones(2, 2, 16, dtype=t, device="cuda")
            kv = torch.ones(3, p.heads_kv, 16, dtype=t, device="cuda")
            fn(q, kv, kv, p)
            torch.cuda.synchronize()
            ok.append(d)
        except Exception as e:  # noqa: BLE001 - the probe's purpose
            print(f"probe: {d}{' with GQA' if gqa else ''}: {type(e).__name__}: {e}"[:300],
                  file=sys.stderr)
    return ok


#: What torch's fused backends refuse ("No available kernel"), found by the first run of
#: 2026-12-02: flash's is_causal needs q_len == k_len; no fused backend takes zero keys, cuDNN
#: no fewer than 2. Declared, so that the laws judge the problems each takes.
DOMAIN = {"math": {}, "flash": dict(min_k_len=1, square_masks=True),
          "efficient": dict(min_k_len=1), "cudnn": dict(min_k_len=2)}
#: flex_attention fails to compile a sequence without keys (InductorError, 2026-12-02 run 3,
#: reports/python/h200-attention): declared, so that the laws across calls (a batch with an
#: empty sequence, a chunk's empty prefix) judge what flex computes rather than that one crash,
#: which the empty_rows law of those runs keeps showing.
FLEX_DOMAIN = dict(min_k_len=1)


def kernels(only=None):
    """(name, check_attention keywords) of each kernel (``only``: those whose name contains it),
    and what the probes found."""
    from torch.nn.attention import SDPBackend
    out, probed = [], {}
    common = dict(accuracy=CONTRACT, to_input=to_cuda, head_dims=HEAD_DIMS)
    all_types = ("float32", "bfloat16", "float16")
    for name, backend in [("math", SDPBackend.MATH), ("flash", SDPBackend.FLASH_ATTENTION),
                          ("efficient", SDPBackend.EFFICIENT_ATTENTION),
                          ("cudnn", SDPBackend.CUDNN_ATTENTION)]:
        if only and not (only in f"torch.sdpa.{name}" or f"torch.sdpa.{name}" in only
                         or only.startswith(".")):
            continue  # (".padded" names a variant of every backend)
        fn = sdpa(backend)
        gqa_types = probe(fn, all_types, gqa=True)
        types = gqa_types or probe(fn, all_types, gqa=False)
        probed[f"sdpa.{name}"] = {"dtypes": types, "gqa": bool(gqa_types)}
        if not types:
            continue
        out.append((f"torch.sdpa.{name}", dict(fn=fn, dtypes=types, gqa=bool(gqa_types),
                                               masks=("none", "causal"), mask_align="top-left",
                                               **DOMAIN[name], **common)))
        if backend != SDPBackend.FLASH_ATTENTION:  # the same backend under a bottom-right mask
            out.append((f"torch.sdpa.{name}.bottom_right",
                        dict(fn=sdpa(backend, bottom_right=True), dtypes=types,
                             gqa=bool(gqa_types), masks=("none", "causal", "window"),
                             mask_align="bottom-right", **DOMAIN[name], **common)))
            # The whole batch in one call, padded (batch invariance of the backend itself).
            out.append((f"torch.sdpa.{name}.padded",
                        dict(fn=sdpa_padded(backend), dtypes=types, gqa=bool(gqa_types),
                             masks=("none", "causal", "window"), mask_align="bottom-right",
                             **DOMAIN[name], **common)))
        if backend != SDPBackend.MATH:  # the fused backends with their lse: the cascade law
            # The dtypes SDPA's backend takes: cuDNN's aten entry point does not refuse float32
            # (SDPA does) but computes garbage from it (2026-12-06, H100): outside its contract.
            fn = sdpa_lse(backend)
            types = probe(fn, types, gqa=False)
            probed[f"sdpa.{name}.lse"] = {"dtypes": types, "gqa": False}
            if types:
                masks = ("none",) if backend == SDPBackend.FLASH_ATTENTION \
                    else ("none", "causal", "window")
                out.append((f"torch.sdpa.{name}.lse",
                            dict(fn=fn, dtypes=types, gqa=False, masks=masks,
                                 mask_align="bottom-right", lse_bases=("e",),
                                 cascade_merge=CASCADE_MERGE, **DOMAIN[name], **common)))
    out = [(n, spec) for n, spec in out if not only or only in n]
    if not only or only.rstrip("$") in "torch.flex_attention":
        fn = flex()
        types = probe(fn, ("bfloat16",), gqa=True)  # bf16 alone: every new dtype compiles again
        probed["flex_attention"] = {"dtypes": types, "gqa": True}
        if types:
            out.append(("torch.flex_attention", dict(fn=fn, dtypes=types, gqa=True,
                                                     masks=("none", "causal", "window"),
                                                     mask_align="bottom-right", lse_bases=("e",),
                                                     cascade_merge=CASCADE_MERGE, **FLEX_DOMAIN,
                                                     **{**common, "head_dims": (16,)})))
    # The same kernel with a score_mod: softcap and ALiBi (the declarations that draw them).
    if only and (only.endswith("$") or only not in "torch.flex_attention.score_mod"):
        return out, probed
    fn = flex(score_mod=True)
    types = probe(fn, ("bfloat16",), gqa=True)
    probed["flex_attention.score_mod"] = {"dtypes": types, "gqa": True}
    if types:
        out.append(("torch.flex_attention.score_mod",
                    dict(fn=fn, dtypes=types, gqa=True, masks=("none", "causal", "window"),
                         mask_align="bottom-right", lse_bases=("e",), softcap=True, alibi=True,
                         cascade_merge=CASCADE_MERGE, **FLEX_DOMAIN, **{**common, "head_dims": (16,)})))
    return out, probed


def only_flag():
    """--only NAME, removed from the command line: the kernels whose name contains NAME (None
    without it)."""
    if "--only" not in sys.argv:
        return None
    at = sys.argv.index("--only")
    only = sys.argv[at + 1]
    del sys.argv[at:at + 2]
    return only


def device_path_flag() -> bool:
    """Whether the command line asks for the device path (--device-path, removed from it)."""
    if "--device-path" not in sys.argv:
        return False
    sys.argv.remove("--device-path")
    return True


def on_device_path(ks):
    """The kernels with osvs's device path (device="cuda": each distinct input copied to the GPU
    once a law, outputs read back only where they differ from an earlier one's bits) instead of
    to_input and DLPack; the same verdicts (python/README.md)."""
    return [(name, {**{k: v for k, v in spec.items() if k != "to_input"}, "device": "cuda"})
            for name, spec in ks]


def main():
    # --only NAME: the kernels whose name contains NAME (flex: NAME$ for that name alone, e.g.
    # torch.flex_attention$ without its .score_mod variant, which compiles on its own)
    only = only_flag()
    device_path = device_path_flag()
    args = arguments(__doc__.splitlines()[0])
    machine = cuda_machine(torch,
                           contract=f"declared {CONTRACT} (AttentionAccuracy, docs/semantics.md §9)",
                           device_path=device_path)
    ks, machine["probed"] = kernels(only)
    if device_path:
        ks = on_device_path(ks)
    run("torch attention kernels under osvs's attention laws (Python bindings, GPU)", ks, args,
        machine, check=osvs.check_attention)


if __name__ == "__main__":
    main()
