#!/bin/sh
# t-fds.sh - many packs under a low descriptor limit (ulimit -n 20).
# libgit2 keeps every pack it reads open unless told a limit; the tool
# sets its pack-file limit from RLIMIT_NOFILE, so the libgit2 walker
# counts what git counts instead of failing (or saying "not found").
# The pack walker maps and closes each file, so it needs no limit.
. "$(dirname "$0")/setup.sh"

R=$tmp/repo
git init -q "$R"
git -C "$R" config gc.auto 0
i=0
while [ "$i" -lt 80 ]; do
	echo "blob $i" >"$tmp/f"
	# one pack per object: 80 packs
	git -C "$R" hash-object -w "$tmp/f" |
		git -C "$R" pack-objects -q "$R/.git/objects/pack/pack" >/dev/null
	i=$((i + 1))
done
git -C "$R" prune-packed
checks=$((checks + 1))
[ "$(ls "$R"/.git/objects/pack/*.pack | wc -l)" -eq 80 ] || fail "not 80 packs"
gitn=$(git -C "$R" cat-file --batch-all-objects --batch-check | wc -l | tr -d ' ')
for w in pack libgit2; do
	expect_exit 0 sh -c 'ulimit -n 20 && exec "$@"' sh "$GIT_ABBREV" --walker=$w --format=json "$R"
	[ "$rc" -eq 0 ] || { show "$err"; continue; }
	checks=$((checks + 1))
	grep -q "\"objects\": $gitn," "$out" || fail "--walker=$w under ulimit -n 20: not $gitn objects"
	say "--walker=$w, 80 packs, ulimit -n 20: $gitn objects, as git"
done
finish
