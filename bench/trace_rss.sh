#!/bin/sh
# Host memory of a long Accel-Sim trace run: generates a ~2 GB trace (plain text, in a temporary
# folder that is deleted afterwards), runs it on fermi15 and prints the trace size, simulated
# cycles, warp instructions, host seconds and peak resident memory. The reader keeps only the
# resident CTAs' instructions (workloads/trace/TraceKernel.hpp), so peak memory must stay well
# under 200 MB however long the trace. Figures only; not part of CI (it takes minutes).
#   bench/trace_rss.sh [build-dir] [size-GB]
set -eu
BUILD=${1:-build}
GB=${2:-2}
GPUSIM="$BUILD/gpusim"
[ -x "$GPUSIM" ] || { echo "bench: $GPUSIM not built (run ./setup.sh)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One kernel, blocks of 256 threads (8 warps), 2000 instructions per warp, as many blocks as it
# takes to reach the size: per 16 instructions 12 FFMA, a coalesced load written in mode 0 (every
# address listed, as the tracer writes with compression off: ~640-byte lines, so the file is
# large for its instruction count), the same pattern in mode 2, a coalesced store in mode 1, a
# branch; every block reads and writes its own addresses.
python3 - "$TMP/trace" "$GB" <<'PY'
import os, sys
out, gb = sys.argv[1], float(sys.argv[2])
os.makedirs(out)
target = int(gb * (1 << 30))
warps, per_warp = 8, 2000
deltas = " ".join(["4"] * 31)
def warp_text(cta, w):
    base = 0x10000000 + (cta * warps + w) * 0x40000
    lines = []
    pc = 0
    for i in range(per_warp // 16):
        for k in range(12):
            lines.append("%04x ffffffff 1 R%d FFMA 3 R%d R%d R%d 0 0 " % (pc, 8 + k, 1 + k % 4, 2, 3)); pc += 16
        a = base + i * 128
        lines.append("%04x ffffffff 1 R4 LDG.E 1 R2 4 0 " % pc + "".join("0x%016x " % (a + 4 * l) for l in range(32))
                     + "0 "); pc += 16
        lines.append("%04x ffffffff 1 R5 LDG.E 1 R2 4 2 0x%x %s 0 " % (pc, a + 0x20000, deltas)); pc += 16
        lines.append("%04x ffffffff 0 STG.E 2 R2 R7 4 1 0x%x 4 0 " % (pc, a + 0x30000)); pc += 16
        lines.append("%04x ffffffff 0 BRA 1 R3 0 0 " % pc); pc += 16
    lines[-1] = "%04x ffffffff 0 EXIT 0 0 0 " % (pc - 16)
    return "\nwarp = %d\ninsts = %d\n" % (w, len(lines)) + "\n".join(lines) + "\n"
# Size of one block, to size the grid before writing the header.
sample = "\n#BEGIN_TB\n\nthread block = 0,0,0\n" + "".join(warp_text(0, w) for w in range(warps)) + "#END_TB\n"
ctas = max(1, target // len(sample))
with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
    f.write("-kernel name = rss_bench\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (256,1,1)\n"
            "-shmem = 0\n-nregs = 24\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = bench\n"
            "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n" % ctas)
    for c in range(ctas):
        f.write("\n#BEGIN_TB\n\nthread block = %d,0,0\n" % c)
        for w in range(warps):
            f.write(warp_text(c, w))
        f.write("#END_TB\n")
with open(os.path.join(out, "kernelslist.g"), "w") as f:
    f.write("kernel-1.traceg\n")
PY
SIZE=$(du -m "$TMP/trace/kernel-1.traceg" | cut -f1)
/usr/bin/time -f "%M" -o "$TMP/rss" "$GPUSIM" run --quiet --workload "trace:$TMP/trace" --stats "$TMP/s.json"
python3 - "$TMP/s.json" "$TMP/rss" "$SIZE" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss = int(open(sys.argv[2]).read().split()[-1])
print("%-12s %12s %14s %9s %10s" % ("trace_MiB", "cycles", "warp_insts", "host_s", "peak_MiB"))
print("%-12s %12d %14d %9.1f %10.1f" % (sys.argv[3], s["summary"]["cycles"], s["summary"]["warp_instructions"],
      s["host_seconds"], rss / 1024))
PY
