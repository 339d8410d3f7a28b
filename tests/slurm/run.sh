#!/usr/bin/env bash
# A test of `sslab slurm` against a real SLURM (not a mock): installs Debian's slurm-wlm and
# munge when missing (as root), starts munged, slurmctld and slurmd on localhost with a
# one-node configuration in a temporary folder, submits the generated job array and merge
# job for a small config (with --time, --mem, --sbatch and --setup), waits for them, checks
# that the setup line ran and the merged results equal a local unsharded run (timing
# aside), and stops the daemons it started by their process ids.
# Where it cannot run it prints "SKIPPED ... not passed" and why, and exits 0.
# Usage: tests/slurm/run.sh [path/to/sslab]   (default: $CARGO_TARGET_DIR/release/sslab)
set -euo pipefail

skip() { echo "SKIPPED (not counted as passed): $*"; exit 0; }
fail() { echo "FAILED: $*"; for f in "$T"/*.log "$T"/work/out/*/slurm/*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done; exit 1; }

SSLAB=$(realpath "${1:-${CARGO_TARGET_DIR:-$HOME/.cache/sslab-target}/release/sslab}")
[ -x "$SSLAB" ] || { echo "no sslab binary at $SSLAB (build it first)"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root to install and start slurm-wlm and munge"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || skip "slurm-wlm and munge are missing and there is no apt-get"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -q slurm-wlm munge || { apt-get update -q && apt-get install -y -q slurm-wlm munge; }; } >/dev/null 2>&1 \
        || skip "cannot install slurm-wlm and munge (no package access)"
fi

T=$(mktemp -d /tmp/sslab-slurm.XXXXXX)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$T"
}
trap cleanup EXIT
chmod 700 "$T"

# munge, with its own key and socket in $T.
head -c 1024 /dev/urandom > "$T/munge.key"
chmod 400 "$T/munge.key"
munged --force --foreground --socket="$T/munge.socket" --key-file="$T/munge.key" \
    --pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munged.seed" 2>>"$T/munged.log" &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$T/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge.socket" ] || fail "munged did not start"

HOST=$(hostname -s)
mkdir -p "$T/state" "$T/spool" "$T/work"
cat > "$T/slurm.conf" <<CONF
ClusterName=sslabtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge.socket
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" 2>>"$T/slurmctld.log" &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" 2>>"$T/slurmd.log" &
PIDS+=($!)
for _ in $(seq 60); do [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break; sleep 1; done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] || fail "the node did not become idle: $(sinfo 2>&1)"

cd "$T/work"
cat > c.toml <<'TOML'
[experiment]
name = "slurm-test"
seed = 8
splits = 6

[[datasets]]
name = "small"
kind = "synthetic"
dim = 10
mean_norm = 1.5
labeled_per_class = 4
unlabeled_per_class = 40

[[datasets]]
name = "large"
kind = "synthetic"
dim = 40
mean_norm = 2.0
labeled = 12
unlabeled = 400

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "qlds"
select = "th"
grid = 5
TOML
# The #SBATCH options and a setup line, as a user would pass them (memory: the node has 1 MB).
"$SSLAB" slurm c.toml --shards 3 --cpus 1 --out out --time 0-00:10 --mem 1M \
    --sbatch requeue --sbatch comment=sslab-test --setup 'echo "setup ran on $(hostname -s)"'
submitted=$(bash out/slurm-test/slurm/submit.sh)
echo "$submitted"
squeue -h -o "job %i (%j): %T" | sed 's/^/  /'
merge=$(echo "$submitted" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
for _ in $(seq 300); do
    queue=$(squeue -h -o "%i %T %r" 2>/dev/null)
    [ -z "$queue" ] && break
    echo "$queue" | grep -q DependencyNeverSatisfied && fail "a shard failed, the merge job $merge can never run: $queue"
    sleep 1
done
[ -z "$(squeue -h 2>/dev/null)" ] || fail "jobs still queued after 300 s: $(squeue)"
[ -f out/slurm-test/results.csv ] || fail "the merge job $merge wrote no results.csv"
grep -q "^setup ran on" out/slurm-test/slurm/shard-1.out || fail "the --setup line did not run"
ls out/slurm-test/rows.shard-*-of-3.log >/dev/null

"$SSLAB" run c.toml --out local --quiet >/dev/null
strip() { sed 's/,[^,]*$//' "$1"; }
diff <(strip out/slurm-test/results.csv) <(strip local/slurm-test/results.csv) >/dev/null \
    || fail "merged results differ from the unsharded run"
echo "PASSED: SLURM array of 3 shards + merge job $merge equal the unsharded run ($(($(wc -l < local/slurm-test/results.csv) - 1)) rows)"
