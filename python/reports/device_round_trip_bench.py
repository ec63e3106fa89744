"""What the host round trip costs the attention laws, and what the device path saves: torch's
scaled_dot_product_attention (bfloat16, head_dim 128) under a few laws, once with the host path
(q, k, v copied to the GPU by ``to_input`` on every call, o read back through DLPack) and once
with ``device="cuda"`` (each distinct input copied once a law, an output read back only where the
GPU finds it differs from an earlier one's bits), on the same seed.

    python3 python/reports/device_round_trip_bench.py OUT [--max-cases 100] [--repeats 3]
        [--seconds 600] [--laws accuracy,determinism,gqa,batch_invariance]
        [--backends flash,math] [--seed 20261130] [--shrink-seconds 5] [--device cuda]

Writes OUT/device_round_trip.md and OUT/device_round_trip.json: for each backend, law and path the
verdict, the cases and their rate, the kernel's calls, the copies and bytes each way per case, the
seconds spent copying (osvs's counters, LawResult.transfers) and their share of the law's wall time,
and the kernel's own share; each law runs ``--repeats`` times on each path (the comparison takes
each path's run of median time; the table lists every run). The kernel synchronises the GPU before
it returns (on both paths), so that a copy's time is the copy's, not the wait for the kernel. Both
paths must give the same verdicts (status, reason, cases, shrunk case): the script says where they
do not and exits with status 1. ``--seconds`` bounds the whole run: a law whose turn comes after it
is spent is listed as not run, and a run past its share of what is left (at least a minute) is
stopped (listed so; the check it stops may leave a regression file whose reason is the
interruption). A run that raises is listed with its error (exit status 1); no law run on both paths,
exit status 3. Without torch or a CUDA device it exits with status 2, saying which. ``--device cpu``
runs the same on torch's CPU device (the math backend): a smoke test of the script where there is no
GPU, whose copies are copies in host memory.
"""

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import osvs  # noqa: E402

HEAD_DIM = 128
DEFAULT_LAWS = "accuracy,determinism,gqa,batch_invariance"
PATHS = ("host", "device")
#: The least time a run may take before it is stopped (its even share of the budget if more;
#: never past the budget): a failing law shrinks its counterexample for --shrink-seconds.
PER_RUN_SECONDS = 60


class TimeUp(BaseException):
    """A run past its time: a BaseException, so that osvs stops the check (python/src/
    py_interrupt.h) instead of counting it as the kernel's failure."""


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="folder for device_round_trip.md and .json")
    p.add_argument("--seed", type=int, default=osvs.DEFAULT_SEED)
    p.add_argument("--max-cases", type=int, default=100, help="cases a law (each path)")
    p.add_argument("--repeats", type=int, default=3, help="runs of each law on each path (the "
                   "comparison takes the median)")
    p.add_argument("--seconds", type=float, default=600, help="the whole run's time budget")
    p.add_argument("--laws", default=DEFAULT_LAWS, help="comma-separated attention laws")
    p.add_argument("--backends", default="flash,math", help="SDPA backends: flash, math, "
                   "efficient, cudnn")
    p.add_argument("--shrink-seconds", type=float, default=5)
    p.add_argument("--device", default="cuda", help="cuda (or cuda:N), or cpu for a smoke test")
    args = p.parse_args()
    if args.repeats < 1 or args.max_cases < 1 or args.seconds <= 0:
        p.error("--repeats and --max-cases at least 1, --seconds positive")
    args.laws = [law for law in args.laws.split(",") if law]
    unknown = sorted(set(args.laws) - set(osvs.attention_laws()))
    if unknown:
        p.error(f"unknown laws {unknown}: {', '.join(osvs.attention_laws())}")
    return args


def torch_or_exit(device: str):
    """torch, and the device's provenance; exits 2 saying what is missing."""
    try:
        import torch
    except ImportError as e:
        print(f"device_round_trip_bench: needs torch ({e})", file=sys.stderr)
        sys.exit(2)
    if device.startswith("cuda") and not torch.cuda.is_available():
        print(f"device_round_trip_bench: torch {torch.__version__} sees no CUDA device",
              file=sys.stderr)
        sys.exit(2)
    from kernel_report import cuda_machine
    machine = cuda_machine(torch) if device.startswith("cuda") else \
        {"gpu": "none (torch's cpu device)", "torch": torch.__version__}
    return torch, machine


