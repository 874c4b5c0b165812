#!/bin/sh
# Runs one libFuzzer target for a bounded time: first every input in the regression folder once
# (each crashed once and must not any more), then fuzzing from a copy of the checked-in seed
# corpus (the checked-in files are never modified). Exit status non-zero on a finding; the input
# that caused it is left in WORKDIR/artifacts/.
#   run_fuzz.sh FUZZER SEED_DIR REGRESSION_DIR SECONDS MAX_LEN WORKDIR
set -eu
fuzzer=$1 seeds=$2 regressions=$3 seconds=$4 maxlen=$5 work=$6
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"
common="-timeout=25 -rss_limit_mb=2048 -max_len=$maxlen -artifact_prefix=$work/artifacts/"
if ls "$regressions"/* >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    "$fuzzer" $common "$regressions"/*
fi
# shellcheck disable=SC2086
if ! "$fuzzer" $common -max_total_time="$seconds" -print_final_stats=1 "$work/corpus"; then
    echo "fuzz: $(basename "$fuzzer") found a crash; the input is in $work/artifacts/." >&2
    echo "fuzz: fix it, then add the input to $regressions/ (replayed by this test and by" >&2
    echo "fuzz: tb/unit/workloads/trace_fuzz_regression_test.cpp)." >&2
    exit 1
fi
