"""The device path of check_attention (``device=``, python/osvs/_device_session.py): the same
seed gives the same verdicts, shrunk cases and regression files as the host path, with fewer
copies between host and device, counted in each law's ``transfers``. Runs on a NumPy stand-in
for a device (fake_device.py) everywhere, and on torch's CPU device where torch is installed
(skipped, saying so, where it is not)."""

import json
from pathlib import Path

import numpy as np
import pytest

import osvs
from fake_device import FakeDevice, OnFake
from test_attention import DECLARATION, attention
from test_attention_backward import DECLARATION as BACKWARD
from test_attention_backward import attention_backward

FAKE = FakeDevice()
# Few cases: each law runs twice (host and device path) on a float64 reference in Python loops.
CASES = dict(max_cases=15, max_findings=1, progress=None)
# Laws whose calls share inputs (determinism's two calls; poison's, gqa's, page_layout's and
# split_invariance's share q) and one that shares none (accuracy).
LAWS = ["accuracy", "determinism", "poison", "gqa", "page_layout", "split_invariance"]


def on_fake(kernel):
    """kernel (NumPy arrays in and out) as a kernel of the fake device."""
    def fn(q, k, v, p):
        return FAKE.wrap(kernel(q.array, k.array, v.array, p))
    return fn


def regression_files(folder: Path) -> dict:
    """Each regression file under folder, by its path there (named by its case's hash), with
    its provenance (the date it was found) left out."""
    files = {}
    for path in sorted(folder.rglob("*.json")):
        record = json.loads(path.read_text())
        record.pop("found", None)
        files[str(path.relative_to(folder))] = record
    return files


def same_verdicts(host, device):
    """Every law's verdict, its counts and its shrunk case are the same on both paths."""
    assert [r.law for r in host.laws] == [r.law for r in device.laws]
    for a, b in zip(host.laws, device.laws):
        for field in ("status", "reason", "judged", "not_judged", "shrink_steps", "kind", "asks",
                      "shape_classes"):
            assert getattr(a, field) == getattr(b, field), (a.law, field, a, b)
        assert repr(a.case) == repr(b.case), a.law
        assert (a.regression is None) == (b.regression is None), a.law


def both_paths(tmp_path, host_fn, device_fn, name, host=None, device=None, **declaration):
    """(host result, device result) of one check with the same seed, each saving its cases in a
    folder of its own; their verdicts and regression files are asserted to be the same.
    ``host`` and ``device``: the keywords of each path (default: none; device=FAKE)."""
    results = []
    for path, fn, extra in (("host", host_fn, host or {}),
                            ("device", device_fn, device or dict(device=FAKE))):
        results.append(osvs.check_attention(fn, name=name, regression_dir=str(tmp_path / path),
                                            raise_on_failure=False, **CASES, **declaration,
                                            **extra))
    same_verdicts(*results)
    assert regression_files(tmp_path / "host") == regression_files(tmp_path / "device")
    return results


def nondeterministic(kernel):
    """kernel with its first o element one ulp up on every other call: determinism fails."""
    calls = [0]

    def fn(q, k, v, p):
        o, lse = kernel(q, k, v, p)
        calls[0] += 1
        if calls[0] % 2 == 0 and o.size:
            o = o.copy()
            o.flat[0] = np.nextafter(o.flat[0], np.float32(np.inf))
        return o, lse
    return fn


def test_a_correct_kernel_passes_with_the_same_verdicts(tmp_path):
    host, device = both_paths(tmp_path, attention, on_fake(attention),
                              "numpy.attention", laws=LAWS, **DECLARATION)
    assert host.ok and all(r.judged > 0 for r in host.laws), str(host)
    for h, d in zip(host.laws, device.laws):
        t, u = d.transfers, h.transfers
        assert u["mode"] == "host" and t["mode"] == "device"
        assert t["calls"] == u["calls"] > 0, h.law
        # the host path without to_input copies nothing; every device input is either copied
        # there or found there, every output downloaded or found equal to one downloaded
        assert u["copies"] == 0, u
        assert t["uploads"] + t["inputs_reused"] == 3 * t["calls"], (h.law, t)
        assert t["downloads"] + t["downloads_avoided"] == 2 * t["calls"], (h.law, t)
        assert t["flag_reads"] == t["calls"], t


def test_determinism_uploads_and_downloads_each_case_once(tmp_path):
    # Its second call of each case has the first's inputs and, from a deterministic kernel, its
    # outputs: q, k, v are found on the device and o, lse found equal there.
    result = osvs.check_attention(on_fake(attention), name="numpy.attention", device=FAKE,
                                  laws=["determinism"], regression_dir=str(tmp_path), **CASES,
                                  **DECLARATION)
    r = result["determinism"]
    t = r.transfers
    assert r.status == "passed" and t["calls"] == 2 * r.judged, (r, t)
    assert t["uploads"] <= 3 * r.judged and t["inputs_reused"] >= 3 * r.judged, t
    assert t["downloads"] <= 2 * r.judged and t["downloads_avoided"] >= 2 * r.judged, t
    assert t["avoided_bytes"] > 0 and t["reused_bytes"] > 0


