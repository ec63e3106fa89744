"""Cases per second of each attention law on torch's scaled_dot_product_attention at head_dim 128,
under each SDPA backend the GPU offers (the adapters of torch_attention_gpu.py, which hand CUDA
tensors to the kernel and read them back through DLPack; with --device-path, osvs's device path,
``device="cuda"``, and rates.json has each law's copies).

    python3 python/reports/torch_sdpa_law_rate.py OUT [--max-cases 60] [--seed 20261130]
        [--device-path]

Each law runs alone (``laws=[law]``) on a kernel declared with head_dims=(128,), and its rate is
the cases it judged over the wall-clock seconds of that check: generation, the exact oracle (MPFR
where the certified fast path cannot decide), the kernel's launches (one a sequence: the adapter
loops over the varlen batch), the copies and the comparison, all on one CPU thread of the
oracle. A law that fails shrinks its counterexample within the shrinking budget, which the rate
of that law then includes (its row says so). Writes OUT/rates.md and OUT/rates.json.
"""

import json
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, command_output  # noqa: E402
from torch_attention_gpu import device_path_flag, kernels, on_device_path  # noqa: E402

import osvs  # noqa: E402

HEAD_DIM = 128


def main():
    device_path = device_path_flag()
    args = arguments(__doc__.splitlines()[0])
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: this script measures GPU kernels")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    all_sdpa, probed = kernels("sdpa")
    if device_path:
        all_sdpa = on_device_path(all_sdpa)
    # One adapter per backend: its bottom-right variant where it has one (the chunked-prefill and
    # prefill/decode laws need that mask), else the plain one (flash takes no attn_mask).
    names = {n for n, _ in all_sdpa}
    sdpa_kernels = [(n, spec) for n, spec in all_sdpa
                    if n.endswith(".bottom_right") or (n.count(".") == 2
                                                       and n + ".bottom_right" not in names)]
    provenance = {"gpu": torch.cuda.get_device_name(0),
                  "driver": command_output("nvidia-smi", "--query-gpu=driver_version",
                                           "--format=csv,noheader"),
                  "torch": torch.__version__, "cuda": torch.version.cuda,
                  "osvs_commit": os.environ.get("OSVS_COMMIT") or command_output(
                      "git", "rev-parse", "--short", "HEAD"),
                  "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "head_dim": HEAD_DIM, "max_cases": args.max_cases, "seed": args.seed,
                  "shrink_seconds": args.shrink_seconds, "probed": probed,
                  "device_path": device_path}
    rows, results = [], {"provenance": provenance, "kernels": {}}
    for name, spec in sdpa_kernels:
        spec = {**spec, "head_dims": (HEAD_DIM,)}
        results["kernels"][name] = {}
        for law in osvs.attention_laws():
            start = time.perf_counter()
            try:
                r = osvs.check_attention(name=name, laws=[law], seed=args.seed,
                                         max_cases=args.max_cases,
                                         shrink_seconds=args.shrink_seconds,
                                         regression_dir=str(out / "regressions"),
                                         raise_on_failure=False, **spec)
            except Exception as e:  # noqa: BLE001 - reported, the others go on
                results["kernels"][name][law] = {"error": repr(e)}
                rows.append(f"| {name} | {law} | error: {e!r} | | | |")
                continue
            seconds = time.perf_counter() - start
            lr = r[law]
            rate = lr.judged / seconds if seconds > 0 else 0.0
            results["kernels"][name][law] = {"status": lr.status, "judged": lr.judged,
                                             "not_judged": lr.not_judged, "seconds": seconds,
                                             "cases_per_second": rate,
                                             "transfers": lr.transfers}
            rows.append(f"| {name} | {law} | {lr.status} | {lr.judged} | {seconds:.2f} | "
                        f"{rate:.1f} |")
            print(rows[-1], flush=True)
    report = [f"# Cases per second of each attention law: torch SDPA at head_dim {HEAD_DIM}", "",
              "```", json.dumps(provenance, indent=1), "```", "",
              "| kernel | law | status | cases judged | seconds | cases / s |",
              "| --- | --- | --- | --- | --- | --- |", *rows, ""]
    (out / "rates.md").write_text("\n".join(report))
    (out / "rates.json").write_text(json.dumps(results, indent=1))
    print("\n".join(report))


if __name__ == "__main__":
    main()
