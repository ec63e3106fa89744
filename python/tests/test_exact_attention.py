"""osvs.exact_attention: the attention oracle at the caller's shapes (docs/semantics.md §9)."""

import math

import numpy as np
import pytest

import osvs


def _float64_attention(q, k, v, scale, causal):
    """Attention in float64, the plain way (one sequence, heads_q == heads_kv): a check of the
    oracle's values to about 1e-15, not of its roundings."""
    lq, h, _ = q.shape
    lk = k.shape[0]
    o = np.zeros((lq, h, v.shape[2]))
    for i in range(lq):
        for head in range(h):
            s = (k[:, head, :].astype(np.float64) @ q[i, head, :].astype(np.float64)) * scale
            if causal:
                s[np.arange(lk) > i + lk - lq] = -np.inf
            p = np.exp(s - s.max())
            o[i, head] = (p / p.sum()) @ v[:, head, :].astype(np.float64)
    return o


def test_one_key_gives_its_value_and_score():
    q = np.array([[[1.0, 2.0]]], dtype=np.float32)     # one token, one head, d = 2
    k = np.array([[[0.5, 0.25]]], dtype=np.float32)    # score 1 * 0.5 + 2 * 0.25 = 1 (scale 1)
    v = np.array([[[3.0, -0.125]]], dtype=np.float32)
    ex = osvs.exact_attention(q, k, v, scale=1.0, dtype="f32")
    assert ex.o_rounded.tolist() == [[[3.0, -0.125]]]
    assert ex.lse_rounded.tolist() == [[1.0]]
    assert ex.kept.tolist() == [[1]]
    assert ex.mpfr_queries == 0


def test_agrees_with_float64_and_rounds_correctly():
    rng = np.random.default_rng(20261203)
    lq, h, d = 6, 2, 16
    q, k, v = (rng.standard_normal((lq, h, d)).astype(np.float32) for _ in range(3))
    scale = 1 / math.sqrt(d)
    for causal in (False, True):
        ex = osvs.exact_attention(q, k, v, causal=causal, dtype="f32")
        ref = _float64_attention(q, k, v, np.float32(scale), causal)
        assert np.max(np.abs(ex.o - ref) / ex.magnitude) < 1e-13
        # the rounded values are within half an ulp of the type at |o| <= M: ulps() <= 1/2
        assert np.max(ex.ulps(ex.o_rounded)) <= 0.5
        assert ex.correctly_rounded(ex.o_rounded) == 1.0
    # causal, bottom-right on a square: the first query keeps one key, the last all six
    assert ex.kept[:, 0].tolist() == [1, 2, 3, 4, 5, 6]
    assert np.array_equal(ex.o_rounded[0], v[0])


def test_varlen_and_grouped_heads_in_bf16():
    rng = np.random.default_rng(7)
    cu = np.array([0, 3, 8])
    def bf16(shape):  # values exact in bfloat16: float32 with the low 16 bits cleared
        x = rng.standard_normal(shape).astype(np.float32)
        return (x.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    q, k, v = bf16((8, 4, 8)), bf16((8, 2, 8)), bf16((8, 2, 8))
    ex = osvs.exact_attention(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=cu, causal=True,
                              dtype="bf16")
    assert ex.o_rounded.shape == (8, 4, 8) and ex.lse.shape == (8, 4)
    assert ex.kept[:, 0].tolist() == [1, 2, 3, 1, 2, 3, 4, 5]  # each sequence starts again
    bits = ex.o_rounded.view(np.uint32)
    assert np.all(bits & np.uint32(0xFFFF) == 0), "o rounded to bfloat16"
    # a kernel one bf16 ulp (of its own value, |o| <= M) off everywhere: wrong everywhere, by
    # at most that ulp plus the half of the exact rounding, in ulps of M (3: o rounded up to a
    # power of two just above M has an ulp twice M's)
    off = (bits + np.uint32(0x10000)).view(np.float32)
    ulps = ex.ulps(off)
    assert np.all(ulps > 0) and np.max(ulps) <= 3 and ex.correctly_rounded(off) == 0.0


def test_bad_inputs_are_named():
    q = np.ones((2, 1, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="cu_seqlens_q"):
        osvs.exact_attention(q, q, q, cu_seqlens_q=[0, 3], dtype="f32")
    with pytest.raises(ValueError, match="not a well-formed attention case"):
        osvs.exact_attention(q + np.float32(1e-3), q, q, dtype="bf16")  # not exact in bf16
    with pytest.raises(ValueError, match="dtype"):
        osvs.exact_attention(q, q, q, dtype="fp8")
    with pytest.raises(ValueError, match="causal or a window"):
        osvs.exact_attention(q, q, q, causal=True, window=(1, 0), dtype="f32")


def test_fp8_kv_is_the_scaled_stored_values():
    # k and v stored in e4m3 / e5m2 (bit patterns), attended to times their scales: with scales
    # that are powers of two, scale * stored is exact in float32, so the same case given as
    # float32 k and v must give the same exact answer bit for bit; with scales that are not, the
    # oracle agrees with float64 attention on the exactly dequantised values.
    rng = np.random.default_rng(20261206)
    lq, h, d = 5, 2, 8
    q = rng.integers(-64, 65, (lq, h, d)).astype(np.float32) / 64
    for kv_type in ("e4m3", "e5m2"):
        values = osvs.fp8_to_float32(np.arange(256, dtype=np.uint8), kv_type)
        finite = np.flatnonzero(np.isfinite(values) & (np.abs(values) <= 4)).astype(np.uint8)
        k_bits, v_bits = (rng.choice(finite, (lq, h, d)) for _ in range(2))
        k_vals, v_vals = (osvs.fp8_to_float32(b, kv_type) for b in (k_bits, v_bits))
        for causal in (False, True):
            ex = osvs.exact_attention(q, k_bits, v_bits, causal=causal, dtype="f32",
                                      kv_type=kv_type, k_scale=0.125, v_scale=4.0)
            same = osvs.exact_attention(q, k_vals * np.float32(0.125), v_vals * np.float32(4.0),
                                        causal=causal, dtype="f32")
            assert np.array_equal(ex.o_rounded, same.o_rounded)
            assert np.array_equal(ex.lse_rounded, same.lse_rounded)
            k_scale, v_scale = 0.3, 1.7  # not powers of two: products exact in float64 only
            ex = osvs.exact_attention(q, k_bits, v_bits, causal=causal, dtype="f32",
                                      kv_type=kv_type, k_scale=k_scale, v_scale=v_scale)
            ref = _float64_attention(q, k_vals.astype(np.float64) * np.float32(k_scale),
                                     v_vals.astype(np.float64) * np.float32(v_scale),
                                     np.float32(1 / math.sqrt(d)), causal)
            # (M = 0 where every kept v of a component is 0, which fp8's draws include: o = 0)
            assert np.all(np.abs(ex.o - ref) <= 1e-13 * ex.magnitude)
            assert np.max(ex.ulps(ex.o_rounded)) <= 0.5


def test_fp8_bad_inputs_are_named():
    q = np.ones((2, 1, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="give kv_type"):
        osvs.exact_attention(q, q, q, dtype="f32", k_scale=2.0)
    with pytest.raises(ValueError, match="kv_type"):
        osvs.exact_attention(q, q, q, dtype="f32", kv_type="f16")
    with pytest.raises(ValueError, match="not a well-formed attention case"):
        osvs.exact_attention(q, q * np.float32(1.0625), q, dtype="f32", kv_type="e5m2")
