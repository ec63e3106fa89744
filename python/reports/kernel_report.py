"""A report of kernels under osvs's laws: each kernel's results (status, reason, shrunk case), the
shrunk cases as regression files, and the provenance of the run (date, commit, machine, library
versions, settings). The drivers numpy_cpu.py, torch_triton_gpu.py (row kernels) and
torch_attention_gpu.py (attention kernels, check=osvs.check_attention) call run().

Writes OUT/report.md, OUT/results.json, OUT/regressions/<kernel>/<law>-<id>.json and, for
kernels with invariances (attention), OUT/certificate.json: the determinism certificate.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

import osvs


def command_output(*cmd) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cuda_machine(torch, **more) -> dict:
    """The provenance of a GPU run through torch (the device, its driver, torch and CUDA), with
    ``more``; exits where torch sees no CUDA device."""
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device: this script checks GPU kernels")
    return {"gpu": torch.cuda.get_device_name(0),
            "driver": command_output("nvidia-smi", "--query-gpu=driver_version",
                                     "--format=csv,noheader"),
            "torch": torch.__version__, "cuda": torch.version.cuda, **more}


def arguments(description: str):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("out", help="folder for report.md, results.json and regressions/")
    p.add_argument("--seed", type=int, default=osvs.DEFAULT_SEED)
    p.add_argument("--max-cases", type=int, default=100)
    p.add_argument("--shrink-seconds", type=float, default=20)
    return p.parse_args()


def certificate_table(certificate: dict) -> list:
    """The markdown lines of one kernel's determinism certificate."""
    lines = [f"Determinism certificate: {'certified' if certificate['passes'] else 'not certified'}",
             "", "| invariance | asks | status | cases | shape classes | minimal case |",
             "| --- | --- | --- | --- | --- | --- |"]
    for i in certificate["invariances"]:
        asks = "the same bits" if i["asks"] == "bitwise" else "the contract"
        lines.append(f"| {i['law']} | {asks} | {i['status']} | {i['cases']} | "
                     f"{i['shape_classes']} | {i['minimal_case']} |")
    return lines + [""]


def run(title: str, kernels, args, machine: dict, check=osvs.check_softmax) -> None:
    """kernels: (name, keywords of `check`); machine: provenance beyond the common."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "osvs_commit": os.environ.get("OSVS_COMMIT") or command_output(
            "git", "rev-parse", "--short", "HEAD"),
        "python": platform.python_version(), "numpy": np.__version__, **machine,
        "seed": args.seed, "max_cases": args.max_cases, "shrink_seconds": args.shrink_seconds}
    results = {"provenance": provenance, "kernels": {}}
    certificates = []  # each kernel's determinism certificate (CheckResult.certificate())
    report = [f"# {title}", "", "```", json.dumps(provenance, indent=1), "```", ""]
    # OSVS_LAWS="cascade,accuracy": those laws alone (a run on the device that adds one law)
    laws = [law for law in os.environ.get("OSVS_LAWS", "").split(",") if law]
    if laws:
        provenance["laws"] = laws
    for name, spec in kernels:
        start = time.time()
        if laws:
            spec = {**spec, "laws": laws}
        try:
            r = check(name=name, seed=args.seed, max_cases=args.max_cases,
                                   shrink_seconds=args.shrink_seconds,
                                   regression_dir=str(out / "regressions"),
                                   raise_on_failure=False, **spec)
        except Exception as e:  # noqa: BLE001 - a kernel that cannot be checked is reported
            report += [f"## {name}", "", f"could not be checked: {e!r}", ""]
            results["kernels"][name] = {"error": repr(e)}
            continue
        seconds = time.time() - start
        accuracy = spec.get("grad_accuracy") if spec.get("backward") else spec.get("accuracy")
        results["kernels"][name] = {
            "seconds": round(seconds, 1), "ok": r.ok,
            "contract": accuracy if isinstance(accuracy, (int, float)) else repr(accuracy),
            "laws": {law.law: {"status": law.status, "reason": law.reason, "judged": law.judged,
                               "regression": law.regression and os.path.relpath(law.regression,
                                                                                out),
                               # (attention: the copies between host and device)
                               **({"transfers": law.transfers} if law.transfers else {})}
                     for law in r.laws}}
        report += [f"## {name} ({seconds:.0f} s, {'passes' if r.ok else 'fails'})", "", "```",
                   str(r).replace(str(out) + os.sep, ""), "```", ""]
        certificate = r.certificate()
        if certificate["invariances"]:
            certificates.append(certificate)
            report += certificate_table(certificate)
        print(r, flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    if certificates:  # what a CI gates on: audit/README.md, "The determinism certificate"
        (out / "certificate.json").write_text(json.dumps(
            {"osvs_determinism_certificate": 1, "provenance": provenance,
             "passes": all(c["passes"] for c in certificates), "kernels": certificates},
            indent=1) + "\n")
    (out / "report.md").write_text("\n".join(report))
    print(f"wrote {out / 'report.md'}, {out / 'results.json'}, {out / 'regressions'}/")
