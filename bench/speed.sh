#!/bin/sh
# Simulation speed and peak memory of a few fixed runs: prints one line per case with simulated
# core cycles, host seconds, simulated cycles per host second and peak resident memory.
# Figures only: nothing here passes or fails. Usage: bench/speed.sh [build-dir]
set -eu
BUILD=${1:-build}
GPUSIM="$BUILD/gpusim"
[ -x "$GPUSIM" ] || { echo "bench: $GPUSIM not built (run ./setup.sh)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf "%-44s %12s %9s %14s %10s\n" case cycles host_s cycles_per_s peak_MiB
for case in "fermi15 gto atax:n=1024" "fermi15 lrr atax:n=1024" "fermi15 gto vectoradd:n=1048576"; do
    set -- $case
    /usr/bin/time -f "%M" -o "$TMP/rss" "$GPUSIM" run --quiet --platform "$1" --scheduler "$2" \
        --workload "$3" --stats "$TMP/s.json"
    python3 - "$TMP/s.json" "$TMP/rss" "$case" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss = int(open(sys.argv[2]).read().split()[-1])
print("%-44s %12d %9.2f %14.0f %10.1f" % (sys.argv[3], s["summary"]["cycles"], s["host_seconds"],
      s["sim_rate_cycles_per_second"], rss / 1024))
PY
done
