#!/bin/sh
# t-readonly.sh - git-abbrev never writes to a repository it reads: every
# subcommand, run in and on a work tree, a bare clone and a worktree,
# leaves every file and directory of them (content, size, mode, mtime:
# a lock file created and removed again changes a directory's mtime)
# exactly as it was.
. "$(dirname "$0")/setup.sh"

gen_repo "$tmp/repo" planted
git clone -q --bare "$tmp/repo" "$tmp/bare.git"
git -C "$tmp/repo" worktree add -q --detach "$tmp/wt" HEAD
# a patch for verify, outside the repositories
head=$(git -C "$tmp/repo" rev-parse HEAD)
printf 'Fixes: %s ("%s")\n' "$(echo "$head" | cut -c1-12)" \
	"$(git -C "$tmp/repo" log -1 --format=%s HEAD)" >"$tmp/patch"

snapshot() { # DIR -> stdout: every entry with its metadata, every file's hash
	(cd "$1" && find . -printf '%p %y %m %s %T@\n' | sort &&
		find . -type f -exec sha256sum {} + | sort)
}

# the commands, one per line; REPO stands for the repository's path (from
# inside, the command runs without it); each must succeed (exit 0, or 1:
# "collisions" or "problems"), or the snapshots prove nothing
commands='report REPO
report --format=json REPO
report --reachable REPO
report --walker=libgit2 REPO
check 7 REPO
check 7 --type=all --against=all --reachable --format=json REPO
model REPO
verify -C REPO PATCH
history REPO
policy REPO'

# CMD... in DIR: exit 0 or 1, else a failed check naming the command
run() { # DIR CMD...
	dir=$1
	shift
	checks=$((checks + 1))
	st=0
	(cd "$dir" && "$GIT_ABBREV" "$@") >/dev/null 2>"$tmp/run.err" </dev/null || st=$?
	[ "$st" -le 1 ] || fail "git abbrev $* (in $dir): exit $st: $(head -n 1 "$tmp/run.err")"
}

for r in "$tmp/repo" "$tmp/bare.git" "$tmp/wt"; do
	snapshot "$tmp/repo" >"$tmp/before.repo"
	snapshot "$tmp/bare.git" >"$tmp/before.bare"
	while read -r cmd; do
		# shellcheck disable=SC2086
		run "$tmp" $(echo "$cmd" | sed "s|REPO|$r|; s|PATCH|$tmp/patch|")
		# and from inside, found as git finds it
		# shellcheck disable=SC2086
		run "$r" $(echo "$cmd" | sed "s|-C REPO||; s| REPO||; s|PATCH|$tmp/patch|")
	done <<EOF
$commands
EOF
	snapshot "$tmp/repo" >"$tmp/after.repo"
	snapshot "$tmp/bare.git" >"$tmp/after.bare"
	checks=$((checks + 1))
	if ! cmp -s "$tmp/before.repo" "$tmp/after.repo"; then
		fail "something changed in the work tree repository (commands on $r)"
		diff "$tmp/before.repo" "$tmp/after.repo" | head -10
	fi
	checks=$((checks + 1))
	if ! cmp -s "$tmp/before.bare" "$tmp/after.bare"; then
		fail "something changed in the bare clone (commands on $r)"
		diff "$tmp/before.bare" "$tmp/after.bare" | head -10
	fi
done
say "ran $(echo "$commands" | wc -l) commands on 3 repositories"

finish
