"""torch.softmax (float32, float16, bfloat16), torch.log_softmax and a Triton softmax of our own
(triton_softmax.py) on the GPU under osvs's row laws, through the Python bindings: the kernels
get CUDA tensors (``to_input``) and return CUDA tensors, read back through DLPack.

    python3 python/reports/torch_triton_gpu.py OUT [--max-cases 100] [--seed 20261130]
    python3 python/reports/torch_triton_gpu.py --replay DIR   # each saved case fails again

The contract is the one osvs's cuDNN example declares for a library softmax, 4 ulp of each
kernel's own type: what a user would expect, not derived; a law that fails is a finding,
printed and saved with its shrunk case.
"""

import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_report import arguments, cuda_machine, run  # noqa: E402


def to_cuda(x: np.ndarray) -> torch.Tensor:
    """The launch's rows on the GPU; bfloat16 arrives as its bits (uint16)."""
    if x.dtype == np.uint16:
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16).cuda()
    return torch.from_numpy(x).cuda()


def kernels():
    """(name, check keywords): the whole adapter of each kernel."""
    common = dict(accuracy=4, to_input=to_cuda)
    softmax = lambda x: torch.softmax(x, dim=1)  # noqa: E731
    out = [("torch.softmax", dict(fn=softmax, **common)),
           ("torch.log_softmax", dict(fn=lambda x: torch.log_softmax(x, dim=1), log=True,
                                      **common)),
           ("torch.softmax.f16", dict(fn=softmax, dtype="float16", **common)),
           ("torch.softmax.bf16", dict(fn=softmax, dtype="bfloat16", **common))]
    try:
        from triton_softmax import triton_softmax
        out.append(("triton.softmax", dict(fn=triton_softmax, max_cols=1 << 16, **common)))
    except ImportError as e:  # reported, not hidden
        print(f"triton.softmax not run: {e}", file=sys.stderr)
    return out


def replay_all(folder: Path) -> int:
    """Replays every regression file under folder/<kernel>/ on that kernel (the same adapter as
    the run that saved it). A saved case expects its law to hold (it guards the fix), so on the
    unfixed kernel it must fail again, the same way: that is what reproduces the finding. Returns
    the number of cases that did not fail again."""
    import osvs
    not_reproduced = 0
    for name, kw in kernels():
        fn = kw.pop("fn")
        for path in sorted((folder / name).glob("*.json")):
            result = osvs.replay(path, fn, raise_on_failure=False, name=name, **kw)
            again = result.expect_holds and result.status == "mismatch"
            print(f"{'reproduced' if again else 'NOT REPRODUCED'} {path.relative_to(folder)}: "
                  f"{result.status}: {result.problem}")
            not_reproduced += 0 if again else 1
    return not_reproduced


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--replay":
        if not torch.cuda.is_available():
            sys.exit("no CUDA device: these cases replay on GPU kernels")
        sys.exit(1 if replay_all(Path(sys.argv[2])) else 0)
    args = arguments(__doc__.splitlines()[0])
    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton_version = "not installed"
    machine = cuda_machine(torch, triton=triton_version,
                           contract="4 ulp of the kernel's type (declared, as for cuDNN in "
                                    "examples/cudnn_softmax)")
    run("torch and Triton softmax kernels under osvs (Python bindings, GPU)", kernels(), args,
        machine)


if __name__ == "__main__":
    main()