def test_failures_shrink_to_the_same_cases_and_files(tmp_path):
    def unmasked(q, k, v, p):
        return attention(q, k, v, p, honour_mask=False)

    flaky = nondeterministic(attention)
    flaky_on_fake = nondeterministic(attention)
    host, device = both_paths(tmp_path / "flaky", flaky, on_fake(flaky_on_fake),
                              "numpy.attention_flaky", laws=["determinism"], **DECLARATION)
    assert host["determinism"].status == "failed", str(host)
    # the device found the two calls' o different, and downloaded it
    assert device["determinism"].transfers["downloads"] > 0
    host, device = both_paths(tmp_path / "unmasked", unmasked, on_fake(unmasked),
                              "numpy.attention_unmasked", laws=["accuracy"], **DECLARATION)
    assert host["accuracy"].status == "failed" and host["accuracy"].regression, str(host)


def test_a_kernel_writing_its_input_on_the_device_fails():
    def writes_q(q, k, v, p):
        out = on_fake(attention)(q, k, v, p)
        q.array[...] = 0
        return out

    result = osvs.check_attention(writes_q, name="numpy.attention_writes_q", device=FAKE,
                                  laws=["determinism"], raise_on_failure=False, **CASES,
                                  **DECLARATION)
    assert "modified its input arrays (q, on the device)" in result["determinism"].reason


def test_an_output_of_another_shape_is_named_as_on_the_host_path():
    def wrong_shape(q, k, v, p):
        o, lse = attention(q.array, k.array, v.array, p)
        return OnFake(o[:, :1]), OnFake(lse)

    result = osvs.check_attention(wrong_shape, name="numpy.attention_wrong_shape", device=FAKE,
                                  laws=["accuracy"], raise_on_failure=False, **CASES,
                                  **DECLARATION)
    assert "the kernel's o: shape" in result["accuracy"].reason, result


def test_a_backward_kernel_gives_the_same_verdicts(tmp_path):
    def on_device(q, k, v, p):
        import dataclasses
        host = dataclasses.replace(p, dout=p.dout.array, o=p.o.array)
        return FAKE.wrap(attention_backward(q.array, k.array, v.array, host))

    host, device = both_paths(tmp_path, attention_backward, on_device,
                              "numpy.attention_backward", laws=["accuracy", "determinism"],
                              **BACKWARD)
    assert host.ok, str(host)
    t = device["determinism"].transfers
    # q, k, v, dout and o: each second call finds all five on the device
    assert t["uploads"] + t["inputs_reused"] == 5 * t["calls"], t
    assert t["inputs_reused"] >= 5 * t["calls"] // 2, t


def test_problem_arrays_on_the_device():
    seen = []

    def fn(q, k, v, p):
        cu = p.on_device("cu_seqlens_q")
        seen.append((cu.array.tolist(), p.cu_seqlens_q.tolist(), p.on_device("sinks")))
        return on_fake(attention)(q, k, v, p)

    osvs.check_attention(fn, name="numpy.attention", device=FAKE, laws=["accuracy"],
                         max_cases=3, progress=None, **dict(DECLARATION, sinks=False))
    assert seen and all(a == b and sinks is None for a, b, sinks in seen), seen
    # without device=, asking is the kernel's error, which the law reports
    result = osvs.check_attention(lambda q, k, v, p: p.on_device("cu_seqlens_q"),
                                  name="numpy.asks_for_a_device", laws=["accuracy"],
                                  raise_on_failure=False, **CASES, **DECLARATION)
    assert "no device=" in result["accuracy"].reason, result


def test_a_device_that_cannot_be_used_is_named_before_any_case():
    try:
        import torch
        cuda = torch.cuda.is_available()
    except ImportError:
        torch, cuda = None, False
    if cuda:
        pytest.skip("this machine has a CUDA device: nothing unavailable to name")
    with pytest.raises(osvs.DeviceUnavailable, match="PyTorch" if torch is None else "CUDA"):
        osvs.check_attention(attention, name="numpy.attention", device="cuda", progress=None,
                             **DECLARATION)
    with pytest.raises(ValueError, match="to_input and device"):
        osvs.check_attention(attention, name="numpy.attention", device=FAKE,
                             to_input=np.asarray, progress=None, **DECLARATION)
    with pytest.raises(TypeError, match="missing"):
        osvs.check_attention(attention, name="numpy.attention", device=object(), progress=None,
                             **DECLARATION)
