#!/usr/bin/env python3
"""Whether two PTX files of one CUDA source hold the same device code.

Usage: ptx_same.py NEW.ptx OLD.ptx   (exit 0: the same; 1: a function differs; 2: bad use)

Compiling a source with nvcc's -ptx at two commits (or from two checkouts) gives texts that differ
where nothing of the code does: the hash nvcc puts in anonymous-namespace and internal names
(it depends on the file's path), the numbering of a function's labels and local depot (they
follow the function's position in the file), and the `// .globl` comments. This script removes
those, splits the file into its functions (`.entry` / `.func`) and compares them by mangled name,
so that a change that only moves or regroups instantiations reads as the same code.
"""
import re
import sys


def functions(path):
    text = open(path, encoding="utf-8").read()
    # The per-compilation number in these names can gain or lose a digit, and with it the
    # length prefix of the mangled name changes: both are left out.
    text = re.sub(r"\d*(_GLOBAL__N__|_INTERNAL_)[0-9a-f]{8}", r"N\1X", text)
    text = re.sub(r"_cu_[0-9a-f]{8}_\d+", "_cu_H", text)
    text = re.sub(r"(?m)^\t// \.globl.*\n", "", text)
    text = re.sub(r"__local_depot\d+", "__local_depotN", text)
    text = re.sub(r"\$L__BB\d+_", "$L__BBN_", text)
    text = re.sub(r"\$L__func_begin\d+", "$L__func_beginN", text)
    parts = re.split(r"(?m)^(?=(?:\.visible |\.weak |\.extern )?(?:\.entry|\.func) )", text)
    named = {}
    for part in parts[1:]:
        name = re.search(r"(_Z\w+)\(", part)
        named[name.group(1) if name else part[:60]] = part
    return parts[0], named


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    new_header, new = functions(sys.argv[1])
    old_header, old = functions(sys.argv[2])
    differing = sorted(n for n in set(new) | set(old) if new.get(n) != old.get(n))
    same = not differing and new_header == old_header
    print(f"{'same' if same else 'different'}: {len(new)} functions"
          + (f", {len(differing)} differ (first: {differing[0][:100]})" if differing else "")
          + ("" if new_header == old_header else ", the module headers differ"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
