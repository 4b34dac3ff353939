#!/bin/sh
# verify_bench.sh - what `make bench-verify` runs: git abbrev verify at
# kernel scale, the four rows of docs/benchmark.md "verify", each beside
# the git command that does the nearest work in the same run.
#
# Environment:
#   GIT_ABBREV   the binary to time (src/git-abbrev of the build tree)
#   BENCH_GIT    a git.git clone (work tree or bare)
#   BENCH_SYNTH  a Linux-shaped history with references, made once by
#                  python3 bench/gen_synth.py --objects 10800000 --refs-every 6 --commit-graph DIR
#                (about 1.3M commits, one message in six citing an earlier
#                commit, some wrongly; half an hour on two cores)
#   BENCH_OUT    file the table is appended to (default bench-results.md)
# Prints one markdown row per measurement: wall and CPU seconds (GNU time).
# The subject cache (one file per pack) lives in this run's own directory:
# the first run on each repository starts with it empty ("cold": every
# commit read, the files written), later ones find it filled ("warm").
set -eu
LC_ALL=C
export LC_ALL
tool=${GIT_ABBREV:-src/git-abbrev}
out=${BENCH_OUT:-bench-results.md}
: "${BENCH_GIT:?set BENCH_GIT to a git.git clone}"
: "${BENCH_SYNTH:?set BENCH_SYNTH to a repository made by gen_synth.py --refs-every 6}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GIT_ABBREV_CACHE_DIR=$tmp/cache
export GIT_ABBREV_CACHE_DIR

row() { # LABEL GOAL COMMAND...
	label=$1 goal=$2
	shift 2
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || [ $? -eq 1 ] ||
		{ echo "verify_bench: $label failed: $(cat "$tmp/err")" >&2; exit 1; }
	# GNU time puts "Command exited with non-zero status 1" first
	read -r wall user sys <<EOF
$(tail -n 1 "$tmp/t")
EOF
	printf '| %s | %s | %s | %s |\n' "$label" "$goal" "$wall" \
		"$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}

# the synth's rows depend on a commit-graph file (ancestry): say which it is
sname=$(basename "$BENCH_SYNTH")
for d in "$BENCH_SYNTH/objects" "$BENCH_SYNTH/.git/objects"; do
	[ -d "$d" ] || continue
	if [ -e "$d/info/commit-graph" ] || [ -d "$d/info/commit-graphs" ]; then
		sname="$sname (commit-graph)"
	else
		sname="$sname (no commit-graph)"
	fi
done
# one patch whose Fixes: subject names another commit: the subject search
c=$(git -C "$BENCH_SYNTH" rev-parse HEAD~500000)
s=$(git -C "$BENCH_SYNTH" log -1 --format=%s HEAD~700000)
printf 'Subject: [PATCH] x\n\nFixes: %.12s ("%s")\n' "$c" "$s" >"$tmp/one.patch"
# 400,002 reference lines citing 133,334 of git.git's commits in three forms,
# each with 12 hex chars (%h would give git's shorter default: a short-id
# warning for every reference, and the run would time 200 MB of JSON)
git -C "$BENCH_GIT" log -n 133334 --format='%H%x09%s' --all |
	awk -F '\t' '{ h = substr($1, 1, 12)
		printf "Fixes: %s (\"%s\")\nSee commit %s (\"%s\") for more.\nIn %s (%s, 2020-01-01) we did it.\nPlain prose.\n", h, $2, h, $2, h, $2 }' \
	>"$tmp/400k.txt"

{
	echo
	echo "verify, $(date -u +%Y-%m-%d), $(nproc) CPUs"
	echo
	echo "| run | goal | wall s | CPU s |"
	echo "|---|---|---|---|"
	row "one patch, one wrong subject, $sname, cold cache" "(once a pack)" \
		"$tool" verify -C "$BENCH_SYNTH" --no-progress "$tmp/one.patch"
	row "one patch, one wrong subject, $sname, warm cache" "< 0.5 s" \
		"$tool" verify -C "$BENCH_SYNTH" --no-progress "$tmp/one.patch"
	row "one patch, one wrong subject, $sname, --no-cache" "(as cold)" \
		"$tool" verify -C "$BENCH_SYNTH" --no-progress --no-cache "$tmp/one.patch"
	# what a cold run does at least: every commit's subject read once (git's nearest)
	row "git log --all --format=%s, $sname" "(baseline for cold)" \
		git -C "$BENCH_SYNTH" log --all --format=%s
	row "$(grep -c '[0-9a-f]\{12\}' "$tmp/400k.txt") reference lines, git.git, cold cache" "< 1 s" \
		"$tool" verify -C "$BENCH_GIT" --no-progress --format=json "$tmp/400k.txt"
	row "$(grep -c '[0-9a-f]\{12\}' "$tmp/400k.txt") reference lines, git.git, warm cache" "< 1 s" \
		"$tool" verify -C "$BENCH_GIT" --no-progress --format=json "$tmp/400k.txt"
	row "git log --all --format=%s, git.git" "(baseline for cold)" \
		git -C "$BENCH_GIT" log --all --format=%s
	row "--range=HEAD~1000..HEAD, $sname, warm cache" "< 1 s" \
		"$tool" verify -C "$BENCH_SYNTH" --no-progress --range=HEAD~1000..HEAD
	row "--range=HEAD~1000..HEAD, git.git, warm cache" "< 1 s" \
		"$tool" verify -C "$BENCH_GIT" --no-progress --range=HEAD~1000..HEAD
	row "--range=HEAD, git.git, warm cache" "<= 2x git log" \
		"$tool" verify -C "$BENCH_GIT" --no-progress --range=HEAD
	row "git log --format=%B HEAD, git.git" "(baseline)" \
		git -C "$BENCH_GIT" log --format=%B HEAD
} | tee -a "$out"
