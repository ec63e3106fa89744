"""Attention laws on NumPy attention forwards: a float64 reference (rounded once to float32)
passes every law, varlen, GQA, paged K/V and every mask included; one that ignores the mask and
one that forgets pages fail, each with a small case that replays; the laws across calls ask for
the bits unless declared otherwise (api/tests/attention_across_calls_test.cpp's Python twin)."""

import numpy as np
import pytest

import osvs
from law_violations import failed_law


def kept(p, i, j, lq, lk):
    """docs/semantics.md §9's mask, written from its text."""
    if p.mask == "none":
        return True
    d = i + (lk - lq if p.mask_align == "bottom-right" else 0)
    if p.mask == "causal":
        return j <= d
    left, right = p.window
    return (left < 0 or j >= d - left) and (right < 0 or j <= d + right)


def gather(kv, p, s, lk):
    """Sequence s's keys (or values): (lk, heads_kv, d), through the block table when paged."""
    if p.page_size == 0:
        start = p.cu_seqlens_k[s]
        return kv[start:start + lk]
    return np.stack([kv[p.block_table[s][j // p.page_size], j % p.page_size] for j in range(lk)]) \
        if lk else np.zeros((0,) + kv.shape[2:], kv.dtype)


def attention(q, k, v, p, honour_mask=True, honour_pages=True):
    o = np.zeros((q.shape[0], p.heads_q, p.head_dim_v), np.float64)
    lse = np.full((p.heads_q, q.shape[0]), -np.inf)
    group = p.heads_q // p.heads_kv
    for s in range(len(p.cu_seqlens_q) - 1):
        q0, lq = p.cu_seqlens_q[s], p.cu_seqlens_q[s + 1] - p.cu_seqlens_q[s]
        lk = p.cu_seqlens_k[s + 1] - p.cu_seqlens_k[s]
        if honour_pages:
            ks, vs = gather(k, p, s, lk), gather(v, p, s, lk)
        else:  # reads the pages as if they were contiguous
            flat_k, flat_v = k.reshape(-1, *k.shape[-2:]), v.reshape(-1, *v.shape[-2:])
            start = p.cu_seqlens_k[s]
            ks, vs = flat_k[start:start + lk], flat_v[start:start + lk]
        for i in range(lq):
            keys = [j for j in range(lk) if not honour_mask or kept(p, i, j, lq, lk)]
            for h in range(p.heads_q):
                if not keys:
                    if p.sinks is not None:
                        lse[h, q0 + i] = p.sinks[h]  # o stays 0
                    continue
                g = h // group
                scores = np.array([p.scale * np.dot(q[q0 + i, h].astype(np.float64),
                                                    ks[j, g].astype(np.float64)) for j in keys])
                if p.softcap > 0:
                    scores = p.softcap * np.tanh(scores / p.softcap)
                if p.alibi_slopes is not None:
                    at = i + (lk - lq if p.mask_align == "bottom-right" else 0)
                    scores = scores - float(p.alibi_slopes[h]) * np.abs(at - np.array(keys))
                sink = -np.inf if p.sinks is None else float(p.sinks[h])
                m = max(scores.max(), sink)
                w = np.exp(scores - m)
                total = w.sum() + np.exp(sink - m)
                o[q0 + i, h] = (w[:, None] * vs[keys, g].astype(np.float64)).sum(0) / total
                lse[h, q0 + i] = m + np.log(total)
    return o.astype(np.float32), lse.astype(np.float32)


# The reference takes a split size (problem.kv_splits) and computes the same attention whatever
# it is: every law across calls, split_invariance included, applies to it.
DECLARATION = dict(masks=("none", "causal", "window"), gqa=True, page_sizes=(2, 4),
                   lse_bases=("e",), softcap=True, sinks=True, alibi=True,
                   split_by="size", kv_splits=(2, 4), accuracy=(1, 0, 0, 4, 0, 0),
                   cascade_merge="osvs.merge_states.cpu_model")


def test_a_float64_reference_passes_every_law():
    result = osvs.check_attention(attention, name="numpy.attention", **DECLARATION)
    assert result.ok, str(result)
    assert [r.law for r in result.laws] == osvs.attention_laws()
    assert all(r.status == "passed" and r.judged > 0 for r in result.laws), str(result)
    certificate = result.certificate()
    assert certificate["passes"]
    invariances = {i["law"]: i for i in certificate["invariances"]}
    assert set(invariances) == {"poison", "gqa", "determinism", "batch_invariance", "page_layout",
                                "split_invariance", "chunked_prefill", "prefill_decode",
                                "cascade"}
    assert all(i["asks"] == ("contract" if law == "cascade" else "bitwise")
               and i["shape_classes"] > 0 for law, i in invariances.items())


def test_ignoring_the_mask_fails_and_replays():
    def unmasked(q, k, v, p):
        return attention(q, k, v, p, honour_mask=False)

    r = failed_law(osvs.check_attention, unmasked, "accuracy", name="numpy.attention_unmasked",
                   **DECLARATION)
    # shrunk within the limits issue 30 sets for a shrunk attention case (<= 2 sequences,
    # <= 8 keys a sequence), and to a case where the mask matters
    assert len(r.case["seqs"]) <= 2 and r.case["mask"] != "none", r
    assert max(k for _, k in r.case["seqs"]) <= 8, r
    assert osvs.read_regression(r.regression)["kind"] == "attention"
    assert osvs.replay(r.regression, attention, **DECLARATION).status == "as_expected"


def test_forgetting_the_block_table_fails():
    def contiguous(q, k, v, p):
        return attention(q, k, v, p, honour_pages=False)

    r = failed_law(osvs.check_attention, contiguous, "accuracy", name="numpy.attention_no_pages",
                   **DECLARATION)
    assert r.case["page_size"] > 0


def test_a_kernel_returning_another_shape_is_named():
    def wrong_shape(q, k, v, p):
        o, lse = attention(q, k, v, p)
        return o[:, :1], lse  # one head of o only

    r = failed_law(osvs.check_attention, wrong_shape, "accuracy",
                   name="numpy.attention_wrong_shape", **DECLARATION)
    assert "the kernel's o" in r.reason, r.reason


def test_a_kernel_writing_its_input_is_named():
    def writes_q(q, k, v, p):
        out = attention(q, k, v, p)
        q[...] = 0
        return out

    r = failed_law(osvs.check_attention, writes_q, "determinism", name="numpy.attention_writes_q",
                   **DECLARATION)
    assert "modified its input arrays" in r.reason


def nudged_where(path):
    """The reference with its first o element one float32 ulp up on launches where
    ``path(problem)``: a path that rounds otherwise."""
    def kernel(q, k, v, p):
        o, lse = attention(q, k, v, p)
        if path(p):
            o[0, 0, 0] = np.nextafter(o[0, 0, 0], np.float32(np.inf))
        return o, lse
    return kernel


def chunk_after_the_first(p):  # sequence 0 has fewer queries than keys: a chunk with a prefix
    return p.cu_seqlens_q[1] - p.cu_seqlens_q[0] < p.cu_seqlens_k[1] - p.cu_seqlens_k[0]


def decode_step(p):  # one query a sequence
    return bool(np.all(np.diff(p.cu_seqlens_q) == 1))


def asks_for_splits(p):
    return p.kv_splits != 0


# (law, the path nudged, the declaration asking for the contract instead of the bits); the
# contract of 2 ulp leaves room for the reference's rounding and the nudge's ulp.
ACROSS_CALLS = [("chunked_prefill", chunk_after_the_first, "chunk_bitwise"),
                ("prefill_decode", decode_step, "decode_bitwise"),
                ("split_invariance", asks_for_splits, "split_bitwise")]


@pytest.mark.parametrize("law,path,not_bitwise", ACROSS_CALLS, ids=[a[0] for a in ACROSS_CALLS])
def test_a_law_across_calls_is_bitwise_unless_declared_otherwise(law, path, not_bitwise):
    declaration = dict(DECLARATION, accuracy=(2, 0, 0, 4, 0, 0))
    kernel = nudged_where(path)
    with pytest.raises(osvs.LawViolation) as e:
        osvs.check_attention(kernel, name=f"numpy.attention_nudged_{law}", laws=[law],
                             **declaration)
    r = e.value.result[law]
    assert r.status == "failed", r
    # shrunk within issue 30's limits for an attention case: <= 2 sequences, <= 8 keys
    assert len(r.case["seqs"]) <= 2 and max(k for _, k in r.case["seqs"]) <= 8, r
    certificate = e.value.result.certificate()
    assert not certificate["passes"]
    entry = certificate["invariances"][0]
    assert entry["asks"] == "bitwise" and entry["minimal_case"] == r.case["summary"], entry
    declaration[not_bitwise] = False
    result = osvs.check_attention(kernel, name=f"numpy.attention_nudged_{law}", laws=[law],
                                  **declaration)
    assert result.ok and result.laws[0].judged > 0, str(result)
    certificate = result.certificate()
    assert certificate["passes"] and certificate["invariances"][0]["asks"] == "contract"


def test_laws_a_declaration_rules_out_say_why():
    declaration = dict(DECLARATION, mask_align="top-left")
    declaration.pop("split_by")
    declaration.pop("kv_splits")
    result = osvs.check_attention(attention, name="numpy.attention_top_left",
                                  laws=["split_invariance", "chunked_prefill", "prefill_decode"],
                                  **declaration)
    reasons = {r.law: (r.status, r.reason) for r in result.laws}
    assert reasons["split_invariance"][0] == "skipped", reasons
    assert "declares no KV splits" in reasons["split_invariance"][1], reasons
    for law in ("chunked_prefill", "prefill_decode"):
        assert reasons[law][0] == "skipped" and "top-left" in reasons[law][1], reasons
