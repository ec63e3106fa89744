"""Kernels under test written in NumPy: correct ones, and broken ones that osvs must catch.

Each broken kernel is a one-line change of a correct one, a bug seen in real softmax code.
"""

import numpy as np


def _shifted_exp(x64):
    """exp(x - max) per row in float64; the max of an empty row is -inf."""
    return np.exp(x64 - np.max(x64, axis=1, keepdims=True, initial=-np.inf))


def softmax(x):
    """Correct: in float64 (the sum's relative error n 2^-53 is far below a float ulp), one rounding
    to float32 at the end: within 1 ulp of the exact softmax."""
    with np.errstate(all="ignore"):
        e = _shifted_exp(x.astype(np.float64))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def log_softmax(x):
    """Correct: x - m - log1p(r) in float64, r the sum of exp(x - m) over all but one maximal
    element (which contributes exactly 1), one rounding to float32. The textbook
    x - m - log(sum exp(x - m)) is not within 1 ulp: for x = [-279.2, -300] the output is
    -7.6e-10, and log of the rounded sum 1 + 7.6e-10 is off by 1.7 ulp of it (osvs's first
    finding on this file, shrunk to those two elements)."""
    if x.shape[1] == 0:
        return np.empty(x.shape, np.float32)
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        m = np.max(x64, axis=1, keepdims=True)
        one_max = np.arange(x.shape[1]) == np.argmax(x64, axis=1)[:, None]
        rest = np.where(one_max, 0.0, np.exp(x64 - m)).sum(axis=1, keepdims=True)
        return (x64 - m - np.log1p(rest)).astype(np.float32)


def softmax_without_max(x):
    """Broken: no max subtraction, exp overflows to inf for x > 88.7 and inf / inf is NaN."""
    with np.errstate(all="ignore"):
        e = np.exp(x.astype(np.float64)).astype(np.float32)
        return e / e.sum(axis=1, keepdims=True)


def softmax_wrong_axis(x):
    """Broken: the normaliser sums over the batch (axis 0) instead of the row: each output is its
    share of its column (1 in a batch of one row), and a row's outputs change with the batch."""
    with np.errstate(all="ignore"):
        e = _shifted_exp(x.astype(np.float64))
        return (e / e.sum(axis=0, keepdims=True)).astype(np.float32)


def softmax_tail_dropped(x):
    """Broken: works in vectors of 4 and forgets the tail: the last cols % 4 elements of a row are
    neither summed nor written (left 0)."""
    with np.errstate(all="ignore"):
        body = x.shape[1] // 4 * 4
        e = _shifted_exp(x[:, :body].astype(np.float64))
        y = np.zeros(x.shape, np.float32)
        y[:, :body] = e / e.sum(axis=1, keepdims=True)
        return y


def log_softmax_via_log_of_softmax(x):
    """Broken: log(softmax(x)) in float32: a probability that underflows to 0 gives -inf where
    the log-softmax is finite (x = [0, -200]: -200)."""
    with np.errstate(all="ignore"):
        return np.log(softmax(x))


def merge(o_a, lse_a, o_b, lse_b, base="e"):
    """Correct merge of attention partials (lse base e or 2), in float64 with one rounding: an empty
    partial (lse -inf) is skipped whatever its o holds, two empty ones give (-inf, 0), a NaN or
    +inf lse gives the canonical NaN row (docs/semantics.md section 8)."""
    with np.errstate(all="ignore"):
        a_empty, b_empty = np.isneginf(lse_a), np.isneginf(lse_b)
        la, lb = lse_a.astype(np.float64), lse_b.astype(np.float64)
        exp, log = (np.exp2, np.log2) if base == "2" else (np.exp, np.log)
        m = np.maximum(la, lb)
        wa, wb = exp(la - m), exp(lb - m)
        lse = m + log(wa + wb)
        o = (o_a * (wa / (wa + wb))[:, None] + o_b * (wb / (wa + wb))[:, None])
        o = np.where(b_empty[:, None], o_a, np.where(a_empty[:, None], o_b, o))
        lse = np.where(b_empty, lse_a, np.where(a_empty, lse_b, lse))
        o = np.where((a_empty & b_empty)[:, None], 0.0, o)
        # a NaN or +inf lse: the canonical NaN row (0x7fc00000; x86's inf - inf is 0xffc00000)
        bad = np.isnan(lse_a) | np.isnan(lse_b) | np.isposinf(lse_a) | np.isposinf(lse_b)
        o = np.where(bad[:, None] | np.isnan(o), np.nan, o)
        lse = np.where(bad, np.nan, lse)
        return o.astype(np.float32), lse.astype(np.float32)


def merge_dropping_smaller(o_a, lse_a, o_b, lse_b):
    """Broken: keeps the partial with the larger lse and drops the other's mass from o."""
    o, lse = merge(o_a, lse_a, o_b, lse_b)
    keep_a = (lse_a >= lse_b)[:, None]
    return np.where(keep_a, o_a, o_b).astype(np.float32), lse


def softmax_float16(x):
    """Correct for float16 rows: in float64, one rounding to float16 (within 1 ulp of it)."""
    with np.errstate(all="ignore"):
        e = _shifted_exp(x.astype(np.float64))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float16)


def bfloat16_to_float32(bits):
    """bfloat16 bits (uint16) to float32, exactly."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def float32_to_bfloat16(y):
    """float32 to bfloat16 bits, rounded to nearest even (NaN kept NaN)."""
    u = np.ascontiguousarray(y, np.float32).view(np.uint32)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return np.where(np.isnan(y), 0x7FC0, rounded).astype(np.uint16)


def softmax_bfloat16(x):
    """Correct for bfloat16 rows (uint16 bits): in float64, rounded to float32 and then to
    bfloat16; the double rounding stays within 1 ulp of bfloat16."""
    with np.errstate(all="ignore"):
        e = _shifted_exp(bfloat16_to_float32(x).astype(np.float64))
        return float32_to_bfloat16((e / e.sum(axis=1, keepdims=True)).astype(np.float32))
