#!/bin/sh
# The Slurm back end of `gpusim sweep` against a real Slurm, not a mock: starts munged, slurmctld
# and slurmd as a one-node cluster on localhost with a private configuration and state under a
# temporary directory (SLURM_CONF points at it; nothing of /etc/slurm, /etc/munge or /run/munge
# is read or changed), runs tb/slurm/sweep10.json (10 jobs) with `--slurm --wait`, checks every
# row is ok and that the table is byte-identical to a local `gpusim sweep` of the same spec
# (statistics are deterministic), then deletes three results and checks that `--slurm --resume
# --wait` submits exactly those three (array index list) and rebuilds the same table. Stops every
# daemon it started, by pid, on any exit.
#
#   sh tb/slurm/slurm_sweep_test.sh GPUSIM SOURCE_DIR
#
# Needs root (the daemons run as root: SlurmUser=root) and the packages slurmctld, slurmd,
# slurm-client and munge (setup.sh installs them). Not root: exit 77, which ctest reports as skipped (a developer
# machine); anything else missing or a daemon that does not come up is a failure (exit 1).
# Known to work with Slurm 22.05 and munge 0.5.15 (Debian 12) without systemd or cgroups.
set -eu

GPUSIM=${1:?usage: slurm_sweep_test.sh GPUSIM SOURCE_DIR}
SRC=${2:?usage: slurm_sweep_test.sh GPUSIM SOURCE_DIR}
SPEC=$SRC/tb/slurm/sweep10.json
NJOBS=10

