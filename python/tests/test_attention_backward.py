"""Attention backward on NumPy (docs/semantics.md §9.4): gradients written from their formulas in
float64 and rounded once to float32 pass every law that applies to a backward kernel (the laws
that cut a forward say why they do not), attention sinks and their gradient dsinks included; a
backward that forgets the softmax scale on dq, one that drops the GQA sum over a group, and one
that drops the sign of dsinks fail accuracy with a small case that replays."""

import numpy as np

import osvs
from law_violations import failed_law
from test_attention import kept


def attention_backward(q, k, v, p, scale_dq=True, gqa_sum=True, dsinks_sign=-1.0):
    """(dq, dk, dv, delta) of the exact forward of §9 at the given floats, in float64, and with
    sinks dsinks: each head's -sum_i P_sink,i delta_i over every query of the batch (dsinks_sign
    +1: the sign dropped, the mutant); a kv head's dk and dv sum its query heads' (gqa_sum=False:
    the last head's alone, the mutant)."""
    dq = np.zeros(q.shape, np.float64)
    # each query head's share of its kv head's dk and dv: (tokens, heads_q, d)
    dk_of = np.zeros((k.shape[0], p.heads_q, k.shape[2]), np.float64)
    dv_of = np.zeros((v.shape[0], p.heads_q, v.shape[2]), np.float64)
    delta = np.zeros((p.heads_q, q.shape[0]), np.float64)
    dsinks = np.zeros(p.heads_q, np.float64)
    group = p.heads_q // p.heads_kv
    dout = p.dout.astype(np.float64)
    for s in range(len(p.cu_seqlens_q) - 1):
        q0, lq = p.cu_seqlens_q[s], p.cu_seqlens_q[s + 1] - p.cu_seqlens_q[s]
        k0, lk = p.cu_seqlens_k[s], p.cu_seqlens_k[s + 1] - p.cu_seqlens_k[s]
        for h in range(p.heads_q):
            g = h // group
            for i in range(lq):
                keys = np.array([j for j in range(lk) if kept(p, i, j, lq, lk)], dtype=np.int64)
                if keys.size == 0:
                    continue
                qi = q[q0 + i, h].astype(np.float64)
                ks = k[k0 + keys, g].astype(np.float64)
                vs = v[k0 + keys, g].astype(np.float64)
                raw = p.scale * ks @ qi
                # sech^2, not 1 - tanh^2: that cancels where tanh nears 1 (a first version of
                # this test failed accuracy by 30 ulp of M on dk with a softcap of 50)
                slope = np.cosh(raw / p.softcap) ** -2.0 if p.softcap > 0 else 1.0
                scores = p.softcap * np.tanh(raw / p.softcap) if p.softcap > 0 else raw
                if p.alibi_slopes is not None:
                    at = i + (lk - lq if p.mask_align == "bottom-right" else 0)
                    scores = scores - float(p.alibi_slopes[h]) * np.abs(at - keys)
                # the sink: one more term of the denominator, with no value
                z = None if p.sinks is None else float(p.sinks[h])
                top = scores.max() if z is None else max(scores.max(), z)
                w = np.exp(scores - top)
                sink_w = 0.0 if z is None else np.exp(z - top)
                prob = w / (w.sum() + sink_w)
                d_prob = vs @ dout[q0 + i, h]
                delta[h, q0 + i] = prob @ d_prob
                dsinks[h] += dsinks_sign * sink_w / (w.sum() + sink_w) * delta[h, q0 + i]
                d_score = prob * (d_prob - delta[h, q0 + i]) * slope
                dq[q0 + i, h] = (p.scale if scale_dq else 1.0) * d_score @ ks
                dk_of[k0 + keys, h] += p.scale * np.outer(d_score, qi)
                dv_of[k0 + keys, h] += np.outer(prob, dout[q0 + i, h])
    heads = [list(range(g * group, (g + 1) * group)) for g in range(p.heads_kv)]
    if not gqa_sum:
        heads = [hs[-1:] for hs in heads]
    dk = np.stack([dk_of[:, hs].sum(1) for hs in heads], axis=1)
    dv = np.stack([dv_of[:, hs].sum(1) for hs in heads], axis=1)
    grads = (dq, dk, dv, delta) + (() if p.sinks is None else (dsinks,))
    return tuple(x.astype(np.float32) for x in grads)


# Rounding a float64 gradient (within (n + d) 2^-52 M of the exact one) once to float32 errs by
# at most half an ulp of |X| <= M: 1 ulp of M covers both (docs/semantics.md §9.4's contract).
DECLARATION = dict(backward=True, writes_delta=True, grad_accuracy=(1, 0, 0, 0),
                   masks=("none", "causal", "window"), gqa=True, lse_bases=("e",), softcap=True,
                   alibi=True, sinks=True)
FORWARD_ONLY = {"page_layout", "split_invariance", "chunked_prefill", "prefill_decode",
                "cascade"}


def test_float64_gradients_pass_every_law_of_a_backward():
    result = osvs.check_attention(attention_backward, name="numpy.attention_backward",
                                  **DECLARATION)
    assert result.ok, str(result)
    for r in result.laws:
        if r.law in FORWARD_ONLY:
            assert r.status == "skipped", (r.law, r.status)
        else:
            assert r.status == "passed" and r.judged > 0, (r.law, r.status, r.judged)


def test_a_dq_without_the_scale_fails_accuracy_and_replays():
    def unscaled(q, k, v, p):
        return attention_backward(q, k, v, p, scale_dq=False)

    r = failed_law(osvs.check_attention, unscaled, "accuracy",
                   name="numpy.attention_backward.unscaled", **DECLARATION)
    assert "dq[token" in r.reason, r
    assert len(r.case["seqs"]) <= 2 and max(k for _, k in r.case["seqs"]) <= 8, r
    assert "dout" in r.case
    # the file expects the law to hold: the fixed kernel replays as expected, the defect not
    assert osvs.replay(r.regression, attention_backward, **DECLARATION).status == "as_expected"
    assert osvs.replay(r.regression, unscaled, raise_on_failure=False,
                       **DECLARATION).status != "as_expected"


def test_dropping_the_gqa_sum_fails_accuracy_on_dk_or_dv():
    def overwrites(q, k, v, p):
        return attention_backward(q, k, v, p, gqa_sum=False)

    result = osvs.check_attention(overwrites, name="numpy.attention_backward.no_gqa_sum",
                                  laws=["accuracy"], raise_on_failure=False, **DECLARATION)
    failed = [r for r in result.laws if r.status == "failed"]
    assert [r.law for r in failed] == ["accuracy"], str(result)
    assert "dk[token" in failed[0].reason or "dv[token" in failed[0].reason


def test_dsinks_with_its_sign_dropped_fails_accuracy_and_replays():
    def sign_dropped(q, k, v, p):
        return attention_backward(q, k, v, p, dsinks_sign=1.0)

    r = failed_law(osvs.check_attention, sign_dropped, "accuracy",
                   name="numpy.attention_backward.dsinks_sign", **DECLARATION)
    assert "dsinks[head" in r.reason, r
    assert "sinks" in r.case, r.case
    assert osvs.replay(r.regression, attention_backward, **DECLARATION).status == "as_expected"
    assert osvs.replay(r.regression, sign_dropped, raise_on_failure=False,
                       **DECLARATION).status != "as_expected"
