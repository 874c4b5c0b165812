#!/bin/sh
# Host memory of trace runs whose warps get longer: generates one Accel-Sim trace (plain text, in
# a temporary folder that is deleted afterwards) at 1x, 10x and 100x instructions per warp with
# the same CTAs, runs each on fermi15 and prints, per length, the trace size, simulated cycles,
# warp instructions, host seconds and peak resident memory, then the 100x / 1x memory ratio.
# The reader holds a window per resident warp (workloads/trace/TraceWarpStream.hpp), so peak
# memory must not grow with the warps' length (docs/performance.md, "Trace memory"). With --xz
# the traces are xz-compressed (then read through a decoded temporary copy). Figures only; not
# part of CI (the 100x run takes minutes).
#   bench/trace_rss.sh [build-dir] [instructions-per-warp at 1x, a multiple of 16] [--xz]
set -eu
BUILD=${1:-build}
BASE=${2:-32}
XZ=${3:-}
GPUSIM="$BUILD/gpusim"
[ -x "$GPUSIM" ] || { echo "bench: $GPUSIM not built (run ./setup.sh)" >&2; exit 2; }
[ $((BASE % 16)) -eq 0 ] && [ "$BASE" -gt 0 ] || { echo "bench: instructions per warp must be a multiple of 16" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One kernel of 120 blocks of 256 threads (8 warps; 75 blocks are resident at once on fermi15),
# N instructions per warp: per 16 instructions 12 FFMA, a coalesced load written in mode 0
# (every address listed, as the tracer writes with compression off), a gather in mode 2 whose
# lanes step by about 4 KiB, not evenly (32 lines per request, every address held), a coalesced store in mode 1, a branch; every block
# reads and writes its own addresses.
gen() {
python3 - "$1" "$2" <<'PY'
import os, sys
out, per_warp = sys.argv[1], int(sys.argv[2])
os.makedirs(out)
warps, ctas = 8, 120
gather = " ".join(["4096" if l % 2 else "4224" for l in range(31)])  # not one step: 32 addresses packed
def warp_text(cta, w, f):
    base = 0x10000000 + (cta * warps + w) * 0x400000
    f.write("\nwarp = %d\ninsts = %d\n" % (w, per_warp))
    pc = 0
    for i in range(per_warp // 16):
        lines = []
        for k in range(12):
            lines.append("%04x ffffffff 1 R%d FFMA 3 R%d R%d R%d 0 0 " % (pc, 8 + k, 1 + k % 4, 2, 3)); pc += 16
        a = base + (i % 256) * 128
        lines.append("%04x ffffffff 1 R4 LDG.E 1 R2 4 0 " % pc + "".join("0x%016x " % (a + 4 * l) for l in range(32))
                     + "0 "); pc += 16
        lines.append("%04x ffffffff 1 R5 LDG.E 1 R2 4 2 0x%x %s 0 " % (pc, a + 0x200000, gather)); pc += 16
        lines.append("%04x ffffffff 0 STG.E 2 R2 R7 4 1 0x%x 4 0 " % (pc, a + 0x300000)); pc += 16
        last = i == per_warp // 16 - 1
        lines.append(("%04x ffffffff 0 EXIT 0 0 0 " if last else "%04x ffffffff 0 BRA 1 R3 0 0 ") % pc); pc += 16
        f.write("\n".join(lines) + "\n")
with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
    f.write("-kernel name = rss_bench\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (256,1,1)\n"
            "-shmem = 0\n-nregs = 24\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = bench\n"
            "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n" % ctas)
    for c in range(ctas):
        f.write("\n#BEGIN_TB\n\nthread block = %d,0,0\n" % c)
        for w in range(warps):
            warp_text(c, w, f)
        f.write("#END_TB\n")
with open(os.path.join(out, "kernelslist.g"), "w") as f:
    f.write("kernel-1.traceg\n")
PY
}

printf "%-8s %10s %10s %12s %9s %10s\n" "length" "trace_MiB" "cycles" "warp_insts" "host_s" "peak_MiB"
for MUL in 1 10 100; do
    DIR="$TMP/trace$MUL"
    gen "$DIR" $((BASE * MUL))
    SIZE=$(du -m "$DIR/kernel-1.traceg" | cut -f1)
    if [ "$XZ" = "--xz" ]; then
        xz -1 -T1 "$DIR/kernel-1.traceg"
        echo "kernel-1.traceg.xz" > "$DIR/kernelslist.g"
    fi
    /usr/bin/time -f "%M" -o "$TMP/rss$MUL" "$GPUSIM" run --quiet --workload "trace:$DIR" --stats "$TMP/s$MUL.json"
    rm -rf "$DIR"
    python3 - "$TMP/s$MUL.json" "$TMP/rss$MUL" "$SIZE" "${MUL}x" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss = int(open(sys.argv[2]).read().split()[-1])
print("%-8s %10s %10d %12d %9.1f %10.1f" % (sys.argv[4], sys.argv[3], s["summary"]["cycles"],
      s["summary"]["warp_instructions"], s["host_seconds"], rss / 1024))
PY
done
python3 - "$TMP/rss1" "$TMP/rss100" <<'PY'
import sys
a, b = (int(open(p).read().split()[-1]) for p in sys.argv[1:3])
print("peak memory 100x / 1x: %.2f" % (b / a))
PY
