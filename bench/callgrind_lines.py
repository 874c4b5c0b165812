#!/usr/bin/env python3
"""Host instructions per model source line, inlined library code included.

callgrind_annotate charges an inlined std::vector::size() or a ring's push to the library header,
summed over every caller; this charges each instruction to the innermost frame of its inline
chain that lies in the model's own sources (addr2line -i), so the cost lands on the model line
that uses the library code. Figures only (docs/performance.md, issue 19's fifteenth round).

  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \\
      build/gpusim run -q --platform fermi15 --scheduler gto --workload spmv:rows=4096
  bench/callgrind_lines.py cg.out build/gpusim                # the 40 costliest lines
  bench/callgrind_lines.py cg.out build/gpusim --top 100 --innermost stl_vector.h
      # only instructions whose innermost frame is in stl_vector.h, by the model line using them

Self cost only (a call's inclusive cost stays with the callee's own lines).
"""
import argparse
import collections
import os
import re
import subprocess
import sys


def parse_position(token, last):
    if token == "*":
        return last
    if token[0] in "+-":
        step = int(token[1:], 0)
        return last + step if token[0] == "+" else last - step
    return int(token, 0)


def self_costs(path, binary):
    """Address -> self cost of the instructions of `binary` in a --dump-instr=yes profile."""
    objects, cost = {}, collections.Counter()
    target = os.path.realpath(binary)
    current_object, skip_next = None, False
    last_addr = last_line = 0
    with open(path) as f:
        if not any(line.startswith("positions:") and "instr" in line for line in f):
            sys.exit(f"{path}: no per-instruction positions (profile with --dump-instr=yes)")
        f.seek(0)
        for line in f:
            if line.startswith(("ob=", "cob=")):
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m.group(2):
                    objects[m.group(1)] = m.group(2)
                if line.startswith("ob="):
                    name = objects.get(m.group(1))
                    current_object = name is not None and os.path.realpath(name) == target
                continue
            if line.startswith("calls="):
                skip_next = True  # the next line is the call's inclusive cost
                continue
            if not line[:1] or line[0] not in "+-*0123456789":
                continue
            parts = line.split()
            if len(parts) < 3:
                continue
            last_addr = parse_position(parts[0], last_addr)
            last_line = parse_position(parts[1], last_line)
            if skip_next:
                skip_next = False
                continue
            if current_object:
                cost[last_addr] += int(parts[2])
    return cost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", help="callgrind output written with --dump-instr=yes")
    ap.add_argument("binary", help="the profiled executable (with debug information)")
    ap.add_argument("--top", type=int, default=40, help="lines to print (default 40)")
    ap.add_argument("--source-root", default=os.getcwd(),
                    help="frames under this folder are the model's (default: the current folder)")
    ap.add_argument("--innermost", default="",
                    help="only instructions whose innermost frame's file:line contains this text")
    a = ap.parse_args()

    cost = self_costs(a.profile, a.binary)
    addrs = sorted(cost)
    out = subprocess.run(["addr2line", "-a", "-i", "-e", a.binary] + [hex(x) for x in addrs],
                         capture_output=True, text=True, check=True).stdout
    frames, current = {}, None
    for line in out.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
            frames[current] = []
        else:
            frames[current].append(line)
    root = os.path.abspath(a.source_root) + os.sep
    by_line = collections.Counter()
    for addr in addrs:
        chain = frames.get(addr, [])
        if a.innermost and not (chain and a.innermost in chain[0]):
            continue
        own = next((fr for fr in chain if fr.startswith(root) and not (a.innermost and a.innermost in fr)), None)
        by_line[(own or (chain[0] if chain else "?")).replace(root, "")] += cost[addr]
    print(f"{sum(cost.values()):,} self instructions in {a.binary}")
    for where, n in by_line.most_common(a.top):
        print(f"{n:>14,}  {where}")


if __name__ == "__main__":
    main()