def synchronize(torch, device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


class Timed:
    """fn synchronising the device before it returns, with the seconds spent in it summed."""

    def __init__(self, torch, device, fn):
        self.torch, self.device, self.fn, self.seconds = torch, device, fn, 0.0

    def __call__(self, *args):
        start = time.perf_counter()
        out = self.fn(*args)
        synchronize(self.torch, self.device)
        self.seconds += time.perf_counter() - start
        return out


def probe(torch, device, fn, gqa):
    """Whether fn takes a bfloat16 problem of 2 queries and 3 keys at head_dim 128 (with GQA:
    2 query heads on 1 kv head) on the device."""
    p = osvs.AttentionProblem(cu_seqlens_q=np.array([0, 2], np.int32),
                              cu_seqlens_k=np.array([0, 3], np.int32), block_table=None,
                              scale=0.125, softcap=0.0, sinks=None, alibi_slopes=None,
                              mask="none", mask_align="top-left", window=(-1, -1), base="e",
                              page_size=0, heads_q=2, heads_kv=1 if gqa else 2,
                              head_dim_qk=HEAD_DIM, head_dim_v=HEAD_DIM, dtype="bfloat16")
    try:
        q = torch.ones(2, 2, HEAD_DIM, dtype=torch.bfloat16, device=device)
        kv = torch.ones(3, p.heads_kv, HEAD_DIM, dtype=torch.bfloat16, device=device)
        fn(q, kv, kv, p)
        synchronize(torch, device)
        return True
    except Exception as e:  # noqa: BLE001 - the probe's purpose
        print(f"probe{' with GQA' if gqa else ''}: {type(e).__name__}: {e}"[:300], file=sys.stderr)
        return False


def kernels(torch, device, backends):
    """(name, check_attention keywords, Timed kernel) of each SDPA backend asked for and
    offered, at head_dim 128 in bfloat16 (GQA where the probe finds it)."""
    from torch.nn.attention import SDPBackend
    from torch_attention_gpu import CONTRACT, DOMAIN, sdpa
    enums = {"math": SDPBackend.MATH, "flash": SDPBackend.FLASH_ATTENTION,
             "efficient": SDPBackend.EFFICIENT_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
    out = []
    for name in backends:
        if name not in enums:
            sys.exit(f"device_round_trip_bench: unknown backend {name!r}: {', '.join(enums)}")
        fn = sdpa(enums[name])
        gqa = probe(torch, device, fn, gqa=True)
        if not gqa and not probe(torch, device, fn, gqa=False):
            print(f"torch.sdpa.{name}: takes no bfloat16 problem here; left out", file=sys.stderr)
            continue
        timed = Timed(torch, device, fn)
        spec = dict(fn=timed, dtypes=("bfloat16",), gqa=gqa, masks=("none", "causal"),
                    mask_align="top-left", accuracy=CONTRACT, head_dims=(HEAD_DIM,),
                    **DOMAIN[name])
        out.append((f"torch.sdpa.{name}", spec, timed))
    return out


def host_input(torch, device):
    """The host path's to_input (torch_triton_gpu.py's to_cuda on another device): the array
    on the device, the copy finished before it returns."""
    def to_input(a):
        t = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16) if a.dtype == np.uint16 \
            else torch.from_numpy(a)
        t = t.to(device, copy=True)
        synchronize(torch, device)
        return t
    return to_input


def run_one(args, name, spec, timed, law, path, limit, to_input):
    """One law on one path within `limit` seconds: its row of the table."""
    extra = dict(to_input=to_input) if path == "host" else dict(device=args.device)
    timed.seconds = 0.0

    def time_up(signum, frame):
        raise TimeUp()

    signal.signal(signal.SIGALRM, time_up)
    signal.setitimer(signal.ITIMER_REAL, max(limit, 1.0))
    start = time.perf_counter()
    try:
        r = osvs.check_attention(name=name, laws=[law], seed=args.seed, max_cases=args.max_cases,
                                 shrink_seconds=args.shrink_seconds, max_findings=1,
                                 progress=None,
                                 regression_dir=str(Path(args.out) / "regressions" / path),
                                 raise_on_failure=False, **spec, **extra)
    except TimeUp:
        return {"kernel": name, "law": law, "path": path,
                "status": f"stopped after {limit:.0f} s (its share of the budget)"}
    except Exception as e:  # noqa: BLE001 - reported; the others go on
        return {"kernel": name, "law": law, "path": path, "status": f"error: {e!r}"}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.perf_counter() - start
    lr = r[law]
    t = lr.transfers
    cases = lr.judged + lr.not_judged
    per_case = (lambda x: x / cases) if cases else (lambda x: 0.0)
    return {"kernel": name, "law": law, "path": path, "status": lr.status, "reason": lr.reason,
            "judged": lr.judged, "not_judged": lr.not_judged,
            "case": (lr.case or {}).get("summary", ""), "seconds": seconds,
            "cases_per_second": cases / seconds if seconds > 0 else 0.0,
            "kernel_seconds": timed.seconds, "kernel_share": timed.seconds / seconds,
            "calls": t["calls"], "uploads_per_case": per_case(t["uploads"]),
            "upload_bytes_per_case": per_case(t["upload_bytes"]),
            "downloads_per_case": per_case(t["downloads"]),
            "download_bytes_per_case": per_case(t["download_bytes"]),
            "copy_seconds": t["copy_seconds"], "copy_share": t["copy_seconds"] / seconds,
            "transfers": t}


def same_verdict(a, b) -> bool:
    keys = ("status", "reason", "judged", "not_judged", "case")
    return all(a.get(k) == b.get(k) for k in keys)


def table(rows):
    head = ["| kernel | law | path | run | status | cases | s | cases / s | kernel share | calls | "
            "H2D / case | H2D MB / case | D2H / case | D2H MB / case | copy s | copy share |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
            "| --- | --- |"]
    lines = []
    for r in rows:
        if "seconds" not in r:
            lines.append(f"| {r['kernel']} | {r['law']} | {r['path']} | {r.get('repeat', '')} | "
                         f"{r['status']} |" + " |" * 11)
            continue
        mb = 1 / (1 << 20)
        lines.append(
            f"| {r['kernel']} | {r['law']} | {r['path']} | {r.get('repeat', '')} | {r['status']} | "
            f"{r['judged'] + r['not_judged']} | {r['seconds']:.2f} | {r['cases_per_second']:.2f} | "
            f"{r['kernel_share']:.1%} | {r['calls']} | {r['uploads_per_case']:.2f} | "
            f"{r['upload_bytes_per_case'] * mb:.3f} | {r['downloads_per_case']:.2f} | "
            f"{r['download_bytes_per_case'] * mb:.3f} | {r['copy_seconds']:.3f} | "
            f"{r['copy_share']:.1%} |")
    return head + lines


def comparison(pairs):
    """Per (kernel, law): the device path's rate over the host path's, and its copies."""
    lines = ["| kernel | law | same verdicts | cases / s, host -> device | copies / case, "
             "host -> device | copy share, host -> device |",
             "| --- | --- | --- | --- | --- | --- |"]
    for host, device in pairs:
        if "seconds" not in host or "seconds" not in device:
            lines.append(f"| {host['kernel']} | {host['law']} | not both run | | | |")
            continue
        copies = [(r["uploads_per_case"] + r["downloads_per_case"]) for r in (host, device)]
        lines.append(f"| {host['kernel']} | {host['law']} | "
                     f"{'yes' if same_verdict(host, device) else 'NO'} | "
                     f"{host['cases_per_second']:.2f} -> {device['cases_per_second']:.2f} "
                     f"({device['cases_per_second'] / host['cases_per_second']:.2f}x) | "
                     f"{copies[0]:.2f} -> {copies[1]:.2f} | "
                     f"{host['copy_share']:.1%} -> {device['copy_share']:.1%} |")
    return lines


def median_run(runs):
    """The run of median seconds among those that finished, else the first."""
    done = sorted((r for r in runs if "seconds" in r), key=lambda r: r["seconds"])
    return done[(len(done) - 1) // 2] if done else runs[0]


def measure(args, ks, to_input, deadline):
    """Every (kernel, law) on both paths, ``--repeats`` times, the first path alternating so that
    neither always runs with the warmer caches: (every run, (host, device) median run of each
    pair, the pairs whose verdicts differ in some repeat)."""
    rows, pairs, differ = [], [], []
    runs_left = 2 * len(ks) * len(args.laws) * args.repeats
    for name, spec, timed in ks:
        for law in args.laws:
            runs = {path: [] for path in PATHS}
            for rep in range(args.repeats):
                for path in (PATHS if (rep + len(pairs)) % 2 == 0 else PATHS[::-1]):
                    left = deadline - time.monotonic()
                    row = {"kernel": name, "law": law, "path": path,
                           "status": "not run (the budget was spent)"} if left <= 1 else \
                        run_one(args, name, spec, timed, law, path,
                                min(left, max(left / runs_left, PER_RUN_SECONDS)), to_input)
                    runs_left -= 1
                    row["repeat"] = rep
                    runs[path].append(row)
                    rows.append(row)
                    print(table([row])[-1], flush=True)
                host, device = runs["host"][-1], runs["device"][-1]
                if "seconds" in host and "seconds" in device and not same_verdict(host, device):
                    differ.append((name, law, rep))
            pairs.append((median_run(runs["host"]), median_run(runs["device"])))
    return rows, pairs, differ


def main():
    args = arguments()
    torch, machine = torch_or_exit(args.device)
    from kernel_report import command_output
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + args.seconds
    provenance = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "osvs_commit": os.environ.get("OSVS_COMMIT") or command_output(
            "git", "rev-parse", "--short", "HEAD"),
        **machine, "device": args.device, "head_dim": HEAD_DIM, "dtype": "bfloat16",
        "seed": args.seed, "max_cases": args.max_cases, "repeats": args.repeats,
        "shrink_seconds": args.shrink_seconds, "seconds": args.seconds, "laws": args.laws}
    ks = kernels(torch, args.device, [b for b in args.backends.split(",") if b])
    to_input = host_input(torch, args.device)
    rows, pairs, differ = measure(args, ks, to_input, deadline)
    errors = [(r["kernel"], r["law"], r["path"]) for r in rows if r["status"].startswith("error")]
    report = ["# The host round trip of the attention laws: torch SDPA, host path and device "
              "path", "", "```", json.dumps(provenance, indent=1), "```", "",
              "Per case: the cases a law generated (judged and vacuous); H2D / D2H: copies "
              "between host and device (osvs's LawResult.transfers); copy share: their seconds "
              "over the law's wall time; kernel share: the kernel's own seconds (synchronised) "
              "over it. The comparison takes each path's run of median time.", "",
              *comparison(pairs), "", *table(rows), ""]
    if differ:
        report += [f"**The paths' verdicts differ** on {differ}: a defect of the device path.",
                   ""]
    if errors:
        report += [f"**Runs that raised**: {errors} (their errors are in the table).", ""]
    (out / "device_round_trip.md").write_text("\n".join(report))
    (out / "device_round_trip.json").write_text(json.dumps(
        {"provenance": provenance, "runs": rows, "verdicts_differ": differ, "errors": errors},
        indent=1) + "\n")
    print("\n".join(report))
    print(f"wrote {out / 'device_round_trip.md'} and {out / 'device_round_trip.json'}")
    measured = sum("seconds" in h and "seconds" in d for h, d in pairs)
    if not measured:
        print("device_round_trip_bench: no law ran on both paths within the budget "
              "(--seconds)", file=sys.stderr)
    sys.exit(1 if differ or errors else 0 if measured else 3)


if __name__ == "__main__":
    main()
