#!/usr/bin/env python3
"""Whether every CUDA source of a build compiles to the same device code in two source trees.

Usage: device_code_same.py BUILD OLD_SOURCE [--jobs N] [--keep DIR]
  BUILD       a configured build folder (its compile_commands.json names the sources nvcc builds)
  OLD_SOURCE  another checkout of the tree (e.g. `git worktree add /tmp/old REV`)

Each nvcc command of BUILD is run twice with -ptx instead of -c: as recorded (the build's own
source tree), and with the source tree's path replaced by OLD_SOURCE, in the command and in its
options file (the include folders). The two PTX files are compared by ptx_same.py, function by
function. Prints one line a source and a total; exit 0: every source the same, 1: some differ or
failed to compile, 2: bad use. For when a change touches headers that device code includes and no
GPU is at hand: the same PTX means the GPU results of the old tree stand for the new one's device
code.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_same import functions  # noqa: E402


def nvcc_entries(build):
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    return [e for e in entries if os.path.basename(shlex.split(e["command"])[0]) == "nvcc"]


def source_root(build):
    with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:INTERNAL="):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"device_code_same.py: {build} has no CMakeCache.txt")


def ptx_command(entry, out, root, other_root, scratch):
    """The entry's nvcc command writing PTX to out; with other_root, for the other tree."""
    args = shlex.split(entry["command"])
    result = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-c":
            result.append("-ptx")
        elif a == "-o":
            result += ["-o", out]
            skip = True
        elif a == "--options-file" and other_root:
            rsp = os.path.join(entry["directory"], args[i + 1])
            with open(rsp, encoding="utf-8") as f:
                text = f.read().replace(root, other_root)
            moved = os.path.join(scratch, f"{abs(hash(rsp))}.rsp")
            with open(moved, "w", encoding="utf-8") as f:
                f.write(text)
            result += [a, moved]
            skip = True
        else:
            result.append(a.replace(root, other_root) if other_root else a)
    return result


def compare(entry, root, old_root, scratch):
    name = os.path.relpath(entry["file"], root)
    stem = re.sub(r"[^A-Za-z0-9]", "_", name)
    new_ptx, old_ptx = (os.path.join(scratch, f"{stem}.{w}.ptx") for w in ("new", "old"))
    for out, other in ((new_ptx, None), (old_ptx, old_root)):
        cmd = ptx_command(entry, out, root, other, scratch)
        run = subprocess.run(cmd, cwd=entry["directory"], capture_output=True, text=True)
        if run.returncode != 0:
            which = "this tree" if other is None else old_root
            return name, None, f"nvcc failed in {which}: {run.stderr.strip()[:300]}"
    new_header, new = functions(new_ptx)
    old_header, old = functions(old_ptx)
    differing = sorted(n for n in set(new) | set(old) if new.get(n) != old.get(n))
    if differing or new_header != old_header:
        what = f"{len(differing)} of {len(new)} functions differ"
        return name, False, what + (f" (first: {differing[0][:80]})" if differing else "")
    return name, True, f"{len(new)} functions"


def main():
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    p.add_argument("build")
    p.add_argument("old_source")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--keep", help="write the PTX files here (default: a temporary folder)")
    a = p.parse_args()
    build = os.path.abspath(a.build)
    old_root = os.path.abspath(a.old_source)
    if not os.path.isdir(old_root):
        print(f"device_code_same.py: {old_root} is not a folder", file=sys.stderr)
        return 2
    root = source_root(build)
    entries = nvcc_entries(build)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = a.keep or tmp
        os.makedirs(scratch, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda e: compare(e, root, old_root, scratch), entries))
    functions_total = 0
    failing = 0
    for name, same, what in sorted(results):
        print(f"{'same' if same else 'DIFFERENT' if same is False else 'FAILED'}  {name}: {what}")
        if same:
            functions_total += int(what.split()[0])
        else:
            failing += 1
    print(f"{len(results) - failing} of {len(results)} sources the same device code "
          f"({functions_total} functions)")
    return 0 if failing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
