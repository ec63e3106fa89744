"""torch.softmax (float32, float16, bfloat16), torch.log_softmax and a Triton softmax
(triton_softmax.py) on the GPU under
osvs's row laws, through the Python bindings: the kernels get CUDA tensors (``to_input``) and
return CUDA tensors, read back through DLPack. Writes OUT/report.md, OUT/results.json and the
shrunk cases under OUT/regressions/ (the C++ testbed's format).

    python3 python/gpu/check_torch_triton.py OUT [--max-cases 100] [--seed 20261130]

The contract is the one osvs's cuDNN example declares for a library softmax, 4 ulp (of each
kernel's own type): what a user would expect, not derived; a law that fails is a finding,
printed with its shrunk case.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

import osvs

sys.path.insert(0, str(Path(__file__).resolve().parent))


def to_cuda(x: np.ndarray) -> torch.Tensor:
    """The launch's rows on the GPU; bfloat16 arrives as its bits (uint16)."""
    if x.dtype == np.uint16:
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16).cuda()
    return torch.from_numpy(x).cuda()


def kernels():
    """(name, check keywords): the whole adapter of each kernel."""
    out = [
        ("torch.softmax", dict(fn=lambda x: torch.softmax(x, dim=1))),
        ("torch.log_softmax", dict(fn=lambda x: torch.log_softmax(x, dim=1), log=True)),
        ("torch.softmax.f16", dict(fn=lambda x: torch.softmax(x, dim=1), dtype="float16")),
        ("torch.softmax.bf16", dict(fn=lambda x: torch.softmax(x, dim=1), dtype="bfloat16")),
    ]
    try:
        from triton_softmax import triton_softmax
        out.append(("triton.softmax", dict(fn=triton_softmax, max_cols=1 << 16)))
    except ImportError as e:  # reported, not hidden
        print(f"triton.softmax not run: {e}", file=sys.stderr)
    return out


def provenance(args) -> dict:
    def run(*cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"

    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton_version = "not installed"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "osvs_commit": os.environ.get("OSVS_COMMIT") or run("git", "rev-parse", "--short", "HEAD"),
        "gpu": torch.cuda.get_device_name(0),
        "driver": run("nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"),
        "torch": torch.__version__, "cuda": torch.version.cuda, "triton": triton_version,
        "numpy": np.__version__, "python": platform.python_version(),
        "seed": args.seed, "max_cases": args.max_cases, "shrink_seconds": args.shrink_seconds,
        "contract": "4 ulp (declared, as for cuDNN in examples/cudnn_softmax)",
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--seed", type=int, default=osvs.DEFAULT_SEED)
    p.add_argument("--max-cases", type=int, default=100)
    p.add_argument("--shrink-seconds", type=float, default=20)
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: this script checks GPU kernels")
    results = {"provenance": provenance(args), "kernels": {}}
    report = ["# torch and Triton softmax kernels under osvs (Python bindings, GPU)", "",
              "```", json.dumps(results["provenance"], indent=1), "```", ""]
    for name, spec in kernels():
        start = time.time()
        try:
            r = osvs.check_softmax(name=name, accuracy=4, to_input=to_cuda, seed=args.seed,
                                   max_cases=args.max_cases, shrink_seconds=args.shrink_seconds,
                                   regression_dir=str(out / "regressions"),
                                   raise_on_failure=False, **spec)
        except Exception as e:  # noqa: BLE001 - a kernel that cannot be checked is a finding too
            report += [f"## {name}", "", f"could not be checked: {e!r}", ""]
            results["kernels"][name] = {"error": repr(e)}
            continue
        seconds = time.time() - start
        results["kernels"][name] = {
            "seconds": round(seconds, 1),
            "laws": {l.law: {"status": l.status, "reason": l.reason, "judged": l.judged,
                             "regression": l.regression and os.path.relpath(l.regression, out)}
                     for l in r.laws}}
        report += [f"## {name} ({seconds:.0f} s)", "", "```", str(r), "```", ""]
        print(r, flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    (out / "report.md").write_text("\n".join(report))
    print(f"wrote {out / 'report.md'}, {out / 'results.json'}, {out / 'regressions'}/")


if __name__ == "__main__":
    main()
