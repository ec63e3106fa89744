"""The NumPy kernels of python/tests (numpy_kernels.py) under every row law on the CPU: the
correct ones pass, each broken one fails with its shrunk case, saved.

    python3 python/reports/numpy_cpu.py OUT [--max-cases 100] [--seed 20261130]
"""

import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import numpy_kernels as k  # noqa: E402
from kernel_report import arguments, command_output, run  # noqa: E402

KERNELS = [
    ("numpy.softmax", dict(fn=k.softmax, accuracy=1, exact_shift_invariant=True)),
    ("numpy.log_softmax", dict(fn=k.log_softmax, log=True, accuracy=1)),
    ("numpy.softmax.float16", dict(fn=k.softmax_float16, dtype="float16", accuracy=1)),
    ("numpy.softmax.bfloat16", dict(fn=k.softmax_bfloat16, dtype="bfloat16", accuracy=1)),
    ("numpy.softmax_without_max", dict(fn=k.softmax_without_max, accuracy=4)),
    ("numpy.softmax_wrong_axis", dict(fn=k.softmax_wrong_axis, accuracy=1)),
    ("numpy.softmax_tail_dropped", dict(fn=k.softmax_tail_dropped, accuracy=1)),
    ("numpy.log_softmax_via_log_of_softmax",
     dict(fn=k.log_softmax_via_log_of_softmax, log=True, accuracy=4)),
]


def main():
    args = arguments(__doc__.splitlines()[0])
    try:
        system = platform.freedesktop_os_release()["PRETTY_NAME"]
    except (OSError, AttributeError, KeyError):
        system = platform.system()
    machine = {"machine": f"{platform.machine()}, {command_output('nproc')} cores, {system}"}
    run("NumPy softmax kernels under osvs (Python bindings, CPU)", KERNELS, args, machine)


if __name__ == "__main__":
    main()
