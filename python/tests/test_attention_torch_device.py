"""The device path's torch backend (osvs.TorchDevice) on torch's CPU device, standing in for a GPU:
a torch kernel gets tensors (bfloat16 as torch.bfloat16) and gives the verdicts, shrunk cases
and regression files of the host path, where its ``to_input`` makes the tensors and osvs reads
its outputs through DLPack; the counts of copies say what each path copied. Skipped where torch
is not installed (CI's environment has no torch); test_attention_device.py runs the same path
on a NumPy stand-in everywhere."""

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason="torch is not installed: the torch device backend is tested where it is")

import osvs  # noqa: E402
from test_attention import DECLARATION, attention  # noqa: E402
from test_attention_device import CASES, LAWS, both_paths  # noqa: E402

TYPES = dict(DECLARATION, dtypes=("float32", "bfloat16"))


def to_torch(a: np.ndarray):
    """The host path's to_input: a CPU tensor of the array (bfloat16 from its uint16 bits)."""
    if a.dtype == np.uint16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def torch_attention(q, k, v, p):
    """The float64 reference on the tensors' values, o returned in their type: the same kernel
    on either path."""
    o, lse = attention(*(x.float().numpy() for x in (q, k, v)), p)
    return torch.from_numpy(o).to(q.dtype), torch.from_numpy(lse)


#: The keywords of each path: the host path's to_input, the device path's torch CPU device.
PATHS = dict(host=dict(to_input=to_torch), device=dict(device="cpu"))


def test_torch_tensors_give_the_host_paths_verdicts(tmp_path):
    host, device = both_paths(tmp_path, torch_attention, torch_attention, "torch.attention",
                              laws=LAWS, **PATHS, **TYPES)
    assert host.ok, str(host)
    for h, d in zip(host.laws, device.laws):
        u, t = h.transfers, d.transfers
        assert u["calls"] == t["calls"] > 0
        # the host path copies q, k, v in (to_input) and o, lse out (DLPack) on every call
        assert u["uploads"] == 3 * u["calls"] and u["downloads"] == 2 * u["calls"], u
        assert t["uploads"] + t["inputs_reused"] == 3 * t["calls"], t
        assert t["downloads"] + t["downloads_avoided"] == 2 * t["calls"], t
        # every law but accuracy (one call a case) calls the kernel twice on some inputs
        assert t["copies"] < u["copies"] or h.law == "accuracy", (h.law, u, t)
    t = device["determinism"].transfers
    assert t["downloads_avoided"] >= t["calls"], t  # o and lse of each second call


def test_a_nondeterministic_torch_kernel_fails_alike(tmp_path):
    def flaky():
        calls = [0]

        def fn(q, k, v, p):  # o's first element one ulp up on every other call
            o, lse = torch_attention(q, k, v, p)
            calls[0] += 1
            if calls[0] % 2 == 0 and o.numel():
                o = o.clone()
                first = o.view(-1)[0].float()
                o.view(-1)[0] = torch.nextafter(first, torch.tensor(float("inf"))).to(o.dtype)
            return o, lse
        return fn

    host, _ = both_paths(tmp_path, flaky(), flaky(), "torch.attention_flaky",
                         laws=["determinism"], **PATHS, **TYPES)
    assert host["determinism"].status == "failed", str(host)


def test_problem_arrays_and_inputs_on_the_device():
    seen = []

    def fn(q, k, v, p):
        cu = p.on_device("cu_seqlens_k")
        seen.append((q.dtype, cu.dtype, cu.tolist() == p.cu_seqlens_k.tolist()))
        return torch_attention(q, k, v, p)

    osvs.check_attention(fn, name="torch.attention", device="cpu", laws=["accuracy"],
                         max_cases=5, progress=None, **dict(TYPES, dtypes=("bfloat16",)))
    assert seen and all(s == (torch.bfloat16, torch.int32, True) for s in seen), seen


def test_a_torch_kernel_writing_its_input_fails():
    def writes_k(q, k, v, p):
        out = torch_attention(q, k, v, p)
        k.zero_()
        return out

    result = osvs.check_attention(writes_k, name="torch.attention_writes_k", device="cpu",
                                  laws=["determinism"], raise_on_failure=False, **CASES, **TYPES)
    assert "modified its input arrays (k, on the device)" in result["determinism"].reason


def test_the_round_trip_benchmark_runs_on_the_cpu_device(tmp_path):
    """python/reports/device_round_trip_bench.py's smoke test (--device cpu): both paths agree,
    and the table and its JSON are written."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "reports" / "device_round_trip_bench.py"
    run = subprocess.run([sys.executable, str(script), str(tmp_path), "--device", "cpu",
                          "--backends", "math", "--laws", "determinism", "--max-cases", "5",
                          "--repeats", "1", "--seconds", "120"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    result = json.loads((tmp_path / "device_round_trip.json").read_text())
    assert not result["verdicts_differ"] and not result["errors"], result
    paths = {r["path"]: r for r in result["runs"]}
    assert paths["host"]["status"] == paths["device"]["status"] == "passed", paths
    # determinism calls twice a case: the host path reads o back each time, the device path
    # at most once (the second call's o is found equal on the device)
    assert paths["host"]["downloads_per_case"] == 2 and paths["device"]["downloads_per_case"] <= 1
    assert "| torch.sdpa.math | determinism |" in (tmp_path / "device_round_trip.md").read_text()