fail() {
    echo "slurm_sweep_test: FAIL: $*" >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    echo "slurm_sweep_test: SKIP: must run as root to start munged, slurmctld and slurmd (CI runs as root)" >&2
    exit 77
fi
for p in munged slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
    command -v "$p" >/dev/null 2>&1 ||
        fail "$p not found: install the Debian packages slurmctld, slurmd, slurm-client and munge (./setup.sh does)"
done
[ -x "$GPUSIM" ] || fail "$GPUSIM: not an executable"

START=$(date +%s)
elapsed() { echo "$(($(date +%s) - START)) s"; }
T=$(mktemp -d /tmp/gpusim-slurm.XXXXXX)
chmod 0755 "$T"
MUNGE_PID="" CTLD_PID="" SLURMD_PID=""

# Ends a daemon we started and waits for it (TERM, then KILL after 10 s).
stop() {
    [ -n "$1" ] || return 0
    kill -TERM "$1" 2>/dev/null || return 0
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$1" 2>/dev/null || true
}

cleanup() {
    status=$?
    trap - EXIT INT TERM
    set +e
    if [ -n "$CTLD_PID" ] && kill -0 "$CTLD_PID" 2>/dev/null; then
        # Jobs left by a failure end before slurmd does, so no slurmstepd outlives the test.
        scancel --user=root >/dev/null 2>&1
        i=0
        while [ -n "$(squeue --noheader 2>/dev/null)" ] && [ $i -lt 30 ]; do sleep 0.5; i=$((i + 1)); done
    fi
    stop "$SLURMD_PID"
    stop "$CTLD_PID"
    stop "$MUNGE_PID"
    if [ "$status" != 0 ]; then
        for f in "$T"/log/*.log; do
            [ -f "$f" ] || continue
            echo "---- last lines of $f" >&2
            tail -n 15 "$f" >&2
        done
    fi
    rm -rf "$T"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$T/munge" "$T/log" "$T/state" "$T/spool"
chmod 0700 "$T/munge"

# A private munged: its own key and socket; Slurm finds the socket through AuthInfo.
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$T/munge/munge.key"
SOCKET=$T/munge/munge.socket
munged --foreground --force --socket="$SOCKET" --key-file="$T/munge/munge.key" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" --seed-file="$T/munge/munged.seed" \
    >"$T/log/munged.out" 2>&1 &
MUNGE_PID=$!
i=0
until [ -S "$SOCKET" ]; do
    kill -0 "$MUNGE_PID" 2>/dev/null || fail "munged exited: $(cat "$T/log/munged.out")"
    [ $i -lt 100 ] || fail "munged did not create $SOCKET in 10 s"
    sleep 0.1
    i=$((i + 1))
done

HOST=$(hostname -s 2>/dev/null || uname -n | cut -d. -f1)
# The node as this machine is (CPUs, sockets, cores, memory), else slurmd drains it.
NODE=$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*/NodeName=$HOST NodeAddr=127.0.0.1/")
case "$NODE" in NodeName=*CPUs=*) ;; *) fail "slurmd -C printed no node description: $NODE" ;; esac
# Ports of our own, so a system Slurm (or a second run of this test) is not disturbed.
BASE=$((20000 + ($$ % 5000) * 2))
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=gpusimci
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$BASE
SlurmdPort=$((BASE + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
# The main scheduling loop every second (default 60 s), so array tasks start as cores free up.
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
$NODE State=UNKNOWN
PartitionName=ci Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -c -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
slurmd -D -c -f "$SLURM_CONF" >"$T/log/slurmd.out" 2>&1 &
SLURMD_PID=$!
i=0
until [ "$(sinfo --noheader --nodes="$HOST" --format=%t 2>/dev/null)" = idle ]; do
    kill -0 "$CTLD_PID" 2>/dev/null || fail "slurmctld exited: $(tail -n 5 "$T/log/slurmctld.out")"
    kill -0 "$SLURMD_PID" 2>/dev/null || fail "slurmd exited: $(tail -n 5 "$T/log/slurmd.out")"
    [ $i -lt 60 ] || fail "node $HOST not idle after 30 s: $(sinfo --noheader --nodes="$HOST" 2>&1)"
    sleep 0.5
    i=$((i + 1))
done
echo "slurm_sweep_test: one-node Slurm up on $HOST (ports $BASE, $((BASE + 1))) in $T after $(elapsed)"

cd "$T"
# The reference: the same spec run locally.
timeout 60 "$GPUSIM" sweep "$SPEC" -j 2 --out "$T/local" >"$T/local.txt" 2>&1 ||
    fail "local sweep failed: $(cat "$T/local.txt")"

timeout 80 "$GPUSIM" sweep "$SPEC" --slurm --out "$T/slurm" --wait >"$T/slurm.txt" 2>&1 || {
    cat "$T/slurm.txt" >&2
    fail "gpusim sweep --slurm --wait failed"
}
cat "$T/slurm.txt"
echo "slurm_sweep_test: local and Slurm sweeps done after $(elapsed)"
grep -q "^submitted Slurm job [0-9]*: array 0-9 ($NJOBS tasks)" "$T/slurm.txt" || fail "no submission line for array 0-9"
grep -q "^summary: $NJOBS jobs: $NJOBS ok, 0 failed, 0 missing" "$T/slurm.txt" || fail "not every job ok"
[ -x "$T/slurm/slurm/array.sh" ] || fail "no batch script slurm/slurm/array.sh"
# Every job ran as an array task: one task log each, saying ok.
[ "$(cat "$T"/slurm/slurm/*_*.out | grep -c '^ok ')" = $NJOBS ] || fail "not $NJOBS task logs saying ok"
[ "$(wc -l <"$T/slurm/results.csv")" = $((NJOBS + 1)) ] || fail "results.csv has not $NJOBS rows"
cmp "$T/local/results.csv" "$T/slurm/results.csv" || {
    diff "$T/local/results.csv" "$T/slurm/results.csv" >&2
    fail "the Slurm table differs from the local one"
}

# Resume: three results gone (jobs 2, 5 and 6), and only they are submitted again.
for n in 2 5 6; do
    id=$(sed -n "$((n + 2))p" "$T/slurm/results.csv" | cut -d, -f1)
    rm "$T/slurm/jobs/$id.json"
done
timeout 60 "$GPUSIM" sweep "$SPEC" --slurm --out "$T/slurm" --resume --wait >"$T/resume.txt" 2>&1 || {
    cat "$T/resume.txt" >&2
    fail "gpusim sweep --slurm --resume --wait failed"
}
cat "$T/resume.txt"
grep -q "(7 already done, 3 to run)" "$T/resume.txt" || fail "resume did not find 7 done and 3 to run"
grep -q "^submitted Slurm job [0-9]*: array 2,5-6 (3 tasks)" "$T/resume.txt" || fail "resume did not submit array 2,5-6"
cmp "$T/local/results.csv" "$T/slurm/results.csv" || fail "the resumed Slurm table differs from the local one"
echo "slurm_sweep_test: PASS after $(elapsed)"
