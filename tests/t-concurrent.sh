#!/bin/sh
# t-concurrent.sh - the repository is repacked while the report runs.
# In the background, for a bounded time, objects go loose, get packed
# into a new pack (git repack -ad, old packs deleted) and the loose copies
# are pruned, in a loop; the set of objects never changes.  Every report
# must either give the full, correct count or fail cleanly saying the
# repository changed: never a crash, never a silently short count.
. "$(dirname "$0")/setup.sh"

R=$tmp/repo
gen_repo "$R" planted
# only reachable objects, so that repack -ad keeps every one of them
git -C "$R" reflog expire --expire=now --all
git -C "$R" gc -q --prune=now
git -C "$R" cat-file --batch-all-objects --batch-check='%(objectname)' >"$tmp/ids"
want=$(wc -l <"$tmp/ids" | tr -d ' ')
# loose copies of every object, to put back before each repack
git init -q --bare "$tmp/loose"
for p in "$R"/.git/objects/pack/pack-*.pack; do
	git -C "$tmp/loose" unpack-objects -q <"$p"
done
# the repository itself must never be without an object: link the loose
# files in (objects now loose and packed; a hard link appears whole, as
# git's own write-and-rename does), repack them into a new pack, then
# drop the loose copies
churn() {
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		cp -Rl "$tmp/loose/objects/"?? "$R/.git/objects/"
		git -C "$R" repack -adq
		git -C "$R" prune-packed
	done
}
churn 8 &
churner=$!

runs=0 changed=0
while kill -0 "$churner" 2>/dev/null; do
	runs=$((runs + 1))
	if "$GIT_ABBREV" --format=json "$R" >"$tmp/out" 2>"$tmp/err"; then
		got=$(jget "$tmp/out" 'd["objects"]')
		checks=$((checks + 1))
		[ "$got" = "$want" ] || fail "run $runs: $got objects, want $want"
	else
		rc=$?
		checks=$((checks + 1))
		if [ "$rc" -ne 3 ] || ! one_line "$tmp/err" || [ -s "$tmp/out" ] ||
		   ! grep -q "changing during the walk" "$tmp/err"; then
			fail "run $runs: exit $rc: $(cat "$tmp/err")"
		fi
		changed=$((changed + 1))
	fi
done
wait "$churner" || :
say "$runs reports during repacks: $((runs - changed)) complete, $changed refused as changed"
checks=$((checks + 1))
# a report waits (some 10 s at most) for the directory to settle, so
# few of them fit into the churn; each one overlapped it
[ "$runs" -ge 1 ] || fail "no report ran during the churn"
# The race made certain with the walker's test hook: the packs are listed,
# then, while it waits, everything is packed anew and the loose objects
# it has not read yet are pruned.  Without a second look at the packs the
# walk would miss them; it must notice and start again.
# The hooks are in the test suite's build of the tool only (test_hooks.h).
hooks=${GIT_ABBREV_HOOKS:-$(dirname "$GIT_ABBREV")/../tests/git-abbrev-hooks}
[ -x "$hooks" ] || die "no $hooks: build it with make check"
# before: a pack of some objects, the rest loose
rm -f "$R"/.git/objects/pack/pack-*
cp -Rl "$tmp/loose/objects/"?? "$R/.git/objects/"
head -n 200 "$tmp/ids" | git -C "$R" pack-objects -q .git/objects/pack/pack >/dev/null
git -C "$R" prune-packed
GIT_ABBREV_TEST_PAUSE_MS=1500 "$hooks" --format=json "$R" >"$tmp/out" 2>"$tmp/err" &
reporter=$!
sleep 0.5
git -C "$R" repack -adq
git -C "$R" prune-packed
if wait "$reporter"; then rc=0; else rc=$?; fi
checks=$((checks + 1))
[ "$rc" -eq 0 ] || fail "repack during the hooked walk: exit $rc: $(cat "$tmp/err")"
[ "$rc" -ne 0 ] || oracle_compare "repack during the hooked walk" "$tmp/out" "$R"

# quiet again: the answer is complete
expect_exit 0 "$GIT_ABBREV" --format=json "$R"
oracle_compare "after the churn" "$out" "$R"
finish
