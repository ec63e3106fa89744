"""fp8 K/V from Python (docs/semantics.md §9, "fp8 K/V"): a kernel declared with kv_types gets k
and v as uint8 bit patterns with problem.kv_type, k_scale and v_scale; test_attention.py's
float64 reference on the exactly dequantised values passes every law, one that ignores the
scales fails accuracy with a small case that keeps its fp8 K/V and replays, and osvs's decoder
agrees with the OCP formats' formula on every pattern."""

import json
import math

import numpy as np
import pytest

import osvs
from law_violations import failed_law
from test_attention import attention

DECLARATION = dict(masks=("none", "causal", "window"), gqa=True, page_sizes=(2, 4),
                   lse_bases=("e",), accuracy=(1, 0, 0, 4, 0, 0), kv_types=["e4m3", "e5m2"],
                   kv_types_only=True)


def dequantised(x, kv_type, scale):
    """Stored fp8 bits times the tensor's scale, exactly (a float32 times a value of at most 4
    significant bits fits float64's 53)."""
    return osvs.fp8_to_float32(x, kv_type).astype(np.float64) * float(scale)


def fp8_attention(q, k, v, p, honour_scales=True):
    assert k.dtype == np.uint8 and v.dtype == np.uint8 and p.kv_type in ("e4m3", "e5m2")
    k_scale, v_scale = (p.k_scale, p.v_scale) if honour_scales else (1.0, 1.0)
    return attention(q, dequantised(k, p.kv_type, k_scale), dequantised(v, p.kv_type, v_scale), p)


def test_the_decoder_is_the_formats_formula():
    # (-1)^s (1 + m / 2^M) 2^(e - bias), subnormals (-1)^s m / 2^M 2^(1 - bias); e4m3's one NaN
    # pattern S.1111.111, e5m2's infinities S.11111.00 and NaNs S.11111.{01,10,11}.
    for kv_type, e_bits, m_bits, bias in (("e4m3", 4, 3, 7), ("e5m2", 5, 2, 15)):
        values = osvs.fp8_to_float32(np.arange(256, dtype=np.uint8), kv_type)
        for b in range(256):
            sign = -1.0 if b & 0x80 else 1.0
            e, m = (b >> m_bits) & ((1 << e_bits) - 1), b & ((1 << m_bits) - 1)
            top = e == (1 << e_bits) - 1
            if kv_type == "e4m3" and top and m == (1 << m_bits) - 1 or kv_type == "e5m2" and top \
                    and m:
                assert math.isnan(values[b]), (kv_type, b)
            elif kv_type == "e5m2" and top:
                assert values[b] == sign * math.inf, (kv_type, b)
            else:
                want = sign * (m / 2 ** m_bits if e == 0 else 1 + m / 2 ** m_bits) \
                    * 2.0 ** ((1 if e == 0 else e) - bias)
                assert values[b] == want and math.copysign(1, values[b]) == sign, (kv_type, b)
    assert osvs.fp8_to_float32(np.uint8(0x7e), "e4m3") == 448
    assert osvs.fp8_to_float32(np.uint8(0x7b), "e5m2") == 57344
    with pytest.raises(ValueError):
        osvs.fp8_to_float32(np.uint8(0), "e3m4")


def test_a_dequantising_reference_passes_every_law():
    result = osvs.check_attention(fp8_attention, name="numpy.attention_fp8", **DECLARATION)
    assert result.ok, str(result)
    assert all(r.status in ("passed", "skipped") for r in result.laws), str(result)
    assert result["accuracy"].judged > 0 and result["poison"].judged > 0, str(result)


def test_ignoring_the_scales_fails_and_replays():
    def unscaled(q, k, v, p):
        return fp8_attention(q, k, v, p, honour_scales=False)

    r = failed_law(osvs.check_attention, unscaled, "accuracy",
                   name="numpy.attention_fp8_unscaled", **DECLARATION)
    case = r.case
    assert case["kv_type"] in ("e4m3", "e5m2"), r
    assert (case["k_scale"], case["v_scale"]) != (1.0, 1.0), r  # the scales are the failure
    assert len(case["seqs"]) <= 2 and max(k for _, k in case["seqs"]) <= 8, r
    with open(r.regression) as f:  # the file's case carries the fp8 type and both scales
        saved = json.load(f)["input"]
    assert saved["kv_type"] == case["kv_type"] and "k_scale" in saved and "v_scale" in saved
    assert osvs.replay(r.regression, fp8_attention, **DECLARATION).status == "as_expected"


def test_a_kernel_without_kv_types_gets_no_fp8_and_a_bad_declaration_is_named():
    seen = set()

    def recording(q, k, v, p):
        seen.add((k.dtype.name, p.kv_type, p.k_scale, p.v_scale))
        return attention(q, k, v, p)[0]

    osvs.check_attention(recording, name="numpy.attention_plain", laws=["accuracy"],
                         masks=("none",), accuracy=(1, 0, 0, 4, 0, 0))
    assert seen == {("float32", None, 1.0, 1.0)}, seen
    with pytest.raises(ValueError, match="kv_types 'f16'"):
        osvs.check_attention(recording, name="numpy.attention_bad", kv_types=["f16"])
    with pytest.raises(ValueError, match="kv_types_only without kv_types"):
        osvs.check_attention(recording, name="numpy.attention_bad", kv_types_only=True)
