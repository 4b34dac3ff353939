#!/bin/sh
# t-slurm.sh - contrib/slurm's array job under a real Slurm.
#
# A one-node Slurm cluster from Debian's packages (munge, slurmctld,
# slurmd), configured in the test's temporary directory and run as root:
# munged with its own key, socket, pid and log files there; slurmctld -i
# and slurmd with SLURM_CONF pointing there, ports of their own,
# proctrack/linuxproc, task/none, no accounting; the node says it has 16
# CPUs (config_overrides), so the 16 tasks run at once.  The array job of
# contrib/slurm/git-abbrev-shards.sbatch counts a gen_repo.py repository
# in 16 shards; `git abbrev merge` of its parts must print the very bytes
# of a single `git abbrev report`.  The daemons are stopped by their pid
# files however the test ends.
#
# Skipped, saying why, where Slurm cannot run: not root, or the packages
# are not installed (build.sh installs them).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

[ "$(id -u)" -eq 0 ] || skip "not root: slurmd and munged run as root here"
for c in munged slurmctld slurmd sbatch sinfo squeue; do
	command -v "$c" >/dev/null 2>&1 ||
		skip "$c not installed (Debian packages munge slurmctld slurmd slurm-client)"
done

# stop the daemons by their pid files, newest first, then clean up
stop_daemons() {
	for d in slurmd slurmctld munged; do
		[ -s "$tmp/$d.pid" ] || continue
		pid=$(cat "$tmp/$d.pid")
		kill "$pid" 2>/dev/null || continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null || :
	done
}
# shellcheck disable=SC2154 # st is set inside the trap
trap 'st=$?; stop_daemons; rm -rf "$tmp"; exit $st' EXIT

# show_logs: the daemons' logs, for a failure
show_logs() {
	for f in munged.log slurmctld.log slurmd.log; do
		[ -f "$tmp/$f" ] && { echo "--- $f"; tail -n 20 "$tmp/$f"; }
	done
}

repo=$tmp/planted
gen_repo "$repo" planted
"$GIT_ABBREV" report "$repo" >"$tmp/whole.text" || die "report failed"

# two free ports on the loopback: slurmctld's and slurmd's
ports=$("$PYTHON3" "$tests_dir/free_ports.py" 2)
ctld_port=${ports% *}
d_port=${ports#* }
host=$(hostname -s)

say "munged with its own key and socket"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge.key"
munged --force --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" \
	--seed-file="$tmp/munged.seed" >"$tmp/munged.out" 2>&1 ||
	{ cat "$tmp/munged.out"; show_logs; die "munged did not start"; }

mkdir -p "$tmp/state" "$tmp/spool" "$tmp/jobs"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=gitabbrev
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=16 RealMemory=16384 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$tmp/slurm.conf
export SLURM_CONF

say "slurmctld and slurmd on ports $ctld_port and $d_port"
start=$(date +%s)
slurmctld -i >"$tmp/slurmctld.out" 2>&1 ||
	{ cat "$tmp/slurmctld.out"; show_logs; die "slurmctld did not start"; }
slurmd >"$tmp/slurmd.out" 2>&1 || { cat "$tmp/slurmd.out"; show_logs; die "slurmd did not start"; }
i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; do
	i=$((i + 1))
	[ "$i" -lt 300 ] || { sinfo -N 2>&1; show_logs; die "the node never became idle"; }
	sleep 0.1
done

say "the node is idle after $(($(date +%s) - start)) s; the array job: 16 shards of the repository"
# the tasks get this environment, GIT_ABBREV with it (setup.sh exports
# it), by --export=ALL alone: --export=ALL,VAR=value makes slurmd load
# root's login environment first (`su - root -c env`, SLURM_GET_USER_ENV),
# one su a task, 40 to 90 s of the array's run on a loaded machine
expect_exit 0 sbatch --parsable --array=0-15 --chdir="$tmp" \
	--output="$tmp/jobs/%A_%a.log" --export=ALL \
	"$srcdir/contrib/slurm/git-abbrev-shards.sbatch" "$tmp/parts" report "$repo"
jid=$(cat "$out")
# until no task of the array is queued or running (sbatch --wait polls
# every few seconds, growing), at most 5 minutes
i=0
while [ -n "$(squeue -h -j "$jid" -o '%i' 2>/dev/null)" ]; do
	i=$((i + 1))
	[ "$i" -lt 1500 ] || { squeue 2>&1; show_logs; die "the array job did not end in 5 minutes"; }
	sleep 0.2
done
checks=$((checks + 1))
# finished parts only (part-000 .. part-015), and nothing else left behind
if [ "$(ls "$tmp/parts" 2>/dev/null | grep -c '^part-0[01][0-9]$')" -ne 16 ] ||
	[ "$(ls "$tmp/parts" | wc -l)" -ne 16 ]; then
	fail "not 16 finished parts: $(ls "$tmp/parts" 2>&1 | tr '\n' ' ')"
	cat "$tmp"/jobs/*.log 2>/dev/null | head -n 20
	show_logs
fi
say "Slurm ran the array in $(($(date +%s) - start)) s (daemons' start included)"

say "the parts merged are the single run's report, byte for byte (but its verdict)"
# parts carry counts, not commit dates: a merge ends before the verdict
# the single run closes with (a blank line, then "verdict:" to the end)
awk '/^verdict:/ { exit } { print }' "$tmp/whole.text" | sed '$ { /^$/d; }' >"$tmp/whole.counts"
checks=$((checks + 1))
grep -q '^verdict:' "$tmp/whole.text" || fail "the single run has no verdict to leave out"
expect_exit 0 sh -c '"$2" merge "$1"/part-*' sh "$tmp/parts" "$GIT_ABBREV"
checks=$((checks + 1))
cmp -s "$out" "$tmp/whole.counts" || { fail "merged parts differ"; diff "$tmp/whole.counts" "$out" | head -n 5; }

finish
